import type { CapabilityKit, CapabilityServices, LoadedCapability } from '../../machines/capability'
import { type PayActorRef, payMachine } from '../../machines/pay'

/** The pay capability's code: its machine (no slots), and its glue beside the kit. */
export function payCapabilityCode(services: CapabilityServices): LoadedCapability<typeof payMachine> {
  return { logic: payMachine, glue: payGlue(services) }
}

/**
 * Pay's glue: a payment to check goes to the send flow as its form, reset (loading the send flow if it has not);
 * taken, Pay opens; paid, Pay closes; left, the form it filled is reset.
 */
export function payGlue(services: CapabilityServices) {
  return (pay: PayActorRef, kit: CapabilityKit) => {
    const subscriptions = [
      pay.on('pay.ask', ({ request }) => {
        kit.send({ type: 'send.reset' })
        kit.send({ type: 'send.pay', request, networks: services.config.networks })
      }),
      pay.on('pay.show', () => kit.send({ type: 'modal.open', view: 'Pay' })),
      pay.on('pay.done', () => kit.send({ type: 'modal.close' })),
      pay.on('pay.ended', () => kit.send({ type: 'send.reset' })),
    ]
    return () => {
      for (const subscription of subscriptions) subscription.unsubscribe()
    }
  }
}
