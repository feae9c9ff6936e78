import type { QueryClient } from '@tanstack/react-query'
import type { Config } from 'wagmi'
import { createSendActors } from '../../actors/send'
import { getDataApiClient } from '../../api/dataApi'
import type { ResolvedKitConfig } from '../../config'
import type { CapabilityKit, CapabilityServices, LoadedCapability } from '../../machines/capability'
import { routeAfterSend, type SendActorRef, sendMachine } from '../../machines/send'

/**
 * The send machine with its wagmi actors; a receiver's name resolves through the Data API. What the send
 * capability loads, in one `import()` (see ./account.ts). Solana's send (over @solana/web3.js, beside Solana's
 * connection) is a further `import()`, made on the first Solana send only.
 */
export function sendLogic(config: ResolvedKitConfig, queryClient: QueryClient, wagmi: Config) {
  const api = getDataApiClient(config, queryClient)
  const hasSolana = config.networks.some((n) => n.chainNamespace === 'solana')
  const solana = async () =>
    (await import('../../actors/solanaSend')).createSolanaSender(config.networks, config.rpcMap)
  return sendMachine.provide({
    actors: createSendActors({ wagmi, names: { api, queryClient }, ...(hasSolana ? { solana } : {}) }),
  })
}

/** The send capability's code: its flow, and its glue beside the kit. */
export function sendCapabilityCode(
  services: CapabilityServices,
): LoadedCapability<ReturnType<typeof sendLogic>> {
  return { logic: sendLogic(services.config, services.queryClient(), services.wagmi), glue: sendGlue }
}

/**
 * The send flow's glue. A transfer landed: while Pay shows it is the host's payment (Pay closes), else the
 * preview moves on (SPEC §2, `routeAfterSend`); either way the balances are read again and a toast says so. A
 * transfer failing while Pay shows is kept for the payment; the form accepted shows the preview; the send
 * flow's answer to a payment goes to Pay; a wallet request that ran out of time raises the kit's alert. A
 * transaction sent is the account's pending one (SPEC §9) until it is confirmed or reverted.
 */
export function sendGlue(send: SendActorRef, kit: CapabilityKit) {
  const subscriptions = [
    send.on('send.succeeded', (notice) => {
      kit.send({ type: 'account.transactionSettled', hash: notice.hash })
      const paid = kit.view() === 'Pay'
      if (paid) kit.send({ type: 'pay.sent', hash: notice.hash })
      else if (kit.view() === 'WalletSendPreview') kit.send(routeAfterSend(notice))
      kit.send({ type: 'account.refreshBalances' })
      kit.send({
        type: 'toast.show',
        variant: 'success',
        message: `${paid ? 'Paid' : 'Sent'} ${notice.amount} ${notice.symbol}`,
      })
    }),
    send.on('send.failed', ({ error, hash }) => {
      if (kit.view() === 'Pay') kit.send({ type: 'pay.transferFailed', error })
      // SPEC §9 pending transactions: a sent one that reverted is settled; one not seen mined stays pending.
      if (hash && error.name !== 'TransactionPendingError')
        kit.send({ type: 'account.transactionSettled', hash })
    }),
    // SPEC §9 pending transactions: what the kit sent is pending in Activity until it is confirmed.
    send.on('send.submitted', ({ hash, chainId }) =>
      kit.send({ type: 'account.transactionSent', hash, chainId: `eip155:${chainId}` }),
    ),
    // SPEC §2 modal shake: the form was refused (an invalid amount, receiver or token).
    send.on('send.refused', () => kit.send({ type: 'modal.shake' })),
    send.on('send.previewing', () => {
      if (kit.view() === 'WalletSend') kit.send({ type: 'router.push', view: 'WalletSendPreview' })
    }),
    send.on('send.payAccepted', () => kit.send({ type: 'pay.accepted' })),
    send.on('send.payRefused', ({ error }) => kit.send({ type: 'pay.refused', error })),
    send.on('request.timedOut', (notice) => kit.send(notice)),
  ]
  return () => {
    for (const subscription of subscriptions) subscription.unsubscribe()
  }
}
