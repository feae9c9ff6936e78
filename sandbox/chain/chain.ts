import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hex,
  http,
  type TransactionReceipt,
  type Chain as ViemChain,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { spawnTied } from '../shared/process.ts'
import { deployAccountAbstraction } from './account-abstraction.ts'
import { hashSources, readSources } from './compile.ts'
import {
  constantProductPoolAbi,
  constantProductPoolBytecode,
  sandboxPunksAbi,
  sandboxPunksBytecode,
  sandboxSwapRouterAbi,
  sandboxSwapRouterBytecode,
  sandboxTetherAbi,
  sandboxTetherBytecode,
  sandboxTokenAbi,
  sandboxTokenBytecode,
  sandboxWethAbi,
  sandboxWethBytecode,
  sourceHash,
} from './contracts/build/artifacts.gen.ts'

/** The sandbox chain's id (anvil's usual one), as a number and as a CAIP-2 id. */
export const SANDBOX_CHAIN_ID = 31337
export const SANDBOX_CAIP_CHAIN_ID = `eip155:${SANDBOX_CHAIN_ID}`
/** The sandbox chain's name, as the demo's Networks view and the wallets show it. */
export const SANDBOX_CHAIN_NAME = 'Walletstate Sandbox'

/**
 * The second sandbox EVM chain: its own anvil, the same dev accounts and tokens, no ERC-4337 stack (the bundler
 * serves the first chain only). Its name contains no "Walletstate Sandbox", so a view that names the first chain
 * names one network.
 */
export const SANDBOX_CHAIN_2_ID = 31338
export const SANDBOX_CHAIN_2_CAIP_ID = `eip155:${SANDBOX_CHAIN_2_ID}`
export const SANDBOX_CHAIN_2_NAME = 'Second Sandbox'

/** Foundry's well-known test mnemonic: the dev accounts are the same on every start. */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk'
/** How many dev accounts anvil derives (each starts with 10,000 ETH). */
export const DEV_ACCOUNT_COUNT = 10

/** What every dev account holds after start, in base units. */
export const DEV_FUNDING = {
  usdc: 10_000n * 10n ** 6n,
  stk: 1_000n * 10n ** 18n,
  usdt: 10_000n * 10n ** 6n,
} as const

/** The pool's opening reserves: 200,000 USDC against 100,000 STK, so 1 STK is about 2 USDC. */
export const POOL_SEED = { usdc: 200_000n * 10n ** 6n, stk: 100_000n * 10n ** 18n } as const

/**
 * Opening reserves of the swap pools deployed after the USDC/STK one: 100 WETH against 300,000 USDC (1 ETH is
 * about 3,000 USDC, the Data API's ETH price) and 200,000 USDT against 200,000 USDC (1 USDT is about 1 USDC).
 */
export const SWAP_POOL_SEED = {
  wethUsdc: { weth: 100n * 10n ** 18n, usdc: 300_000n * 10n ** 6n },
  usdtUsdc: { usdt: 200_000n * 10n ** 6n, usdc: 200_000n * 10n ** 6n },
} as const

/** The address that names native ETH in the swap router and the Data API's convert calls. */
export const NATIVE_ETH_ADDRESS: Address = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'

/** Sandbox Punks minted to the first dev account at start (token ids 1..NFT_MINTED). */
export const NFT_MINTED = 5

/** Token metadata, in the order of `Chain.tokens`. */
export const TOKEN_SPECS = [
  { key: 'usdc', name: 'Sandbox USD Coin', symbol: 'USDC', decimals: 6 },
  { key: 'stk', name: 'Sandbox Token', symbol: 'STK', decimals: 18 },
  { key: 'usdt', name: 'Sandbox Tether', symbol: 'USDT', decimals: 6 },
] as const

/** ABIs of the deployed contracts (typed `as const`, so viem infers names and arguments). */
export const abis = {
  /** USDC and STK: a standard ERC-20 plus the owner-only `mint(to, value)`. */
  erc20: sandboxTokenAbi,
  /** USDT: transfer, transferFrom and approve return no value. */
  usdt: sandboxTetherAbi,
  /** Sandbox Punks, ERC-721 with on-chain `tokenURI`. */
  nft: sandboxPunksAbi,
  /** The constant-product pools (USDC/STK, WETH/USDC, USDT/USDC): getReserves, getAmountOut(tokenIn, amountIn), swap, addLiquidity, ... */
  pool: constantProductPoolAbi,
  /** Wrapped Ether: an ERC-20 plus deposit() (payable) and withdraw(value). */
  weth: sandboxWethAbi,
  /** The swap router: swapExactIn(tokenIn, tokenOut, amountIn, minAmountOut, to, deadline), getAmountOut, poolOf, ... */
  router: sandboxSwapRouterAbi,
} as const

