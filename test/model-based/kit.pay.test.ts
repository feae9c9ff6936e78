import { QueryClient } from '@tanstack/react-query'
import type { Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { createActor, createMachine, fromCallback, fromPromise } from 'xstate'
import { resolveConfig } from '../../src/config'
import { UserRejectedError } from '../../src/errors/connection'
import { PayCancelledError, PayFailedError, payErrorOf } from '../../src/errors/pay'
import { payCapability } from '../../src/kit/capabilities/payCapability'
import { sendCapability } from '../../src/kit/capabilities/sendCapability'
import { payGlue } from '../../src/kit/load/pay'
import { sendGlue } from '../../src/kit/load/send'
import { capabilityStatus } from '../../src/machines/capability'
import { type KitEvent, type KitInput, kitMachine } from '../../src/machines/kit'
import { type PayActorRef, type PayContext, type PayRequest, payMachine } from '../../src/machines/pay'
import {
  type FeeEstimate,
  type ReceiptRequest,
  type SendActorRef,
  type SendReceipt,
  type SendTransactionRequest,
  sendMachine,
} from '../../src/machines/send'
import { payRefusal, payToken } from '../../src/machines/send/pay'
import { kitTestInput, kitTestInputWithSolana, SOLANA_SANDBOX, testAccount } from './kit.fixtures'

/**
 * Pay (issue 18, SPEC §1 `pay`): the send flow's rules for the host's payment, then the kit machine with its real
 * modal, its Pay and send capabilities with their real glue, and the real send flow, whose wallet and chain slots
 * are scripted (the e2e test pays through the sandbox): the payment fills the send flow's form, the transfer's
 * hash or its failure reaches Pay's record, leaving Pay ends the payment.
 */
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const USDC = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
/** The wallets' transaction hashes (SPEC §5: 0x and 64 hex characters; anything else is refused). */
const NATIVE_HASH = `0x${'ab'.repeat(32)}` as Hex
const ERC20_HASH = `0x${'de'.repeat(32)}` as Hex

function payInput(pay: boolean, base: KitInput = kitTestInput('kit-pay')): KitInput {
  const { config } = base
  return { ...base, config: resolveConfig({ ...config, features: { ...config.features, pay } }) }
}

const connected = { ...testAccount('injected') }

describe('payRefusal (the send flow’s check): the rules a payment must pass', () => {
  const context = { networks: payInput(true).config.networks, connected }
  const request: PayRequest = { recipient: RECIPIENT, amount: '0.5' }

  it('takes a well-formed payment from a connected account', () => {
    expect(payRefusal(context, request)).toBeUndefined()
  })

  it('needs a connected account on the payment’s namespace', () => {
    expect(payRefusal({ ...context, connected: undefined }, request)?.name).toBe('PayNotConnectedError')
    const withSolana = payInput(true, kitTestInputWithSolana('kit-pay')).config
    const onSolana = payRefusal(
      { ...context, networks: withSolana.networks },
      { ...request, network: SOLANA_SANDBOX },
    )
    expect(onSolana?.name).toBe('PayNotConnectedError')
  })

  it('refuses malformed requests, naming the part', () => {
    const details = (r: Partial<PayRequest>) =>
      payRefusal(context, { ...request, ...r } as PayRequest)?.details
    expect(payRefusal(context, null as unknown as PayRequest)?.details).toBe('The request must be an object')
    expect(details({ network: 'eip155:1' })).toBe('eip155:1 is not a configured network')
    expect(details({ recipient: 'vitalik.eth' })).toBe('recipient: not an address on Sandbox')
    // EIP-55 strict: one letter's case changed is refused (lower and upper case carry no checksum).
    expect(details({ recipient: RECIPIENT.replace('C51812', 'c51812') })).toBe(
      'recipient: its EIP-55 checksum does not match',
    )
    expect(details({ recipient: RECIPIENT.toLowerCase() })).toBeUndefined()
    for (const amount of ['0', '0.000', '-1', 'abc', '', '1e3'])
      expect(details({ amount })).toBe('amount: must be a positive decimal with at most 18 decimals')
    expect(details({ amount: '0.1234567', asset: { address: USDC, symbol: 'USDC', decimals: 6 } })).toBe(
      'amount: must be a positive decimal with at most 6 decimals',
    )
    expect(details({ asset: { address: 'USDC', symbol: 'USDC', decimals: 6 } })).toBe(
      'asset.address: not a token address on Sandbox',
    )
    expect(details({ asset: { symbol: 'X', decimals: 1.5 } })).toBe(
      'asset.decimals: must be a whole number from 0 to 255',
    )
  })

  it('payToken: the network’s native currency without an asset, the ERC-20 with one', () => {
    expect(payToken(context, request)).toEqual({
      name: 'Ether',
      symbol: 'ETH',
      chainId: 'eip155:31337',
      price: 0,
      quantity: { decimals: '18', numeric: '' },
    })
    const usdc = payToken(context, { ...request, asset: { address: USDC, symbol: 'USDC', decimals: 6 } })
    expect(usdc).toMatchObject({ symbol: 'USDC', chainId: 'eip155:31337', address: USDC })
  })
})

/** The kit with its real modal and send flow; the send flow's wallet slots answer as `wallet` says. */
function kitWithSendFlow(
  pay: boolean,
  wallet: { answer: 'approve' | 'decline' },
  sendCode: 'loads' | 'fails' = 'loads',
) {
  const sent: SendTransactionRequest[] = []
  const fee: FeeEstimate = {
    gas: '21000',
    fee: '21000',
    formatted: '0.000000000000021',
    symbol: 'ETH',
    decimals: 18,
  }
  const send = sendMachine.provide({
    actors: {
      estimateFee: fromPromise(async () => fee),
      // The payment's nonce, read before the wallet is asked (one payment, one transaction).
      readNonce: fromPromise(async () => ({ from: RECIPIENT as `0x${string}`, nonce: 3, fromBlock: '1' })),
      sendNative: fromPromise<Hex, SendTransactionRequest>(async ({ input }) => {
        sent.push(input)
        if (wallet.answer === 'decline') throw new UserRejectedError()
        return NATIVE_HASH
      }),
      sendErc20: fromPromise<Hex, SendTransactionRequest & { token: Hex }>(async ({ input }) => {
        sent.push(input)
        return ERC20_HASH
      }),
      waitForReceipt: fromPromise<SendReceipt, ReceiptRequest>(async () => ({
        status: 'success',
        blockNumber: '2',
      })),
    },
  })
  const standIn = createMachine({})
  const quiet = fromCallback<KitEvent>(() => {})
  const machine = kitMachine.provide({
    actors: {
      connection: standIn as never,
      telemetry: quiet,
      embeddedLoader: quiet,
      followConnectors: quiet,
      chainStore: quiet as never,
      loadWallets: fromPromise(async () => standIn) as never,
      loadAccount: fromPromise(async () => standIn) as never,
    },
  })
  const input = payInput(pay)
  const services = { config: input.config, wagmi: undefined as never, queryClient: () => new QueryClient() }
  // The kit's send and Pay capabilities with their real glue; the send flow's code is the scripted one.
  const capabilities = [
    {
      ...sendCapability,
      load: async () => {
        if (sendCode === 'fails') throw new Error('the send flow’s chunk did not load')
        return { logic: send, glue: sendGlue as never }
      },
    },
    { ...payCapability, load: async () => ({ logic: payMachine, glue: payGlue(services) as never }) },
  ]
  const kit = createActor(machine, { input: { ...input, capabilities } }).start()
  kit.send({ type: 'account.connected', account: connected, method: 'browser', reconnected: false })
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
  /** Lets the loaders and the scripted slots answer. */
  const settled = async () => {
    for (let i = 0; i < 10; i++) await settle()
  }
  const view = () => {
    const { open, history } = kit.getSnapshot().context.modal
    return open ? history.at(-1) : undefined
  }
  const host = (id: string) => kit.getSnapshot().context.capabilities[id]!
  const flow = () => host('send').getSnapshot().context.actor as SendActorRef | undefined
  const sendStatus = () => flow()?.getSnapshot().value
  /** Pay's records (its capability's statechart), once it runs. */
  const records = (): PayContext | undefined =>
    (host('pay').getSnapshot().context.actor as PayActorRef | undefined)?.getSnapshot().context
  /** Every refusal Pay recorded, in order (a later one replaces the record). */
  const refusals: PayContext['payRefused'][] = []
  const note = (context: PayContext) => {
    if (context.payRefused && refusals.at(-1) !== context.payRefused) refusals.push(context.payRefused)
  }
  let watched: PayActorRef | undefined
  host('pay').subscribe((snapshot) => {
    const actor = snapshot.context.actor as PayActorRef | undefined
    if (!actor || actor === watched) return
    watched = actor
    note(actor.getSnapshot().context)
    actor.subscribe((s) => note(s.context))
  })
  return { kit, sent, settled, view, sendStatus, flow, records, refusals, host }
}

describe('the kit’s Pay, with the real send flow', () => {
  const request: PayRequest = { recipient: RECIPIENT, amount: '0.25' }

  it('with pay off: refused by Pay, nothing shown, the send flow never loaded', async () => {
    const { kit, settled, view, records, host } = kitWithSendFlow(false, { answer: 'approve' })
    kit.send({ type: 'pay.open', id: 7, request })
    await settled()
    expect(records()?.payRefused).toEqual({
      id: 7,
      error: { name: 'PayDisabledError', message: 'Pay is not enabled (features.pay is off)' },
    })
    expect(records()?.pay).toBeUndefined()
    expect(view()).toBeUndefined()
    expect(capabilityStatus(host('send').getSnapshot())).toBe('idle')
  })

  it('with pay on, a malformed request: the send flow refuses it, nothing shown, its form untouched', async () => {
    const { kit, settled, view, sendStatus, flow, records, refusals } = kitWithSendFlow(true, {
      answer: 'approve',
    })
    kit.send({ type: 'pay.open', id: 5, request: { recipient: 'vitalik.eth', amount: '0.25' } })
    // Waiting for the send flow's code: a second payment meanwhile is refused as busy.
    kit.send({ type: 'pay.open', id: 6, request })
    await settled()
    expect(refusals[0]).toMatchObject({ id: 6, error: { name: 'PayBusyError' } })
    expect(records()?.payRefused).toEqual({
      id: 5,
      error: {
        name: 'PayRequestInvalidError',
        message: 'Invalid payment request',
        details: 'recipient: not an address on Sandbox',
      },
    })
    expect(records()?.pay).toBeUndefined()
    expect(records()?.payPending).toBeUndefined()
    expect(view()).toBeUndefined()
    expect(sendStatus()).toBe('editing')
    expect(flow()!.getSnapshot().context.receiverAddress).toBeUndefined()
  })

  it('with pay on, the send flow’s code failing to load: the payment is refused, and can be asked again', async () => {
    const { kit, settled, view, records, host } = kitWithSendFlow(true, { answer: 'approve' }, 'fails')
    kit.send({ type: 'pay.open', id: 8, request })
    await settled()
    const refused = records()!.payRefused!
    expect(refused.id).toBe(8)
    expect(payErrorOf(refused.error)).toBeInstanceOf(PayFailedError)
    expect(refused.error.message).toBe('Pay could not load. Try again.')
    expect(records()!.payPending).toBeUndefined()
    expect(view()).toBeUndefined()
    // Asked again: the send flow's code is asked for again (it fails again here: refused the same way).
    kit.send({ type: 'pay.open', id: 9, request })
    await settled()
    expect(records()!.payRefused).toMatchObject({
      id: 9,
      error: { message: 'Pay could not load. Try again.' },
    })
    expect(capabilityStatus(host('send').getSnapshot())).toBe('failed')
  })

  it('with pay on: Pay shows the filled form’s preview; approved, the hash is the payment’s and Pay closes', async () => {
    const { kit, sent, settled, view, sendStatus, flow, records, refusals } = kitWithSendFlow(true, {
      answer: 'approve',
    })
    kit.send({ type: 'pay.open', id: 1, request })
    await settled()
    expect(view()).toBe('Pay')
    expect(sendStatus()).toEqual({ previewing: 'ready' })
    const form = flow()!.getSnapshot().context
    expect([form.token?.symbol, form.sendTokenAmount, form.resolvedAddress]).toEqual([
      'ETH',
      '0.25',
      RECIPIENT,
    ])
    // A second payment while this one is open is refused; this one is untouched.
    kit.send({ type: 'pay.open', id: 2, request })
    expect(refusals.at(-1)?.error.name).toBe('PayBusyError')
    expect(records()?.pay).toMatchObject({ id: 1, status: 'paying' })

    kit.send({ type: 'send.confirm' })
    await settled()
    expect(sent).toEqual([
      { chainId: 31337, to: RECIPIENT, amount: 250_000_000_000_000_000n, fee: expect.anything(), nonce: 3 },
    ])
    expect(records()?.pay).toMatchObject({ id: 1, status: 'succeeded', hash: NATIVE_HASH })
    expect(view()).toBeUndefined()
  })

  it('declined in the wallet, then left: the host hears the wallet’s refusal; left at once: cancelled', async () => {
    const { kit, settled, view, flow, records } = kitWithSendFlow(true, { answer: 'decline' })
    kit.send({ type: 'pay.open', id: 3, request })
    await settled()
    kit.send({ type: 'send.confirm' })
    await settled()
    // The failure is shown in Pay (Try again stays possible); the payment is still open.
    expect(view()).toBe('Pay')
    expect(records()?.pay?.status).toBe('paying')
    kit.send({ type: 'modal.close' })
    await settled()
    const failed = records()!.pay!
    expect(failed.status).toBe('failed')
    expect(payErrorOf(failed.error!)).toBeInstanceOf(PayFailedError)
    expect(failed.error?.code).toBe(4001)

    kit.send({ type: 'pay.open', id: 4, request })
    await settled()
    expect(view()).toBe('Pay')
    kit.send({ type: 'router.back' })
    await settled()
    expect(records()?.pay).toMatchObject({ id: 4, status: 'failed' })
    expect(payErrorOf(records()!.pay!.error!)).toBeInstanceOf(PayCancelledError)
    // The send form the payment filled is reset: the visitor's own Send starts empty.
    expect(flow()!.getSnapshot().context.sendTokenAmount).toBeUndefined()
  })
})
