import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import * as v from 'valibot'
import {
  type Address,
  concatHex,
  createPublicClient,
  createTestClient,
  createWalletClient,
  type Hex,
  http,
  keccak256,
  stringToHex,
  type Chain as ViemChain,
} from 'viem'
import { entryPoint07Address } from 'viem/account-abstraction'
import { privateKeyToAccount } from 'viem/accounts'
import { smartAccountFactoryBytecode } from '../secure-site/contracts/smart-account.gen.ts'
import {
  CREATE2_DEPLOYER,
  checkContractBuild,
  SMART_ACCOUNT_FACTORY,
  SMART_ACCOUNT_FACTORY_SALT,
} from '../secure-site/wallet.ts'

/**
 * The sandbox chain's ERC-4337 v0.7 contracts: the EntryPoint at its canonical address and the embedded wallet's
 * account factory (`SMART_ACCOUNT_FACTORY`, sandbox/secure-site/wallet.ts), both created through the deterministic
 * CREATE2 deployer anvil ships, so their addresses are the same on every start (and the EntryPoint's is the one
 * every bundler and SDK knows).
 */

/** The salt eth-infinitism deployed EntryPoint v0.7 with: it lands at {@link ENTRY_POINT_ADDRESS}. */
export const ENTRY_POINT_SALT: Hex = '0x90d8084deab30c2a37c45e8d47f49f2f7965183cb6990a98943ef94940681de3'
/** EntryPoint v0.7's canonical address (viem's `entryPoint07Address`). */
export const ENTRY_POINT_ADDRESS: Address = entryPoint07Address

/**
 * The key that deploys the stack and is the bundler's utility account (it deploys alto's simulations contract),
 * and the bundler's executor key (it sends the bundles). Ours, derived from fixed labels and funded with anvil's
 * `anvil_setBalance`, so no dev account's nonce or balance moves (tests count those).
 */
export const STACK_KEYS = {
  utility: keccak256(stringToHex('walletstate.sandbox.bundler.utility')),
  executor: keccak256(stringToHex('walletstate.sandbox.bundler.executor')),
} as const
/** What each of the two is given at start, in wei (a bundle costs well under 0.01 ETH here). */
export const STACK_KEY_BALANCE = 1_000n * 10n ** 18n

const ArtifactSchema = v.object({
  contractName: v.literal('EntryPoint'),
  bytecode: v.pipe(v.string(), v.regex(/^0x([0-9a-fA-F]{2})+$/, 'bytecode must be hex')),
})

/** EntryPoint v0.7's creation code, from `@account-abstraction/contracts`' artifact. */
export function entryPointBytecode(): Hex {
  const require = createRequire(import.meta.url)
  const path = require.resolve('@account-abstraction/contracts/artifacts/EntryPoint.json')
  return v.parse(ArtifactSchema, JSON.parse(readFileSync(path, 'utf8'))).bytecode as Hex
}

/**
 * Funds the two stack keys, then deploys EntryPoint v0.7 and the smart-account factory through the CREATE2
 * deployer (each skipped when its code is there already). `rpcUrl` is anvil's own (cheat codes).
 */
export async function deployAccountAbstraction(rpcUrl: string, viemChain: ViemChain): Promise<void> {
  // The factory's bytecode comes from the secure site's build: refuse a stale one.
  checkContractBuild()
  const transport = http(rpcUrl, { timeout: 60_000, retryCount: 0 })
  const reader = createPublicClient({ chain: viemChain, transport, pollingInterval: 20 })
  const test = createTestClient({ mode: 'anvil', chain: viemChain, transport })
  for (const key of Object.values(STACK_KEYS)) {
    await test.setBalance({ address: privateKeyToAccount(key).address, value: STACK_KEY_BALANCE })
  }
  const wallet = createWalletClient({
    account: privateKeyToAccount(STACK_KEYS.utility),
    chain: viemChain,
    transport,
  })
  const deployments: Array<[what: string, address: Address, salt: Hex, bytecode: Hex]> = [
    ['EntryPoint v0.7', ENTRY_POINT_ADDRESS, ENTRY_POINT_SALT, entryPointBytecode()],
    ['smart-account factory', SMART_ACCOUNT_FACTORY, SMART_ACCOUNT_FACTORY_SALT, smartAccountFactoryBytecode],
  ]
  for (const [what, address, salt, bytecode] of deployments) {
    const code = await reader.getCode({ address })
    if (code !== undefined && code !== '0x') continue
    const hash = await wallet.sendTransaction({ to: CREATE2_DEPLOYER, data: concatHex([salt, bytecode]) })
    const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    const deployed = await reader.getCode({ address })
    if (receipt.status !== 'success' || deployed === undefined || deployed === '0x') {
      throw new Error(`Sandbox setup failed: ${what} is not at ${address} after its deployment (${hash})`)
    }
  }
}