export interface ChainAccount {
  address: Address
  privateKey: Hex
}

export interface ChainToken {
  address: Address
  symbol: string
  name: string
  decimals: number
}

export interface ChainContracts {
  usdc: Address
  stk: Address
  usdt: Address
  nft: Address
  /** Pool of token0 = USDC, token1 = STK. */
  pool: Address
  /** Wrapped Ether (SandboxWeth), deployed after the pool. */
  weth: Address
  /** The swap router (SandboxSwapRouter), with the three pools registered. */
  router: Address
  /** Pool of token0 = WETH, token1 = USDC. */
  wethUsdcPool: Address
  /** Pool of token0 = USDT, token1 = USDC. */
  usdtUsdcPool: Address
}

/** A running sandbox chain: anvil with the sandbox contracts deployed and the dev accounts funded. */
export interface Chain {
  /** anvil's own JSON-RPC URL, `http://127.0.0.1:PORT` (every method, cheat codes included). */
  rpcUrl: string
  port: number
  /** 31337 ({@link SANDBOX_CHAIN_ID}) unless started with another `chainId`. */
  chainId: number
  /** Whether ERC-4337's EntryPoint v0.7 and the smart-account factory are deployed here. */
  accountAbstraction: boolean
  /** A viem chain definition pointing at `rpcUrl`. */
  viemChain: ViemChain
  /** The dev accounts, at least 5 (10 by default); the first deployed the contracts. */
  accounts: ChainAccount[]
  contracts: ChainContracts
  /** USDC, STK and USDT. */
  tokens: ChainToken[]
  abis: typeof abis
  /**
   * anvil's state (`anvil_dumpState`) once the tokens, NFTs and pools are set up, before the ERC-4337 stack: a
   * further chain loads it to start as this one did, at the same addresses.
   */
  setupState: Hex
  /** anvil's process id. */
  pid: number
  /** Stops anvil and waits until the process has exited. Safe to call twice. */
  close(): Promise<void>
}

export interface StartChainOptions {
  /** anvil's port; 0 (the default) lets anvil pick a free one. */
  port?: number
  /** Seconds between blocks. Unset: a block per transaction (automine). Applied once the setup is mined. */
  blockTime?: number
  /** The chain id anvil serves; default {@link SANDBOX_CHAIN_ID}. */
  chainId?: number
  /** The chain's name in its viem definition; default "Walletstate Sandbox". */
  name?: string
  /** Deploy ERC-4337's EntryPoint and the smart-account factory (default true). */
  accountAbstraction?: boolean
  /**
   * Start as a copy of another sandbox chain's setup (its {@link Chain.setupState}: the same contracts at the
   * same addresses, the same balances) instead of deploying again: anvil starts at once, the state is loaded
   * when the other chain has it. The dev accounts are the same by the mnemonic.
   */
  copyOf?: Promise<Pick<Chain, 'setupState' | 'contracts'>>
}

const START_TIMEOUT_MS = 15_000
const STOP_TIMEOUT_MS = 5_000
/** anvil's last lines kept for error messages; the rest of its output is dropped. */
const OUTPUT_TAIL_LINES = 40

/** The anvil binary of `@foundry-rs/anvil-linux-amd64`. */
export function anvilBinary(): string {
  const require = createRequire(import.meta.url)
  return join(dirname(require.resolve('@foundry-rs/anvil-linux-amd64/package.json')), 'bin', 'anvil')
}

/** A viem chain definition for the sandbox chain served at `rpcUrl`. */
export function sandboxViemChain(
  rpcUrl: string,
  chainId: number = SANDBOX_CHAIN_ID,
  name: string = chainId === SANDBOX_CHAIN_2_ID ? SANDBOX_CHAIN_2_NAME : SANDBOX_CHAIN_NAME,
): ViemChain {
  return defineChain({
    id: chainId,
    name,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    testnet: true,
  })
}

