import type { Capability } from '../../machines/capability'
import type { PayMachineEvent } from '../../machines/pay/types'

declare module '../../machines/capability/contract' {
  interface CapabilityEvents {
    pay: PayMachineEvent
  }
}

/**
 * Pay (SPEC §1 `pay`, off by default): the host's payment (src/machines/pay.ts), made by the send flow with its
 * form filled. Its small code loads with the host's first payment (`pay.open`, which waits for it); it follows
 * the views (Pay shown, then left, ends the payment). Its glue: src/kit/load/pay.ts.
 */
export const payCapability: Capability = {
  id: 'pay',
  views: [],
  offered: () => true,
  load: async (services) => (await import('../load/pay')).payCapabilityCode(services),
  input: ({ config }) => ({ enabled: config.features.pay }),
  view: (view) => ({ type: 'pay.view', view }),
}
