import type { QueryClient } from '@tanstack/react-query'
import type { Config } from 'wagmi'
import { createSwapActors, refreshAfterSwap } from '../../actors/swap'
import { withSolanaSwap } from '../../actors/swapChains'
import { createConvertClient } from '../../api/convert'
import type { ResolvedKitConfig } from '../../config'
import type { CapabilityKit, CapabilityServices, LoadedCapability } from '../../machines/capability'
import { type SwapActorRef, swapMachine } from '../../machines/swap'

/**
 * The swap flow with its slots: the convert endpoints of the Data API, the build check against the configured
 * routers, the pair's on-chain decimals cached in the kit's QueryClient, wagmi for the wallet. What the kit's
 * swap capability loads, in one `import()` (see ./account.ts).
 */
export function swapLogic(config: ResolvedKitConfig, queryClient: QueryClient, wagmi: Config) {
  const convert = createConvertClient({ api: config.endpoints.api, projectId: config.projectId })
  const evm = createSwapActors({ wagmi, convert, routers: config.swapRouters, queryClient })
  const hasSolana = config.networks.some((n) => n.chainNamespace === 'solana')
  if (!hasSolana) return swapMachine.provide({ actors: evm })
  // Solana's swap (its maker's transactions, over @solana/web3.js) is a further `import()`, on its first use.
  const solana = async () =>
    (await import('../../actors/solanaSwap')).createSolanaSwapSlots({
      api: config.endpoints.api,
      projectId: config.projectId,
      networks: config.networks,
      rpcMap: config.rpcMap,
    })
  return swapMachine.provide({ actors: withSolanaSwap(evm, solana) })
}

/** The swap capability's code: its flow, and its glue beside the kit. */
export function swapCapabilityCode(
  services: CapabilityServices,
): LoadedCapability<ReturnType<typeof swapLogic>> {
  return {
    logic: swapLogic(services.config, services.queryClient(), services.wagmi),
    glue: swapGlue(services),
  }
}

/**
 * The swap's glue (SPEC §2 Swap): a success shows a toast, has the balances and the account's history read
 * again, and goes back to Account from the preview; the review passed on the form shows the preview; a wallet
 * that does not answer in time raises the kit's alert.
 */
export function swapGlue({ config, queryClient }: Pick<CapabilityServices, 'config' | 'queryClient'>) {
  return (swap: SwapActorRef, kit: CapabilityKit) => {
    const subscriptions = [
      // SPEC §9 pending transactions: the swap sent is pending in Activity until it is confirmed or reverted.
      swap.on('swap.submitted', ({ hash, chainId, kind }) => {
        if (kind === 'swap')
          kit.send({ type: 'account.transactionSent', hash, chainId: caipOfSwapChain(chainId) })
      }),
      swap.on('swap.failed', ({ error, hash }) => {
        if (hash && error.name !== 'SwapPendingError') kit.send({ type: 'account.transactionSettled', hash })
      }),
      swap.on('swap.succeeded', (notice) => {
        kit.send({ type: 'account.transactionSettled', hash: notice.hash })
        if (kit.view() === 'SwapPreview') kit.send({ type: 'router.reset', view: 'Account' })
        kit.send({ type: 'account.refreshBalances' })
        kit.send({ type: 'toast.show', variant: 'success', message: notice.message })
        refreshAfterSwap({
          config,
          queryClient: queryClient(),
          address: swap.getSnapshot().context.userAddress,
        })
      }),
      swap.on('swap.previewing', () => {
        if (kit.view() === 'Swap') kit.send({ type: 'router.push', view: 'SwapPreview' })
      }),
      swap.on('request.timedOut', (notice) => kit.send(notice)),
    ]
    return () => {
      for (const subscription of subscriptions) subscription.unsubscribe()
    }
  }
}

/** A swap's chain as CAIP-2 (an eip155 chain number, or Solana's id already). */
function caipOfSwapChain(chainId: number | `solana:${string}`): string {
  return typeof chainId === 'number' ? `eip155:${chainId}` : chainId
}