/**
 * Starts anvil on 127.0.0.1 (chain id 31337), deploys the sandbox contracts from the first dev account, funds
 * every dev account with USDC, STK and USDT, mints Sandbox Punks to the first account and seeds the pool; then
 * deploys WETH, the swap router and the WETH/USDC and USDT/USDC pools, seeds them from the first account (minted
 * on top, and ETH it wraps) and registers all three pools with the router. Contract addresses are the same on every start (same deployer, same nonces).
 * Beside that, from a key of its own: ERC-4337's EntryPoint v0.7 (canonical address) and the embedded wallet's
 * smart-account factory, both through the CREATE2 deployer (`account-abstraction.ts`); `startBundler` serves them.
 *
 * @example
 * const chain = await startChain()
 * const client = createPublicClient({ chain: chain.viemChain, transport: http(chain.rpcUrl) })
 * await client.readContract({ address: chain.contracts.usdc, abi: chain.abis.erc20, functionName: 'balanceOf',
 *   args: [chain.accounts[0].address] })
 * await chain.close()
 */
export async function startChain(options: StartChainOptions = {}): Promise<Chain> {
  if (hashSources(readSources()) !== sourceHash) {
    throw new Error(
      'sandbox/chain/contracts/*.sol changed since the last build: run `npx tsx sandbox/chain/build-contracts.ts`',
    )
  }
  const expectedId = options.chainId ?? SANDBOX_CHAIN_ID
  const withAccountAbstraction = options.accountAbstraction ?? true
  const node = await spawnAnvil(options.port ?? 0, expectedId)
  try {
    const rpcUrl = `http://127.0.0.1:${node.port}`
    const viemChain = sandboxViemChain(rpcUrl, expectedId, options.name)
    const test = createTestClient({ mode: 'anvil', chain: viemChain, transport: http(rpcUrl) })
    // Logging off: anvil otherwise prints a line per RPC call that we would only read to discard.
    await test.setLoggingEnabled(false)
    const chainId = await createPublicClient({ transport: http(rpcUrl) }).getChainId()
    if (chainId !== expectedId) throw new Error(`anvil answered chain id ${chainId}`)

    let contracts: ChainContracts
    let setupState: Hex
    if (options.copyOf) {
      const source = await options.copyOf
      await test.loadState({ state: source.setupState })
      contracts = source.contracts
      setupState = source.setupState
      const code = await createPublicClient({ transport: http(rpcUrl) }).getCode({ address: contracts.usdc })
      if (code === undefined || code === '0x')
        throw new Error('Sandbox setup failed: the copied state has no USDC')
    } else {
      contracts = await deploy(rpcUrl, viemChain, node.accounts)
      setupState = await test.dumpState()
    }
    // ERC-4337 (EntryPoint v0.7, the smart-account factory) from its own key, once the rest is mined: one sender at
    // a time on the fresh chain (a test file's start once hung for its whole hook time with the two side by side).
    if (withAccountAbstraction) await deployAccountAbstraction(rpcUrl, viemChain)
    if (options.blockTime !== undefined) await test.setIntervalMining({ interval: options.blockTime })

    return {
      rpcUrl,
      port: node.port,
      chainId: expectedId,
      accountAbstraction: withAccountAbstraction,
      viemChain,
      accounts: node.accounts,
      contracts,
      tokens: TOKEN_SPECS.map(({ key, name, symbol, decimals }) => ({
        address: contracts[key],
        name,
        symbol,
        decimals,
      })),
      abis,
      setupState,
      pid: node.pid,
      close: node.stop,
    }
  } catch (error) {
    await node.stop()
    throw error
  }
}

interface AnvilNode {
  port: number
  pid: number
  accounts: ChainAccount[]
  stop(): Promise<void>
}

