import { assertEvent } from 'xstate'
import { PayBusyError, PayCancelledError, PayDisabledError, payErrorInfo } from '../../errors/pay'
import { askPay, type KitEnqueue } from './helpers'
import type { PayState } from './payTypes'
import { is, routeAfterSend } from './rules'
import type { KitContext, KitEvent } from './types'

/*
 * Pay (SPEC §1 `pay`): the host's payment, through the send flow. The kit's pay actions (setup.ts) call these.
 */

/**
 * The host's payment (`pay.open`): refused at once while Pay is off (SPEC §1, its default) or another payment is
 * open or being checked; else it waits for the send flow (loaded now if it is not yet), which checks the rest.
 */
export function openPay(context: KitContext, enqueue: KitEnqueue, event: KitEvent) {
  assertEvent(event, 'pay.open')
  const refusal = !context.config.features.pay
    ? new PayDisabledError()
    : context.pay?.status === 'paying' || context.payPending
      ? new PayBusyError()
      : undefined
  if (refusal) {
    enqueue.assign({ payRefused: { id: event.id, error: payErrorInfo(refusal) } })
    return
  }
  const payPending = { id: event.id, request: event.request }
  enqueue.assign({ payPending })
  if (context.sendFlow) askPay(context, enqueue, payPending)
  else enqueue.raise({ type: 'send.load' })
}

/** The send flow took the payment (its form filled and previewed): recorded, and Pay shown. */
export function showPay(context: KitContext, enqueue: KitEnqueue) {
  const pending = context.payPending
  if (!pending) return
  const pay: PayState = { id: pending.id, request: pending.request, status: 'paying', shown: false }
  enqueue.assign({ pay, payPending: undefined })
  enqueue.sendTo('modal', { type: 'modal.open', view: 'Pay' })
}

/**
 * Pay shown marks the payment shown; leaving it after that (close, back, Escape, a disconnect) ends the payment
 * with the transfer's last failure, or as cancelled; the send flow's form is reset.
 */
export function followPayView(context: KitContext, enqueue: KitEnqueue, event: KitEvent) {
  assertEvent(event, 'modal.shown')
  const pay = context.pay
  if (pay?.status !== 'paying') return
  const onPay = event.open && event.history.at(-1) === 'Pay'
  if (onPay && !pay.shown) enqueue.assign({ pay: { ...pay, shown: true } })
  if (onPay || !pay.shown) return
  enqueue.assign({
    pay: { ...pay, status: 'failed', error: pay.lastError ?? payErrorInfo(new PayCancelledError()) },
  })
  if (context.sendFlow) enqueue.sendTo(context.sendFlow, { type: 'send.reset' })
}

/**
 * A transfer landed (`send.succeeded`). A payment: its hash is the host's, and Pay closes (the record first, so the
 * close does not cancel it). Otherwise the preview moves on (SPEC §2). Both: the balances read again, a toast.
 */
export function afterSend(args: { context: KitContext; enqueue: KitEnqueue; event: KitEvent }) {
  const { context, enqueue, event } = args
  assertEvent(event, 'send.succeeded')
  const paid = is.paying(args)
  // A payment: its hash is the host's, and Pay closes (the record first, so the close does not cancel it).
  if (paid) {
    enqueue.assign({
      pay: { ...context.pay!, status: 'succeeded', hash: event.hash, lastError: undefined },
    })
    enqueue.sendTo('modal', { type: 'modal.close' })
  } else if (is.showsSendPreview(args)) enqueue.sendTo('modal', routeAfterSend(event))
  if (context.account) enqueue.sendTo(context.account, { type: 'account.refreshBalances' })
  enqueue.sendTo('toast', {
    type: 'toast.show',
    variant: 'success',
    message: `${paid ? 'Paid' : 'Sent'} ${event.amount} ${event.symbol}`,
  })
}
