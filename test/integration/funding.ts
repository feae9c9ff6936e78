import { type Address, createPublicClient, createWalletClient, type Hex, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { Chain } from '../../sandbox/chain/chain.ts'

/**
 * Gives `to` exactly `wei` of the sandbox chain's ether and `usdc` units of its USDC (6 decimals, minted), from the
 * first dev account, each mined before it returns: an account whose balances can only be the chain's.
 *
 * @example
 * await fund(chain, holder.address, { wei: 10n ** 18n, usdc: 12_345_678n })
 */
export async function fund(chain: Chain, to: Address, { wei, usdc }: { wei: bigint; usdc: bigint }) {
  const reader = createPublicClient({ transport: http(chain.rpcUrl), pollingInterval: 20 })
  const mined = async (hash: Hex) => {
    await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 })
  }
  const deployer = createWalletClient({
    account: privateKeyToAccount(chain.accounts[0]!.privateKey),
    chain: chain.viemChain,
    transport: http(chain.rpcUrl),
  })
  const token = chain.tokens.find((t) => t.symbol === 'USDC')!
  await mined(await deployer.sendTransaction({ to, value: wei }))
  await mined(
    await deployer.writeContract({
      address: token.address,
      abi: chain.abis.erc20,
      functionName: 'mint',
      args: [to, usdc],
    }),
  )
}