/** Spawns anvil and resolves once it prints the address it listens on (and the dev keys before that). */
async function spawnAnvil(port: number, chainId: number): Promise<AnvilNode> {
  const args = [
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--chain-id',
    String(chainId),
    '--mnemonic',
    DEV_MNEMONIC,
    '--accounts',
    String(DEV_ACCOUNT_COUNT),
    '--color',
    'never',
  ]
  // Tied to this process: a test runner killing its worker, or a crash, cannot leave anvil running.
  const child = await spawnTied(anvilBinary(), args, { graceMs: STOP_TIMEOUT_MS })
  const { pid, exited } = child
  const stop = () => child.stop()

  const tail: string[] = []
  const keep = (line: string) => {
    tail.push(line)
    if (tail.length > OUTPUT_TAIL_LINES) tail.shift()
  }
  createInterface({ input: child.stderr }).on('line', keep)

  try {
    const ready = await new Promise<{ port: number; keys: Hex[] }>((resolve, reject) => {
      const keys: Hex[] = []
      let section = ''
      const timer = setTimeout(() => reject(new Error('anvil did not start in time')), START_TIMEOUT_MS)
      createInterface({ input: child.stdout }).on('line', (line) => {
        keep(line)
        const text = line.trim()
        if (text === 'Private Keys') section = 'keys'
        else if (text === 'Wallet' || text === 'Available Accounts') section = ''
        const key = /^\(\d+\) (0x[0-9a-fA-F]{64})$/.exec(text)
        if (section === 'keys' && key?.[1] !== undefined) keys.push(key[1] as Hex)
        const listening = /^Listening on 127\.0\.0\.1:(\d+)$/.exec(text)
        if (listening?.[1] !== undefined) {
          clearTimeout(timer)
          resolve({ port: Number(listening[1]), keys })
        }
      })
      void exited.then(() => {
        clearTimeout(timer)
        reject(new Error(`anvil exited before listening:\n${tail.join('\n')}`))
      })
    })
    if (ready.keys.length < 5)
      throw new Error(`anvil printed ${ready.keys.length} dev keys, expected ${DEV_ACCOUNT_COUNT}`)
    const accounts = ready.keys.map((privateKey) => ({
      address: privateKeyToAccount(privateKey).address,
      privateKey,
    }))
    return { port: ready.port, pid, accounts, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/** Deploys and funds everything from the first dev account, waiting for each receipt (automine). */
async function deploy(
  rpcUrl: string,
  viemChain: ViemChain,
  accounts: ChainAccount[],
): Promise<ChainContracts> {
  const deployer = accounts[0]
  if (deployer === undefined) throw new Error('No dev account to deploy from')
  // Generous: a loaded machine (parallel test files) can take seconds to mine the setup.
  const transport = http(rpcUrl, { timeout: 60_000, retryCount: 0 })
  const reader = createPublicClient({ chain: viemChain, transport, pollingInterval: 20 })
  const wallet = createWalletClient({
    account: privateKeyToAccount(deployer.privateKey),
    chain: viemChain,
    transport,
  })

  const mined = async (hash: Hex, what: string): Promise<TransactionReceipt> => {
    // Automine has mined the transaction by the time anvil answers with its hash; waiting is the fallback.
    const receipt = await reader
      .getTransactionReceipt({ hash })
      .catch(() => reader.waitForTransactionReceipt({ hash, pollingInterval: 20 }))
    if (receipt.status !== 'success') throw new Error(`Sandbox setup failed: ${what} reverted (${hash})`)
    return receipt
  }
  const deployed = async (hash: Hex, what: string): Promise<Address> => {
    const address = (await mined(hash, what)).contractAddress
    if (!address) throw new Error(`Sandbox setup failed: ${what} has no contract address`)
    return getAddress(address)
  }

  const [usdcSpec, stkSpec, usdtSpec] = TOKEN_SPECS
  const erc20 = { abi: sandboxTokenAbi, bytecode: sandboxTokenBytecode }
  const usdc = await deployed(
    await wallet.deployContract({ ...erc20, args: [usdcSpec.name, usdcSpec.symbol, usdcSpec.decimals] }),
    'USDC deploy',
  )
  const stk = await deployed(
    await wallet.deployContract({ ...erc20, args: [stkSpec.name, stkSpec.symbol, stkSpec.decimals] }),
    'STK deploy',
  )
  const usdt = await deployed(
    await wallet.deployContract({
      abi: sandboxTetherAbi,
      bytecode: sandboxTetherBytecode,
      args: [usdtSpec.name, usdtSpec.symbol, usdtSpec.decimals],
    }),
    'USDT deploy',
  )
  const nft = await deployed(
    await wallet.deployContract({ abi: sandboxPunksAbi, bytecode: sandboxPunksBytecode }),
    'Sandbox Punks deploy',
  )
  const pool = await deployed(
    await wallet.deployContract({
      abi: constantProductPoolAbi,
      bytecode: constantProductPoolBytecode,
      args: [usdc, stk],
    }),
    'pool deploy',
  )

  const funding: Array<[Address, bigint]> = [
    [usdc, DEV_FUNDING.usdc],
    [stk, DEV_FUNDING.stk],
    [usdt, DEV_FUNDING.usdt],
  ]
  for (const account of accounts) {
    for (const [token, amount] of funding) {
      // `mint` is TokenBase's, the same in the USDT ABI, so one ABI serves all three tokens.
      const hash = await wallet.writeContract({
        address: token,
        abi: sandboxTokenAbi,
        functionName: 'mint',
        args: [account.address, amount],
      })
      await mined(hash, `mint to ${account.address}`)
    }
  }
  for (let minted = 0; minted < NFT_MINTED; minted++) {
    const hash = await wallet.writeContract({
      address: nft,
      abi: sandboxPunksAbi,
      functionName: 'mint',
      args: [deployer.address],
    })
    await mined(hash, 'Sandbox Punks mint')
  }

  // The pool seed is minted on top of the deployer's funding, so every dev account ends with the same balances.
  const seed: Array<[Address, bigint]> = [
    [usdc, POOL_SEED.usdc],
    [stk, POOL_SEED.stk],
  ]
  for (const [token, amount] of seed) {
    await mined(
      await wallet.writeContract({
        address: token,
        abi: sandboxTokenAbi,
        functionName: 'mint',
        args: [deployer.address, amount],
      }),
      'pool seed mint',
    )
    await mined(
      await wallet.writeContract({
        address: token,
        abi: sandboxTokenAbi,
        functionName: 'approve',
        args: [pool, amount],
      }),
      'pool seed approve',
    )
  }
  await mined(
    await wallet.writeContract({
      address: pool,
      abi: constantProductPoolAbi,
      functionName: 'addLiquidity',
      args: [POOL_SEED.usdc, POOL_SEED.stk],
    }),
    'pool seed',
  )

  // Swaps (issue 16): deployed after everything above, so the addresses above stay what they were.
  const weth = await deployed(
    await wallet.deployContract({ abi: sandboxWethAbi, bytecode: sandboxWethBytecode }),
    'WETH deploy',
  )
  const router = await deployed(
    await wallet.deployContract({
      abi: sandboxSwapRouterAbi,
      bytecode: sandboxSwapRouterBytecode,
      args: [weth],
    }),
    'swap router deploy',
  )
  const newPool = async (token0: Address, token1: Address, what: string) =>
    deployed(
      await wallet.deployContract({
        abi: constantProductPoolAbi,
        bytecode: constantProductPoolBytecode,
        args: [token0, token1],
      }),
      `${what} pool deploy`,
    )
  const wethUsdcPool = await newPool(weth, usdc, 'WETH/USDC')
  const usdtUsdcPool = await newPool(usdt, usdc, 'USDT/USDC')

  // The deployer wraps the WETH seed from its own ETH (10,000 at start) and is minted the tokens on top.
  await mined(
    await wallet.writeContract({
      address: weth,
      abi: sandboxWethAbi,
      functionName: 'deposit',
      value: SWAP_POOL_SEED.wethUsdc.weth,
    }),
    'WETH seed deposit',
  )
  const swapSeeds: Array<{ pool: Address; amounts: [Address, bigint][]; mint: boolean[] }> = [
    {
      pool: wethUsdcPool,
      amounts: [
        [weth, SWAP_POOL_SEED.wethUsdc.weth],
        [usdc, SWAP_POOL_SEED.wethUsdc.usdc],
      ],
      mint: [false, true],
    },
    {
      pool: usdtUsdcPool,
      amounts: [
        [usdt, SWAP_POOL_SEED.usdtUsdc.usdt],
        [usdc, SWAP_POOL_SEED.usdtUsdc.usdc],
      ],
      mint: [true, true],
    },
  ]
  for (const { pool: target, amounts, mint } of swapSeeds) {
    for (const [i, [token, amount]] of amounts.entries()) {
      if (mint[i]) {
        await mined(
          await wallet.writeContract({
            address: token,
            abi: sandboxTokenAbi,
            functionName: 'mint',
            args: [deployer.address, amount],
          }),
          'swap pool seed mint',
        )
      }
      // approve's calldata is the same whatever the token returns; the receipt tells whether it worked.
      await mined(
        await wallet.writeContract({
          address: token,
          abi: sandboxTokenAbi,
          functionName: 'approve',
          args: [target, amount],
        }),
        'swap pool seed approve',
      )
    }
    await mined(
      await wallet.writeContract({
        address: target,
        abi: constantProductPoolAbi,
        functionName: 'addLiquidity',
        args: [amounts[0]![1], amounts[1]![1]],
      }),
      'swap pool seed',
    )
  }
  for (const registered of [pool, wethUsdcPool, usdtUsdcPool]) {
    await mined(
      await wallet.writeContract({
        address: router,
        abi: sandboxSwapRouterAbi,
        functionName: 'registerPool',
        args: [registered],
      }),
      'swap pool registration',
    )
  }
  return { usdc, stk, usdt, nft, pool, weth, router, wethUsdcPool, usdtUsdcPool }
}
