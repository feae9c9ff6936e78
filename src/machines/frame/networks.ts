import type { FrameContext } from './types'

/*
 * SPEC §3 smart-account-enabled networks, read by the frame machine and the Account view (kept apart from the
 * machine so the view's chunk does not carry it).
 */

/** The CAIP-2 id of the frame's current network (its chain id is a number on eip155). */
export function frameNetworkId(chainId: string | number): string {
  return typeof chainId === 'number' || /^\d+$/.test(chainId) ? `eip155:${chainId}` : chainId
}

/** Whether the frame's current network is one with a smart account (SPEC §3 smart-account-enabled networks). */
export function smartAccountEnabled(
  context: Pick<FrameContext, 'chainId' | 'smartAccountNetworks'>,
): boolean {
  return context.smartAccountNetworks.includes(frameNetworkId(context.chainId))
}
