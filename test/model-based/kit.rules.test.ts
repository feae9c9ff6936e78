import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import {
  type AnyEventObject,
  assign,
  createActor,
  createMachine,
  emit,
  fromCallback,
  fromPromise,
  SimulatedClock,
} from 'xstate'
import { MULTICHAIN_SOLANA_CONNECTOR_ID } from '../../src/chains/solana/connectorIds'
import { AFTER_OPEN_PAINT_MS, IMAGE_PRELOAD_RACE_MS } from '../../src/constants'
import { ALERTS } from '../../src/errors/base'
import { namesCapability } from '../../src/kit/capabilities/namesCapability'
import { onrampCapability } from '../../src/kit/capabilities/onrampCapability'
import { sendCapability } from '../../src/kit/capabilities/sendCapability'
import { signInCapability } from '../../src/kit/capabilities/signInCapability'
import { solanaConnectionCapability } from '../../src/kit/capabilities/solanaConnection'
import { swapCapability } from '../../src/kit/capabilities/swapCapability'
import { namesGlue } from '../../src/kit/load/names'
import { onrampGlue } from '../../src/kit/load/onramp'
import { sendGlue } from '../../src/kit/load/send'
import { signInGlue } from '../../src/kit/load/signIn'
import { swapGlue } from '../../src/kit/load/swap'
import { type Capability, capabilityStatus } from '../../src/machines/capability'
import {
  type KitEvent,
  type KitInput,
  type KitSnapshot,
  kitMachine,
  selectCapability,
  selectCapabilityOffered,
  selectLegalAccepted,
} from '../../src/machines/kit'
import { fetchBalances } from '../../src/machines/kit/rules'
import { createSiwe } from '../../src/siwx/siwe'
import { kitTestInput, kitTestInputWithSolana, SOLANA_SANDBOX, shown, testAccount } from './kit.fixtures'

/**
 * The kit's cross-machine rules, one by one: every child is a recorder, so each test reads what the kit told
 * which machine (the model-based test in kit.test.ts covers every state and transition; this one checks what
 * the transitions send).
 */
type Log = Array<[string, AnyEventObject]>

function kitWithRecorders(
  overrides: Partial<KitInput> = {},
  /** The listing's loader: its code loads at once unless a test says otherwise. */
  loadWallets: () => Promise<unknown> = async () => createMachine({}),
  /** The kit's clock: a SimulatedClock for the tests that move time (the open's paint). */
  clock?: SimulatedClock,
  /** The chosen wallet's image preload (SPEC §9 image preload race): done at once unless a test says otherwise. */
  preloadImage: () => Promise<void> = async () => {},
) {
  const log: Log = []
  const invoked = (name: string) =>
    fromCallback<AnyEventObject>(({ receive }) => receive((event) => log.push([name, event])))
  const spawned = (name: string) =>
    createActor(
      createMachine({ on: { '*': { actions: ({ event }) => void log.push([name, event]) } } }),
    ).start() as never
  const quiet = fromCallback<KitEvent>(() => {})
  const standIn = createMachine({})
  /**
   * The kit's own capabilities (src/kit/capabilities) with their real glue, each running a recorder: it records
   * its input and every event, and emits what it is sent, so a test sends a capability's notice through the kit
   * as the flow would emit it.
   */
  const swapInputs: unknown[] = []
  const onrampInputs: unknown[] = []
  const namesInputs: unknown[] = []
  const signInInputs: unknown[] = []
  const recorder = (name: string, inputs: unknown[]) =>
    createMachine({
      context: ({ input }) => {
        inputs.push(input)
        return { ...(input as object) }
      },
      on: {
        '*': {
          actions: [({ event }) => void log.push([name, event]), emit(({ event }) => event as never)],
        },
      },
    })
  const input = kitTestInput('kit-rules', overrides)
  const services = { config: input.config, queryClient: () => new QueryClient() }
  const capabilities: Capability[] = [
    {
      ...swapCapability,
      load: async () => ({ logic: recorder('swap', swapInputs), glue: swapGlue(services) }),
    },
    {
      ...onrampCapability,
      load: async () => ({ logic: recorder('onramp', onrampInputs), glue: onrampGlue(services) }),
    },
    { ...namesCapability, load: async () => ({ logic: recorder('names', namesInputs), glue: namesGlue }) },
    { ...sendCapability, load: async () => ({ logic: recorder('send', []), glue: sendGlue as never }) },
    // Solana's connection (a namespace plugged in as a capability): a recorder as its statechart.
    {
      ...solanaConnectionCapability(undefined as never, undefined),
      load: async () => ({ logic: recorder('solana', []) }),
    },
    {
      ...signInCapability,
      load: async () => ({ logic: recorder('signIn', signInInputs), glue: signInGlue as never }),
    },
  ]
  const machine = kitMachine.provide({
    actions: {
      spawnFrame: assign({ frame: () => spawned('frame') }),
      spawnRemoteSessions: assign({ remoteSessions: () => spawned('remoteSessions') }),
      spawnAccount: assign({ account: () => spawned('account') }),
      spawnWallets: assign({ wallets: () => spawned('wallets') }),
    },
    actors: {
      modal: invoked('modal') as never,
      toast: invoked('toast') as never,
      connection: invoked('connection') as never,
      telemetry: invoked('telemetry') as never,
      embeddedLoader: quiet,
      followModal: quiet,
      followConnectors: quiet,
      chainStore: invoked('chainStore') as never,
      followFrame: quiet,
      followRemoteSessions: quiet,
      followAccount: quiet,
      loadEmbedded: fromPromise(async () => ({ logic: standIn, restored: undefined })) as never,
      loadRemoteSessions: fromPromise(async () => standIn) as never,
      loadAccount: fromPromise(async () => standIn) as never,
      loadWallets: fromPromise(loadWallets) as never,
      preloadImage: fromPromise(preloadImage) as never,
    },
  })
  const kit = createActor(machine, {
    input: {
      ...input,
      capabilities: capabilities.map((c) => ({ ...c, load: c.load as never })),
    },
    ...(clock ? { clock } : {}),
  }).start()
  const send = (event: unknown) => kit.send(event as KitEvent)
  /** What `name` was told since the last call. */
  const told = (name: string) => {
    const events = log.filter(([to]) => to === name).map(([, event]) => event)
    log.length = 0
    return events
  }
  return { kit, send, told, log, swapInputs, onrampInputs, namesInputs, signInInputs }
}

/** What `name` was told in a copy of the log (`told` empties the log). */
const sentTo = (entries: Log, name: string) => entries.filter(([to]) => to === name).map(([, event]) => event)
/** Where a capability is (its host's state). */
const statusOf = (kit: { getSnapshot(): KitSnapshot }, id: string) =>
  capabilityStatus(kit.getSnapshot().context.capabilities[id]!.getSnapshot())
/** A capability's running statechart, if any (its host's). */
const flowOf = (kit: { getSnapshot(): KitSnapshot }, id: string) =>
  kit.getSnapshot().context.capabilities[id]!.getSnapshot().context.actor

const account = testAccount
const tick = () => new Promise((resolve) => setTimeout(resolve, 0))
const succeeded = (native: boolean) => ({
  type: 'send.succeeded',
  hash: '0x1',
  chainId: 31337,
  namespace: 'eip155',
  native,
  symbol: native ? 'ETH' : 'STK',
  amount: '1',
  to: '0x2',
})
const SOLANA_CHAIN = 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z'
const solanaSucceeded = (native: boolean) => ({
  type: 'send.succeeded',
  hash: '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW',
  chainId: SOLANA_CHAIN,
  namespace: 'solana',
  native,
  symbol: native ? 'SOL' : 'USDC',
  amount: '0.5',
  to: '11111111111111111111111111111112',
})

describe('kit rules', () => {
  it('locale: the config’s at start; kit.setLocale changes it to one of the kit’s locales, and only to one', () => {
    const { kit, send } = kitWithRecorders()
    expect(kit.getSnapshot().context.locale).toBe('en')
    send({ type: 'kit.setLocale', locale: 'ar' })
    expect(kit.getSnapshot().context.locale).toBe('ar')
    send({ type: 'kit.setLocale', locale: 'klingon' })
    expect(kit.getSnapshot().context.locale).toBe('ar')
    const started = kitWithRecorders({ config: { ...kitTestInput('kit-rules-de').config, locale: 'de' } })
    expect(started.kit.getSnapshot().context.locale).toBe('de')
  })

  it('after a send: native goes back from the preview, ERC-20 returns to Account, balances are read fresh', async () => {
    const { send, told, log } = kitWithRecorders()
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: true })
    send(shown('Account', 'WalletSend'))
    await tick()
    send(shown('Account', 'WalletSend', 'WalletSendPreview'))
    log.length = 0
    send(succeeded(true))
    expect(told('modal')).toEqual([{ type: 'router.back' }])
    send(succeeded(false))
    expect(log.filter(([to]) => to === 'modal').map(([, e]) => e)).toEqual([
      { type: 'router.replace', view: 'Account' },
    ])
    expect(log.filter(([to]) => to === 'account').map(([, e]) => e.type)).toContain('account.refreshBalances')
    expect(told('toast')).toEqual([{ type: 'toast.show', variant: 'success', message: 'Sent 1 STK' }])
  })

  it('SPEC §9 pending transactions: a send sent is pending for the account until confirmed or reverted', async () => {
    const { send, log } = kitWithRecorders()
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: true })
    send(shown('Account', 'WalletSend'))
    await tick()
    const toAccount = () => {
      const events = log.filter(([to, e]) => to === 'account' && e.type.startsWith('account.transaction'))
      log.length = 0
      return events.map(([, e]) => e)
    }
    toAccount()
    send({ type: 'send.submitted', hash: '0x1', chainId: 31337 })
    expect(toAccount()).toEqual([{ type: 'account.transactionSent', hash: '0x1', chainId: 'eip155:31337' }])
    send(succeeded(true))
    expect(toAccount()).toEqual([{ type: 'account.transactionSettled', hash: '0x1' }])
    // Not seen mined within the polling window: still pending. Reverted: settled.
    send({ type: 'send.failed', hash: '0x2', error: { name: 'TransactionPendingError', message: 'pending' } })
    expect(toAccount()).toEqual([])
    send({
      type: 'send.failed',
      hash: '0x3',
      error: { name: 'TransactionRevertedError', message: 'reverted' },
    })
    expect(toAccount()).toEqual([{ type: 'account.transactionSettled', hash: '0x3' }])
  })

  it('after a Solana send, SOL and SPL alike, the modal returns to Account (SPEC §2)', async () => {
    const { send, told, log } = kitWithRecorders()
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: true })
    send(shown('Account', 'WalletSend'))
    await tick()
    send(shown('Account', 'WalletSend', 'WalletSendPreview'))
    told('modal')
    const modalAndToast = () => log.filter(([to]) => to === 'modal' || to === 'toast').map(([, e]) => e)
    send(solanaSucceeded(true))
    expect(modalAndToast()).toEqual([
      { type: 'router.replace', view: 'Account' },
      { type: 'toast.show', variant: 'success', message: 'Sent 0.5 SOL' },
    ])
    send(shown('Account', 'WalletSend', 'WalletSendPreview'))
    log.length = 0
    send(solanaSucceeded(false))
    expect(modalAndToast()).toEqual([
      { type: 'router.replace', view: 'Account' },
      { type: 'toast.show', variant: 'success', message: 'Sent 0.5 USDC' },
    ])
  })

  it('the send flow hears who sends: the account connected, its chain, none after a disconnect', async () => {
    const { send, told } = kitWithRecorders()
    send(shown('Account', 'WalletSend'))
    await tick()
    told('send')
    const connected = account('injected')
    send({ type: 'account.connected', account: connected, method: 'browser', reconnected: true })
    expect(told('send')).toEqual([{ type: 'send.setSender', sender: connected }])
    send({ type: 'account.chainChanged', chainId: 1, supported: true })
    expect(told('send')).toEqual([{ type: 'send.setSender', sender: { ...connected, chainId: 1 } }])
    send({ type: 'account.disconnected' })
    expect(told('send')).toEqual([{ type: 'send.setSender', sender: undefined }, { type: 'send.reset' }])
  })

  it('another of the wallet accounts shown (SPEC §3 allAccounts): the send hears its sender, its balances are read', async () => {
    const { send, told, log } = kitWithRecorders()
    const connected = account('injected')
    send({ type: 'account.connected', account: connected, method: 'browser', reconnected: true })
    // Account first: its balances load with it (the account machine, on demand).
    send(shown('Account'))
    await tick()
    send(shown('Account', 'WalletSend'))
    await tick()
    told('send')
    log.length = 0
    const second = { ...connected, address: '0x0000000000000000000000000000000000000b0b' as const }
    send({ type: 'account.changed', account: second })
    const entries = [...log]
    expect(told('send')).toEqual([{ type: 'send.setSender', sender: second }])
    expect(sentTo(entries, 'account')).toContainEqual({
      type: 'account.fetchBalances',
      address: second.address,
      chainId: 'eip155:31337',
    })
  })

  it('the send preview opens when the send machine starts previewing on the form, and only there', async () => {
    const { send, told } = kitWithRecorders()
    send(shown('Account', 'WalletSend'))
    await tick()
    told('modal')
    send({ type: 'send.previewing' })
    expect(told('modal')).toEqual([{ type: 'router.push', view: 'WalletSendPreview' }])
    send(shown('Account'))
    send({ type: 'send.previewing' })
    expect(told('modal')).toEqual([])
  })

  it('modal shake (SPEC §2): a send form refused on review (an invalid amount) shakes the modal', async () => {
    const { send, told } = kitWithRecorders()
    send(shown('Account', 'WalletSend'))
    await tick()
    told('modal')
    send({ type: 'send.refused' })
    expect(told('modal')).toEqual([{ type: 'modal.shake' }])
  })

  it('a disconnect closes the modal and resets the account and the send flow', async () => {
    const { send, told, log } = kitWithRecorders()
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: true })
    send(shown('Account', 'WalletSend'))
    await tick()
    log.length = 0
    send({ type: 'account.disconnected' })
    const to = (name: string) => log.filter(([n]) => n === name).map(([, e]) => e)
    expect(to('modal')).toEqual([{ type: 'modal.connected', connected: false }, { type: 'modal.close' }])
    expect(to('account')).toEqual([{ type: 'account.clear' }])
    expect(to('send')).toEqual([{ type: 'send.setSender', sender: undefined }, { type: 'send.reset' }])
    told('modal')
  })

  it('swap: Swap loads a flow for the account and chain connected; a new chain, account or none ends it', async () => {
    const { kit, send, told, log, swapInputs } = kitWithRecorders()
    send(shown('Account', 'Swap'))
    await tick()
    // No account, no swap flow.
    expect(statusOf(kit, 'swap')).toBe('idle')
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: true })
    send(shown('Account', 'Swap'))
    await tick()
    expect(statusOf(kit, 'swap')).toBe('running')
    expect(swapInputs).toEqual([{ chainId: 31337, userAddress: account('injected').address, balances: [] }])
    // The views' events reach it, through the kit.
    send({ type: 'swap.setAmount', amount: '100' })
    expect(told('swap')).toContainEqual({ type: 'swap.setAmount', amount: '100' })
    // Fresh balances reach it too.
    send({
      type: 'account.balancesUpdated',
      owner: { address: '0x0', chainId: 'eip155:31337' },
      balances: [],
    })
    expect(told('swap')).toContainEqual({ type: 'swap.setBalances', balances: [] })
    // Another chain while Swap shows: the old flow stops, a fresh one starts for the new chain.
    const first = flowOf(kit, 'swap')!
    send({ type: 'account.chainChanged', chainId: 1, supported: true })
    await tick()
    expect(first.getSnapshot().status).toBe('stopped')
    const second = flowOf(kit, 'swap')!
    expect(second).not.toBe(first)
    expect(swapInputs.at(-1)).toMatchObject({ chainId: 1 })
    expect(statusOf(kit, 'swap')).toBe('running')
    // Disconnected: stopped, and none starts again.
    log.length = 0
    send({ type: 'account.disconnected' })
    await tick()
    expect(second.getSnapshot().status).toBe('stopped')
    expect(flowOf(kit, 'swap')).toBeUndefined()
    expect(statusOf(kit, 'swap')).toBe('idle')
    expect(swapInputs).toHaveLength(2)
  })

  it('swap: features.swaps off never loads it; a success from the preview toasts, refreshes and returns to Account', async () => {
    const off = kitWithRecorders({
      config: {
        ...kitTestInput('kit-rules').config,
        features: { ...kitTestInput('kit-rules').config.features, swaps: false },
      },
    })
    off.send({
      type: 'account.connected',
      account: account('injected'),
      method: 'browser',
      reconnected: true,
    })
    off.send(shown('Account', 'Swap'))
    await tick()
    expect(statusOf(off.kit, 'swap')).toBe('idle')
    // The host's slippage reaches the flow.
    const tolerant = kitWithRecorders({ config: { ...kitTestInput('kit-rules').config, swapSlippage: 2.5 } })
    tolerant.send({
      type: 'account.connected',
      account: account('injected'),
      method: 'browser',
      reconnected: true,
    })
    tolerant.send(shown('Account', 'Swap'))
    await tick()
    expect(tolerant.swapInputs).toEqual([expect.objectContaining({ slippage: 2.5 })])

    const { send, told, log } = kitWithRecorders()
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: true })
    send(shown('Account', 'Swap'))
    await tick()
    send(shown('Account', 'Swap', 'SwapPreview'))
    await tick()
    log.length = 0
    const swapped = {
      type: 'swap.succeeded',
      hash: '0x3',
      chainId: 31337,
      from: 'USDC',
      to: 'ETH',
      fromAmount: '100',
      toAmount: '0.032901234567890123',
      message: 'Swapped 100 USDC for 0.032901 ETH',
    }
    send(swapped)
    expect(log.filter(([to]) => to === 'modal').map(([, e]) => e)).toEqual([
      { type: 'router.reset', view: 'Account' },
    ])
    expect(log.filter(([to]) => to === 'account').map(([, e]) => e.type)).toContain('account.refreshBalances')
    expect(told('toast')).toEqual([
      { type: 'toast.show', variant: 'success', message: 'Swapped 100 USDC for 0.032901 ETH' },
    ])
    // Elsewhere (the visitor left the preview): the toast, no routing.
    send(shown('Account'))
    log.length = 0
    send(swapped)
    expect(told('modal')).toEqual([])
  })

  it('swap: the preview opens when the swap flow starts previewing on the form, and only there', async () => {
    const { send, told } = kitWithRecorders()
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: true })
    send(shown('Account', 'Swap'))
    await tick()
    told('modal')
    send({ type: 'swap.previewing' })
    expect(told('modal')).toEqual([{ type: 'router.push', view: 'SwapPreview' }])
    send(shown('Account', 'Swap', 'SwapPreview'))
    send({ type: 'swap.previewing' })
    expect(told('modal')).toEqual([])
  })

  it('Buy: loads a flow for the eip155 account connected; its views’ events reach it; a new account ends it', async () => {
    const { kit, send, told, onrampInputs } = kitWithRecorders()
    send(shown('Account', 'OnRampProviders'))
    await tick()
    // No account, no Buy flow, and Buy not offered.
    expect(statusOf(kit, 'onramp')).toBe('idle')
    expect(selectCapabilityOffered(kit.getSnapshot(), 'onramp')).toBe(false)
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: true })
    expect(selectCapabilityOffered(kit.getSnapshot(), 'onramp')).toBe(true)
    send(shown('Account', 'OnRampProviders'))
    await tick()
    expect(statusOf(kit, 'onramp')).toBe('running')
    expect(onrampInputs).toEqual([{ address: account('injected').address, chainId: 31337 }])
    send({ type: 'onramp.setAmount', amount: '50' })
    expect(told('onramp')).toContainEqual({ type: 'onramp.setAmount', amount: '50' })
    // A provider chosen on the form: the purchase shows; elsewhere, nothing moves.
    told('modal')
    send({ type: 'onramp.opening', provider: 'coinbase' })
    expect(told('modal')).toEqual([{ type: 'router.push', view: 'OnRampPurchase' }])
    send(shown('Account', 'OnRampProviders', 'OnRampPurchase'))
    send({ type: 'onramp.opening', provider: 'coinbase' })
    expect(told('modal')).toEqual([])
    // Another chain: the old flow stops (its window no longer watched), a fresh one starts for the chain.
    const first = flowOf(kit, 'onramp')!
    send({ type: 'account.chainChanged', chainId: 1, supported: true })
    await tick()
    expect(first.getSnapshot().status).toBe('stopped')
    expect(onrampInputs.at(-1)).toEqual({ address: account('injected').address, chainId: 1 })
    send({ type: 'account.disconnected' })
    await tick()
    expect(flowOf(kit, 'onramp')).toBeUndefined()
    expect(statusOf(kit, 'onramp')).toBe('idle')
  })

  it('Buy: a purchase landed toasts "Purchase complete" and reads the balances again', async () => {
    const { send, told, log } = kitWithRecorders()
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: true })
    // The Buy flow started on its view; the purchase lands after the visitor went back to Account.
    send(shown('Account', 'OnRampProviders'))
    await tick()
    send(shown('Account'))
    await tick()
    log.length = 0
    send({
      type: 'onramp.succeeded',
      provider: 'meld',
      amount: '49.05',
      symbol: 'USDC',
      hash: '0x4',
      message: 'Purchase complete: received 49.05 USDC',
    })
    expect(log.filter(([to]) => to === 'account').map(([, e]) => e.type)).toContain('account.refreshBalances')
    expect(told('toast')).toEqual([
      { type: 'toast.show', variant: 'success', message: 'Purchase complete: received 49.05 USDC' },
    ])
  })

  it('Names: the names form shown loads a flow for the eip155 account; a name registered shows its success; a new account ends it', async () => {
    const { kit, send, told, log, namesInputs } = kitWithRecorders()
    // No account: the form shown loads nothing.
    send(shown('Account', 'RegisterAccountName'))
    await tick()
    expect(statusOf(kit, 'names')).toBe('idle')
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: true })
    // Account's "Choose a name" pushes the form; the kit loads the names flow for the view shown.
    send(shown('Account', 'RegisterAccountName'))
    await tick()
    expect(statusOf(kit, 'names')).toBe('running')
    expect(namesInputs).toEqual([{ address: account('injected').address, chainId: 31337 }])
    told('modal')
    send({ type: 'names.type', value: 'alice' })
    expect(told('names')).toContainEqual({ type: 'names.type', value: 'alice' })
    // A failure stays on the form (SPEC §2); a name registered on the form shows its success.
    send({ type: 'names.failed', name: 'alice.reown.id' })
    send({ type: 'names.signing' })
    expect(told('modal')).toEqual([])
    send({ type: 'names.registered', name: 'alice.reown.id', address: account('injected').address })
    expect(told('modal')).toEqual([{ type: 'router.push', view: 'RegisterAccountNameSuccess' }])
    // Elsewhere, a registration moves nothing.
    send(shown('Account'))
    told('modal')
    send({ type: 'names.registered', name: 'alice.reown.id', address: account('injected').address })
    expect(told('modal')).toEqual([])
    // Another chain: the old flow stops; the form shown gets a fresh one for the account on that chain.
    send(shown('Account', 'RegisterAccountName'))
    const first = flowOf(kit, 'names')!
    send({ type: 'account.chainChanged', chainId: 1, supported: true })
    await tick()
    expect(first.getSnapshot().status).toBe('stopped')
    expect(namesInputs.at(-1)).toEqual({ address: account('injected').address, chainId: 1 })
    send({ type: 'account.disconnected' })
    await tick()
    expect(flowOf(kit, 'names')).toBeUndefined()
    expect(statusOf(kit, 'names')).toBe('idle')
    log.length = 0
  })

  it('Names: not offered with features.names off, nor for a Solana account (SPEC §1: names on eip155 only)', async () => {
    const base = kitTestInput('kit-rules').config
    const off = kitWithRecorders({ config: { ...base, features: { ...base.features, names: false } } })
    off.send({
      type: 'account.connected',
      account: account('injected'),
      method: 'browser',
      reconnected: true,
    })
    off.send(shown('Account'))
    off.told('modal')
    off.send({ type: 'capabilities.load', id: 'names' })
    await tick()
    expect(off.told('modal')).toEqual([])
    expect(statusOf(off.kit, 'names')).toBe('idle')

    const solana = kitWithRecorders(kitTestInputWithSolana('kit-names'))
    await tick()
    solana.send({
      type: 'account.connected',
      account: {
        namespace: 'solana',
        address: '3oGHMXGt3YnzuuEs496heyLgzXBvXKGDEbvLZ1hbALvB',
        addresses: ['3oGHMXGt3YnzuuEs496heyLgzXBvXKGDEbvLZ1hbALvB'],
        chainId: SOLANA_SANDBOX,
        connectorId: 'solana:walletstate-solana-dev-wallet',
      },
      method: 'browser',
      reconnected: false,
    })
    expect(solana.kit.getSnapshot().context.activeNamespace).toBe('solana')
    solana.send(shown('Account'))
    solana.told('modal')
    solana.send({ type: 'capabilities.load', id: 'names' })
    await tick()
    expect(solana.told('modal')).toEqual([])
    expect(statusOf(solana.kit, 'names')).toBe('idle')
  })

  it('Buy: not offered with features.onramp off, nor in a restricted time zone (SPEC §9); its flow never loads', async () => {
    const base = kitTestInput('kit-rules').config
    for (const overrides of [
      { config: { ...base, features: { ...base.features, onramp: false } } },
      { timeZone: 'Asia/Shanghai' },
      { timeZone: 'Asia/Hong_Kong' },
    ]) {
      const { kit, send } = kitWithRecorders(overrides)
      send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: true })
      expect(selectCapabilityOffered(kit.getSnapshot(), 'onramp')).toBe(false)
      send(shown('Account', 'OnRampProviders'))
      send({ type: 'capabilities.load', id: 'onramp' })
      await tick()
      expect(statusOf(kit, 'onramp')).toBe('idle')
    }
    const paris = kitWithRecorders({ timeZone: 'Europe/Paris' })
    paris.send({
      type: 'account.connected',
      account: account('injected'),
      method: 'browser',
      reconnected: true,
    })
    expect(selectCapabilityOffered(paris.kit.getSnapshot(), 'onramp')).toBe(true)
  })

  it('the load events come from the kit when a view shows: the listing on Connect, balances on Account', async () => {
    const clock = new SimulatedClock()
    const { send, told, log } = kitWithRecorders({}, undefined, clock)
    send(shown('Connect'))
    // The listing's code waits past the open's paint (`afterOpenPaint`), then Connect's request reaches it.
    clock.increment(AFTER_OPEN_PAINT_MS)
    await tick()
    expect(told('wallets')).toEqual([{ type: 'wallets.load' }])
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: true })
    send(shown('Account'))
    await tick()
    // The account machine loaded on demand and was asked for the connected account's balances.
    expect(log.filter(([to]) => to === 'account').map(([, e]) => e)).toContainEqual({
      type: 'account.fetchBalances',
      address: account('injected').address,
      chainId: 'eip155:31337',
    })
  })

  it("the listing's code loads once the open has painted; Connect's load waits for it and then reaches it", async () => {
    let arrive: (logic: unknown) => void = () => {}
    const clock = new SimulatedClock()
    const { kit, send, told } = kitWithRecorders(
      {},
      () => new Promise((resolve) => (arrive = resolve)),
      clock,
    )
    expect(selectCapability(kit.getSnapshot(), 'wallets')).toBe('idle')
    send({ type: 'modal.open' })
    // Nothing is fetched between the press and Connect on screen: the code is asked for past the first paint.
    clock.increment(AFTER_OPEN_PAINT_MS - 1)
    expect(selectCapability(kit.getSnapshot(), 'wallets')).toBe('idle')
    clock.increment(1)
    expect(selectCapability(kit.getSnapshot(), 'wallets')).toBe('loading')
    send(shown('Connect'))
    send({ type: 'wallets.search', query: 'me' })
    send({ type: 'wallets.search', query: 'meta' })
    expect(told('wallets')).toEqual([])
    arrive(createMachine({}))
    await tick()
    expect(selectCapability(kit.getSnapshot(), 'wallets')).toBe('running')
    // In the order asked, the latest search only; afterwards each request goes straight through.
    expect(told('wallets')).toEqual([{ type: 'wallets.load' }, { type: 'wallets.search', query: 'meta' }])
    send({ type: 'wallets.loadMore' })
    expect(told('wallets')).toEqual([{ type: 'wallets.loadMore' }])
  })

  it('a request of the listing loads its code by itself (the host, All Wallets opened first)', async () => {
    const clock = new SimulatedClock()
    const { kit, send, told } = kitWithRecorders({}, undefined, clock)
    send({ type: 'wallets.load' })
    clock.increment(AFTER_OPEN_PAINT_MS)
    await tick()
    expect(selectCapability(kit.getSnapshot(), 'wallets')).toBe('running')
    expect(told('wallets')).toEqual([{ type: 'wallets.load' }])
  })

  it('a listing code that failed to load is loaded again by the next request, which then reaches it', async () => {
    let attempts = 0
    const loader = async () => {
      attempts += 1
      if (attempts === 1) throw new Error('offline')
      return createMachine({})
    }
    const clock = new SimulatedClock()
    const { kit, send, told } = kitWithRecorders({}, loader, clock)
    send({ type: 'modal.open' })
    send(shown('AllWallets'))
    clock.increment(AFTER_OPEN_PAINT_MS)
    await tick()
    expect(selectCapability(kit.getSnapshot(), 'wallets')).toBe('failed')
    send({ type: 'listing.load' })
    await tick()
    expect(selectCapability(kit.getSnapshot(), 'wallets')).toBe('running')
    expect(told('wallets')).toEqual([{ type: 'wallets.load' }])
  })

  it("parameters: features.allWallets off: the listing's code never loads", async () => {
    const base = kitTestInput('kit-rules')
    const config = { ...base.config, features: { ...base.config.features, allWallets: false } }
    const { kit, send } = kitWithRecorders({ config })
    send({ type: 'modal.open' })
    send(shown('Connect'))
    await tick()
    expect(selectCapability(kit.getSnapshot(), 'wallets')).toBe('idle')
  })

  it('UnsupportedChain opens on an unsupported chain and closes when the wallet comes back', () => {
    const { send, told } = kitWithRecorders()
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: true })
    told('modal')
    send({ type: 'account.chainChanged', chainId: 1, supported: false })
    expect(told('modal')).toEqual([{ type: 'modal.open', view: 'UnsupportedChain' }])
    send(shown('UnsupportedChain'))
    send({ type: 'account.chainChanged', chainId: 31337, supported: true })
    expect(told('modal')).toEqual([{ type: 'modal.close' }])
    // Back on a supported chain with no UnsupportedChain view open: nothing to close.
    send(shown())
    send({ type: 'account.chainChanged', chainId: 31337, supported: true })
    expect(told('modal')).toEqual([])
  })

  it('an expired proposal renews the QR code only while connecting through WalletConnect', () => {
    const { send, told } = kitWithRecorders()
    send({ type: 'remoteSessions.proposalExpired' })
    expect(told('connection')).toEqual([])
    send({ type: 'wallet.select', wallet: { id: 'some-wallet', name: 'Some Wallet' } })
    expect(told('connection')).toEqual([
      {
        type: 'connection.connect',
        connectorId: 'walletConnect',
        wallet: { id: 'some-wallet', name: 'Some Wallet' },
        method: 'qrcode',
      },
    ])
    send({ type: 'remoteSessions.proposalExpired' })
    expect(told('connection')).toEqual([{ type: 'connection.pairingExpired' }])
  })

  it('a signing request in the frame opens the closed modal on ApproveTransaction; a login view waits', () => {
    const { send, told } = kitWithRecorders()
    send({ type: 'embedded.view', view: 'EmailVerifyOtp', previous: undefined, connected: false })
    expect(told('modal')).toEqual([])
    send({ type: 'embedded.view', view: 'ApproveTransaction', previous: undefined, connected: true })
    expect(told('modal')).toEqual([{ type: 'modal.open', view: 'ApproveTransaction' }])
  })

  it('sign-in: loads at start with siwx, hears every eip155 account, and a fresh connect goes on to ConnectingSiwe', async () => {
    const { kit, send, told, log, signInInputs } = kitWithRecorders({
      config: { ...kitTestInput('kit-sign-in').config, siwx: createSiwe({ required: true }) },
    })
    await tick()
    expect(statusOf(kit, 'signIn')).toBe('running')
    expect(signInInputs).toEqual([{ required: true }])
    const signedAs = (chainId: number) => ({
      type: 'signIn.account',
      account: { address: account('injected').address, chainId: `eip155:${chainId}` },
    })
    told('modal')
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: false })
    const step = [...log]
    expect(told('signIn')).toEqual([signedAs(31337)])
    // The modal stays open on ConnectingSiwe while sign-in looks for a session, instead of closing.
    expect(sentTo(step, 'modal')).toEqual([
      { type: 'modal.connected', connected: true },
      { type: 'router.replace', view: 'ConnectingSiwe' },
    ])
    // A session is for one account on one chain: another chain asks again.
    send({ type: 'account.chainChanged', chainId: 1, supported: true })
    expect(told('signIn')).toEqual([signedAs(1)])
    send({ type: 'account.disconnected' })
    expect(told('signIn')).toEqual([{ type: 'signIn.disconnected' }])
  })

  it('sign-in: asked opens ConnectingSiwe; signed in closes it; leaving it is "Cancel"; declined disconnects and says why', async () => {
    const { kit, send, told, log } = kitWithRecorders({
      config: { ...kitTestInput('kit-sign-in').config, siwx: createSiwe() },
    })
    await tick()
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: true })
    told('modal')
    told('signIn')
    // Asked while the modal is closed: it opens on ConnectingSiwe; over another view, ConnectingSiwe replaces it.
    send({ type: 'signIn.asked' })
    expect(told('modal')).toEqual([{ type: 'modal.open', view: 'ConnectingSiwe' }])
    send(shown('Account'))
    send({ type: 'signIn.asked' })
    expect(told('modal')).toEqual([{ type: 'router.replace', view: 'ConnectingSiwe' }])
    send(shown('ConnectingSiwe'))
    send({ type: 'signIn.asked' })
    expect(told('modal')).toEqual([])
    // The visitor's answers reach sign-in; signed in, ConnectingSiwe has done its job.
    send({ type: 'signIn.sign' })
    expect(told('signIn')).toContainEqual({ type: 'signIn.sign' })
    send({ type: 'signIn.signedIn', session: {} })
    expect(told('modal')).toEqual([{ type: 'modal.close' }])
    // Closing ConnectingSiwe is "Cancel" for sign-in, not the end of a connect.
    send(shown('ConnectingSiwe'))
    told('connection')
    told('signIn')
    send({ type: 'modal.close' })
    const left = [...log]
    expect(told('signIn')).toEqual([{ type: 'signIn.cancel' }])
    expect(sentTo(left, 'connection')).toEqual([])
    expect(sentTo(left, 'modal')).toEqual([{ type: 'modal.close' }])
    // Declined while required: ConnectingSiwe closes, the eip155 account is disconnected, the toast says why.
    send(shown('ConnectingSiwe'))
    told('modal')
    send({ type: 'signIn.declined', message: 'Sign in required' })
    const declined = [...log]
    expect(sentTo(declined, 'modal')).toEqual([{ type: 'modal.close' }])
    expect(sentTo(declined, 'connection')).toEqual([{ type: 'connection.disconnect', chain: 'eip155' }])
    expect(sentTo(declined, 'toast')).toEqual([
      { type: 'toast.show', variant: 'error', message: 'Sign in required' },
    ])
    expect(statusOf(kit, 'signIn')).toBe('running')
  })

  it('sign-in: without siwx it never loads, and a fresh connect closes the modal', async () => {
    const { kit, send, told, signInInputs } = kitWithRecorders()
    await tick()
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: false })
    send(shown('ConnectingSiwe'))
    send({ type: 'capabilities.load', id: 'signIn' })
    await tick()
    expect(statusOf(kit, 'signIn')).toBe('idle')
    expect(signInInputs).toEqual([])
    expect(told('modal')).toContainEqual({ type: 'modal.close' })
  })

  it('a fresh connection closes the modal and is tracked; a silent reconnect is not', () => {
    const { send, told } = kitWithRecorders()
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: true })
    expect(told('modal')).toEqual([{ type: 'modal.connected', connected: true }])
    expect(told('telemetry')).toEqual([])
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: false })
    expect(told('modal')).toEqual([{ type: 'modal.connected', connected: true }, { type: 'modal.close' }])
  })

  it('a fresh connection sends CONNECT_SUCCESS with its method', () => {
    const { send, told } = kitWithRecorders()
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: false })
    expect(told('telemetry')).toEqual([
      {
        type: 'telemetry.send',
        event: {
          type: 'track',
          event: 'CONNECT_SUCCESS',
          properties: { method: 'browser', connector: 'injected' },
        },
      },
    ])
  })

  it('modal shake (SPEC §2): a code or address the frame refused shakes the modal', () => {
    const { send, told } = kitWithRecorders()
    send({ type: 'embedded.refused', reason: 'code' })
    expect(told('modal')).toEqual([{ type: 'modal.shake' }])
  })

  it('errors are reported (SPEC §7): a failure becomes an error event with errorType, errorMessage, stackTrace', () => {
    const { send, told } = kitWithRecorders()
    const report = {
      errorType: 'UserRejectedError',
      errorMessage: 'Connection declined in the wallet.',
      stackTrace: 'at x',
    }
    send({ type: 'kit.reportError', event: 'CONNECT_ERROR', report })
    expect(told('telemetry')).toEqual([
      { type: 'telemetry.send', event: { type: 'error', event: 'CONNECT_ERROR', ...report } },
    ])
    send({
      type: 'embedded.failed',
      error: { name: 'FrameLoadError', message: 'Unable to load email login dependency' },
      alert: ALERTS.EMBEDDED_WALLET_LOAD_FAILED,
    })
    expect(told('telemetry')).toEqual([
      {
        type: 'telemetry.send',
        event: {
          type: 'error',
          event: 'EMBEDDED_WALLET_ERROR',
          errorType: 'FrameLoadError',
          errorMessage: 'Unable to load email login dependency',
        },
      },
    ])
  })

  describe('two namespaces (issue 17): an account per namespace, the active one shown', () => {
    const SOLANA = 'solana:Hq4dzz54z5Mz3UNbSXtqh2tF4zCBtKZx' as const
    const withSolana = () => kitTestInputWithSolana('kit-namespaces')
    const solanaAccount = {
      namespace: 'solana',
      address: '3oGHMXGt3YnzuuEs496heyLgzXBvXKGDEbvLZ1hbALvB',
      addresses: ['3oGHMXGt3YnzuuEs496heyLgzXBvXKGDEbvLZ1hbALvB'],
      chainId: SOLANA,
      connectorId: 'solana:walletstate-solana-dev-wallet',
    } as const
    const connected = (acc: unknown, reconnected = false) => ({
      type: 'account.connected',
      account: acc,
      method: 'browser',
      reconnected,
    })

    it('a multichain wallet (SPEC §1): one pairing proposes Solana too; once approved, Solana takes its account, kept beside the EVM one; the session ending takes both', async () => {
      const { kit, send, told } = kitWithRecorders(withSolana())
      await tick()
      const wallet = {
        id: 'wc-wallet',
        name: 'WC Wallet',
        imageUrl: 'x',
        chainNamespaces: ['eip155', 'solana'],
      }
      send({ type: 'wallet.select', wallet })
      expect(told('connection')).toEqual([
        {
          type: 'connection.connect',
          connectorId: 'walletConnect',
          wallet,
          method: 'qrcode',
          alsoPropose: ['solana'],
        },
      ])
      expect(told('solana')).toEqual([])
      // A wallet that names Bitcoin too: its pairing proposes bip122 as well (optional).
      const withBitcoin = { ...wallet, chainNamespaces: ['eip155', 'solana', 'bip122'] }
      send({ type: 'wallet.select', wallet: withBitcoin })
      expect(told('connection')).toContainEqual(
        expect.objectContaining({ type: 'connection.connect', alsoPropose: ['solana', 'bip122'] }),
      )
      send({ ...connected(account('walletConnect')), method: 'qrcode' })
      // `along`: Solana takes the account the wallet approved there, and none is no failure.
      expect(told('solana')).toEqual([
        {
          type: 'connection.connect',
          connectorId: MULTICHAIN_SOLANA_CONNECTOR_ID,
          method: 'qrcode',
          along: true,
        },
      ])
      const along = { ...solanaAccount, connectorId: MULTICHAIN_SOLANA_CONNECTOR_ID }
      send(connected(along))
      // The EVM account stays the one shown; Solana's is there for Networks, without a prompt.
      expect(kit.getSnapshot().context.connected).toEqual(account('walletConnect'))
      expect(kit.getSnapshot().context.accounts.solana).toEqual(along)
      expect(kit.getSnapshot().context.pairedAlong).toEqual([])
      // The session ends from the EVM side: Solana's connection lets go of the account it took from it.
      send({ type: 'account.disconnected' })
      expect(told('solana')).toContainEqual({ type: 'connection.disconnect' })
      expect(kit.getSnapshot().context.accounts).toEqual({})
      expect(kit.getSnapshot().context.connected).toBeUndefined()
    })

    it("Connect's own WalletConnect entry, eip155 shown: its pairing proposes every namespace of the kit; Solana takes what the wallet approved, unless it holds an account of its own", async () => {
      const { kit, send, told } = kitWithRecorders(withSolana())
      await tick()
      const walletConnect = { id: 'walletConnect', name: 'WalletConnect' }
      send({ type: 'wallet.select', wallet: walletConnect })
      expect(told('connection')).toEqual([
        {
          type: 'connection.connect',
          connectorId: 'walletConnect',
          wallet: walletConnect,
          method: 'qrcode',
          alsoPropose: ['solana'],
        },
      ])
      expect(kit.getSnapshot().context.pairedAlong).toEqual(['solana'])
      send({ ...connected(account('walletConnect')), method: 'qrcode' })
      expect(told('solana')).toEqual([
        {
          type: 'connection.connect',
          connectorId: MULTICHAIN_SOLANA_CONNECTOR_ID,
          method: 'qrcode',
          along: true,
        },
      ])
      // A Solana account of its own (another wallet, its own pairing) is not replaced by the pairing's.
      send({ type: 'account.disconnected' })
      told('solana')
      send({ type: 'network.select', caipNetworkId: SOLANA })
      send(connected(solanaAccount))
      send({ type: 'network.select', caipNetworkId: 'eip155:31337' })
      send({ type: 'wallet.select', wallet: walletConnect })
      send({ ...connected(account('walletConnect')), method: 'qrcode' })
      expect(told('solana').filter((e) => e.type === 'connection.connect')).toEqual([])
      expect(kit.getSnapshot().context.accounts.solana).toEqual(solanaAccount)
    })

    it("a multichain wallet picked while Solana is shown pairs once for both, through the EVM pairing, not Solana's own", async () => {
      const { kit, send, told } = kitWithRecorders(withSolana())
      await tick()
      send({ type: 'network.select', caipNetworkId: SOLANA })
      expect(kit.getSnapshot().context.activeNamespace).toBe('solana')
      send({
        type: 'kit.connectors',
        connectors: [
          { id: 'solana:walletconnect', name: 'WalletConnect', type: 'walletconnect', chain: 'solana' },
        ],
      })
      told('solana')
      const wallet = {
        id: 'wc-wallet',
        name: 'WC Wallet',
        imageUrl: 'x',
        chainNamespaces: ['eip155', 'solana'],
      }
      send({ type: 'wallet.select', wallet })
      expect(told('connection')).toEqual([
        {
          type: 'connection.connect',
          connectorId: 'walletConnect',
          wallet,
          method: 'qrcode',
          alsoPropose: ['solana'],
        },
      ])
      expect(told('solana')).not.toContainEqual(expect.objectContaining({ type: 'connection.connect' }))
      expect(kit.getSnapshot().context.activeNamespace).toBe('eip155')
      // A wallet on Solana alone still pairs with Solana's own WalletConnect while Solana is shown.
      send({ type: 'network.select', caipNetworkId: SOLANA })
      told('solana')
      send({ type: 'wallet.select', wallet: { ...wallet, id: 'sol-only', chainNamespaces: ['solana'] } })
      expect(told('solana')).toContainEqual(
        expect.objectContaining({ type: 'connection.connect', connectorId: 'solana:walletconnect' }),
      )
    })

    it('Bitcoin (bip122): no balance is asked for its account (no Bitcoin service), where an EVM or Solana one is', () => {
      const sent: unknown[] = []
      const enqueue = { sendTo: (_: unknown, event: unknown) => void sent.push(event) }
      const context = { account: {} } as never
      const bitcoin = {
        namespace: 'bip122',
        address: 'mzBc4XEFSdzCDcTxAgf6EZXgsZWpztRhef',
        addresses: ['mzBc4XEFSdzCDcTxAgf6EZXgsZWpztRhef'],
        chainId: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328',
        connectorId: 'bip122:walletconnect:multichain',
      } as const
      fetchBalances(context, enqueue, bitcoin)
      expect(sent).toEqual([])
      fetchBalances(context, enqueue, solanaAccount)
      fetchBalances(context, enqueue, account('injected'))
      expect(sent).toEqual([
        { type: 'account.fetchBalances', address: solanaAccount.address, chainId: SOLANA },
        { type: 'account.fetchBalances', address: account('injected').address, chainId: 'eip155:31337' },
      ])
    })

    it('a wallet on one namespace, or a local connector, pairs for its own namespace only', async () => {
      const { send, told } = kitWithRecorders(withSolana())
      await tick()
      send({
        type: 'wallet.select',
        wallet: { id: 'evm-only', name: 'EVM', imageUrl: 'x', chainNamespaces: ['eip155'] },
      })
      expect(told('connection')[0]).not.toHaveProperty('alsoPropose')
      send({ ...connected(account('walletConnect')), method: 'qrcode' })
      expect(told('solana')).toEqual([])
      send({
        type: 'kit.connectors',
        connectors: [{ id: 'io.both', name: 'Both', type: 'announced', chain: 'eip155', rdns: 'io.both' }],
      })
      send({
        type: 'wallet.select',
        wallet: { id: 'both', name: 'Both', rdns: 'io.both', chainNamespaces: ['eip155', 'solana'] },
      })
      expect(told('connection')).toContainEqual(
        expect.objectContaining({ connectorId: 'io.both', method: 'browser' }),
      )
      expect(told('solana')).toEqual([])
    })

    it("Solana's code loads at start with a Solana network, never without one", async () => {
      const evmOnly = kitWithRecorders()
      await tick()
      expect(statusOf(evmOnly.kit, 'solanaConnection')).toBe('idle')
      const both = kitWithRecorders(withSolana())
      await tick()
      expect(statusOf(both.kit, 'solanaConnection')).toBe('running')
    })

    it('a Solana connect shows the Solana account beside the EVM one; a reconnect of the other namespace is kept, not shown', async () => {
      const { kit, send, told } = kitWithRecorders(withSolana())
      await tick()
      send(connected(account('injected'), true))
      send(connected(solanaAccount, true))
      // At start the EVM namespace is the one shown: Solana's reconnect waits for the visitor to turn to it.
      expect(kit.getSnapshot().context.connected).toEqual(account('injected'))
      expect(kit.getSnapshot().context.accounts.solana).toEqual(solanaAccount)
      told('chainStore')
      send({ type: 'account.disconnected', namespace: 'solana' })
      expect(kit.getSnapshot().context.accounts.solana).toBeUndefined()
      send(connected(solanaAccount))
      expect(kit.getSnapshot().context.activeNamespace).toBe('solana')
      expect(kit.getSnapshot().context.connected).toEqual(solanaAccount)
      expect(kit.getSnapshot().context.accounts.eip155).toEqual(account('injected'))
      // The connection stores its namespace as the last used itself; the kit stores only a choice in Networks.
      expect(told('chainStore')).toEqual([])
    })

    it("Networks: another namespace's network shows its account, or Connect for it; the active one's switches", async () => {
      const { kit, send, told, log } = kitWithRecorders(withSolana())
      await tick()
      send(connected(account('injected')))
      send(shown('Account', 'Networks'))
      told('modal')
      told('solana')
      // Nothing connected on Solana: Solana becomes the namespace shown, its connection learns the network.
      send({ type: 'network.select', caipNetworkId: SOLANA })
      expect(kit.getSnapshot().context.activeNamespace).toBe('solana')
      expect(kit.getSnapshot().context.connected).toBeUndefined()
      const to = (name: string) => log.filter(([n]) => n === name).map(([, e]) => e)
      expect(to('solana')).toEqual([{ type: 'connection.preferChain', chainId: SOLANA }])
      expect(to('modal')).toEqual([
        { type: 'modal.connected', connected: false },
        { type: 'router.push', view: 'Connect' },
      ])
      send(connected(solanaAccount))
      send(shown('Account', 'Networks'))
      log.length = 0
      // Back to the EVM network: its account shows again, no wallet asked (same chain).
      send({ type: 'network.select', caipNetworkId: 'eip155:31337' })
      expect(kit.getSnapshot().context.connected).toEqual(account('injected'))
      expect(to('connection')).toEqual([])
      expect(to('modal')).toEqual([
        { type: 'modal.connected', connected: true },
        { type: 'router.reset', view: 'Account' },
      ])
    })

    it("a connect on Solana before its connection's code has loaded waits for it, then reaches it (nothing reaches eip155's)", async () => {
      const { kit, send, told } = kitWithRecorders(withSolana())
      // At once, before the Solana connection capability's code (loading at start) has arrived.
      expect(statusOf(kit, 'solanaConnection')).toBe('loading')
      send({
        type: 'kit.connectors',
        namespace: 'solana',
        connectors: [{ id: solanaAccount.connectorId, name: 'Sol', type: 'announced', chain: 'solana' }],
      })
      told('connection')
      send({ type: 'connection.connect', connectorId: solanaAccount.connectorId })
      expect(told('connection')).toEqual([])
      await tick()
      expect(statusOf(kit, 'solanaConnection')).toBe('running')
      expect(told('solana')).toContainEqual({
        type: 'connection.connect',
        connectorId: solanaAccount.connectorId,
      })
    })

    it("the visitor's connection events go to the namespace shown; a connect to its connector's namespace", async () => {
      const { send, told } = kitWithRecorders(withSolana())
      await tick()
      send({
        type: 'kit.connectors',
        namespace: 'solana',
        connectors: [{ id: solanaAccount.connectorId, name: 'Sol', type: 'announced', chain: 'solana' }],
      })
      told('connection')
      told('solana')
      send({ type: 'connection.connect', connectorId: solanaAccount.connectorId })
      expect(told('solana')).toEqual([{ type: 'connection.connect', connectorId: solanaAccount.connectorId }])
      send({ type: 'connection.disconnect' })
      expect(told('connection')).toEqual([{ type: 'connection.disconnect' }])
      send(connected(solanaAccount))
      send({ type: 'connection.disconnect' })
      expect(told('solana')).toEqual([{ type: 'connection.disconnect' }])
      send({ type: 'connection.switchChain', chainId: SOLANA })
      expect(told('solana')).toEqual([{ type: 'connection.switchChain', chainId: SOLANA }])
      // Picking the Solana wallet in Connect: Solana's connection connects it, and Solana is the namespace shown.
      send({ type: 'wallet.select', wallet: { id: solanaAccount.connectorId, name: 'Sol' } })
      expect(told('solana')).toEqual([
        {
          type: 'connection.connect',
          connectorId: solanaAccount.connectorId,
          wallet: { id: solanaAccount.connectorId, name: 'Sol' },
          method: 'browser',
        },
      ])
    })

    it("one namespace's disconnect leaves the other's account, which is shown if it was the active one", async () => {
      const { kit, send, told } = kitWithRecorders(withSolana())
      await tick()
      send(connected(account('injected')))
      send(connected(solanaAccount))
      told('modal')
      // The EVM account (not shown) goes: Solana's stays shown, the modal is untouched.
      send({ type: 'account.disconnected', namespace: 'eip155' })
      expect(kit.getSnapshot().context.connected).toEqual(solanaAccount)
      expect(told('modal')).toEqual([])
      send(connected(account('injected')))
      send({ type: 'network.select', caipNetworkId: SOLANA })
      told('modal')
      // Solana (shown) goes: the EVM account is shown now.
      send({ type: 'account.disconnected', namespace: 'solana' })
      expect(kit.getSnapshot().context.activeNamespace).toBe('eip155')
      expect(kit.getSnapshot().context.connected).toEqual(account('injected'))
      expect(told('modal')).toEqual([{ type: 'modal.close' }, { type: 'modal.connected', connected: true }])
    })
  })
})

describe('kit rules: the embedded wallet across namespaces (issue 17)', () => {
  const SOLANA = 'solana:Hq4dzz54z5Mz3UNbSXtqh2tF4zCBtKZx'
  const SOL_ADDRESS = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV'
  const { config } = kitTestInputWithSolana('kit-rules')
  const solanaAccount = (connectorId: string) => ({
    namespace: 'solana' as const,
    address: SOL_ADDRESS,
    addresses: [SOL_ADDRESS],
    chainId: SOLANA,
    connectorId,
  })
  /** A kit with both namespaces, its frame and Solana's connection running. */
  async function bothNamespaces() {
    const h = kitWithRecorders({ config })
    h.send({ type: 'embedded.load' })
    await tick()
    await tick()
    expect(flowOf(h.kit, 'solanaConnection')).toBeDefined()
    expect(h.kit.getSnapshot().context.frame).toBeDefined()
    h.log.length = 0
    return h
  }

  it('logged in through the embedded wallet on eip155, Solana connects through the same login, no Connect', async () => {
    const { send, told, kit, log } = await bothNamespaces()
    send({
      type: 'account.connected',
      account: account('walletstateEmbedded'),
      method: 'email',
      reconnected: true,
    })
    told('modal')
    send({ type: 'network.select', caipNetworkId: SOLANA })
    const to = (name: string) => log.filter(([n]) => n === name).map(([, e]) => e)
    expect(to('solana')).toEqual([
      { type: 'connection.preferChain', chainId: SOLANA },
      { type: 'connection.connect', connectorId: 'solana:embedded', method: 'email' },
    ])
    expect(to('modal').filter((e) => e.type === 'router.push')).toEqual([])
    expect(kit.getSnapshot().context.activeNamespace).toBe('solana')
    expect(kit.getSnapshot().context.connecting).toBe('solana:embedded')
  })

  it('connected through another wallet on eip155, Solana shows Connect as before', async () => {
    const { send, told, log } = await bothNamespaces()
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: true })
    told('modal')
    send({ type: 'network.select', caipNetworkId: SOLANA })
    const to = (name: string) => log.filter(([n]) => n === name).map(([, e]) => e)
    expect(to('solana')).toEqual([{ type: 'connection.preferChain', chainId: SOLANA }])
    expect(to('modal')).toContainEqual({ type: 'router.push', view: 'Connect' })
    expect(to('frame')).toEqual([])
  })

  it("the frame's chain follows the namespace chosen while its accounts are the embedded wallet's", async () => {
    const { send, told } = await bothNamespaces()
    send({
      type: 'account.connected',
      account: account('walletstateEmbedded'),
      method: 'email',
      reconnected: true,
    })
    send({
      type: 'account.connected',
      account: solanaAccount('solana:embedded'),
      method: 'email',
      reconnected: false,
    })
    told('frame')
    send({ type: 'network.select', caipNetworkId: 'eip155:31337' })
    expect(told('frame')).toEqual([{ type: 'frame.switchNetwork', chainId: 31337 }])
    send({ type: 'network.select', caipNetworkId: SOLANA })
    expect(told('frame')).toEqual([{ type: 'frame.switchNetwork', chainId: SOLANA }])
    expect(told('solana').filter((e) => e.type === 'connection.connect')).toEqual([])
  })

  it('WalletConnect picked while Solana is shown connects through Solana’s WalletConnect connector (issue 17)', async () => {
    const { config } = kitTestInputWithSolana('kit-rules')
    const { send, told } = kitWithRecorders({ config })
    await tick()
    send({
      type: 'kit.connectors',
      namespace: 'solana',
      connectors: [
        { id: 'solana:walletconnect', name: 'WalletConnect', type: 'walletconnect', chain: 'solana' },
      ],
    })
    const walletConnect = { id: 'walletConnect', name: 'WalletConnect' }
    // eip155 shown: eip155's WalletConnect, whose pairing proposes Solana too (any wallet may scan it).
    send({ type: 'wallet.select', wallet: walletConnect })
    expect(told('connection')).toEqual([
      {
        type: 'connection.connect',
        connectorId: 'walletConnect',
        wallet: walletConnect,
        method: 'qrcode',
        alsoPropose: ['solana'],
      },
    ])
    send({ type: 'connection.cancel' })
    send({ type: 'network.select', caipNetworkId: SOLANA_SANDBOX })
    told('solana')
    send({ type: 'wallet.select', wallet: walletConnect })
    expect(told('solana')).toEqual([
      {
        type: 'connection.connect',
        connectorId: 'solana:walletconnect',
        wallet: walletConnect,
        method: 'qrcode',
      },
    ])
    expect(told('connection')).toEqual([])
    // A listing wallet with no local connector goes the same way.
    const listed = { id: 'some-wallet', name: 'Some Wallet' }
    send({ type: 'wallet.select', wallet: listed })
    expect(told('solana')).toEqual([
      { type: 'connection.connect', connectorId: 'solana:walletconnect', wallet: listed, method: 'qrcode' },
    ])
  })

  it('SPEC §2 ConnectingWalletConnectBasic: WalletConnect itself, or a wallet the listing gives nothing to show it by, pairs unbranded; a listing wallet on its own QR view', async () => {
    const { send, told } = kitWithRecorders()
    await tick()
    const views = async (wallet: { id: string; name: string; imageUrl?: string; webappLink?: string }) => {
      told('modal')
      send({ type: 'wallet.select', wallet })
      // A wallet's image is preloaded before its view shows (SPEC §9 image preload race; at once here).
      await tick()
      const pushed = told('modal').filter((e) => e.type === 'router.push')
      send({ type: 'connection.cancel' })
      return pushed
    }
    expect(await views({ id: 'walletConnect', name: 'WalletConnect' })).toEqual([
      { type: 'router.push', view: 'ConnectingWalletConnectBasic' },
    ])
    expect(await views({ id: 'unlisted', name: 'Unlisted' })).toEqual([
      { type: 'router.push', view: 'ConnectingWalletConnectBasic' },
    ])
    expect(await views({ id: 'listed', name: 'Listed', imageUrl: 'https://img.example/listed.png' })).toEqual(
      [{ type: 'router.push', view: 'ConnectingWalletConnect' }],
    )
    expect(await views({ id: 'web', name: 'Web', webappLink: 'https://wallet.example' })).toEqual([
      { type: 'router.push', view: 'ConnectingWalletConnect' },
    ])
  })

  it('legalCheckbox: no connect starts until the visitor agrees (wallet, WalletConnect, e-mail, social, host)', async () => {
    const { config } = kitTestInput('kit-rules')
    const legal = { ...config, features: { ...config.features, legalCheckbox: true } }
    const { kit, send, told, log } = kitWithRecorders({ config: legal })
    /** What each machine was told since the last call (all at once: `told` clears the whole log). */
    const toldAll = () => {
      const to = (name: string) => log.filter(([n]) => n === name).map(([, event]) => event)
      const out = { connection: to('connection'), frame: to('frame'), modal: to('modal') }
      log.length = 0
      return out
    }
    send({ type: 'embedded.load' })
    await tick()
    expect(kit.getSnapshot().context.frame).toBeDefined()
    told('frame')
    const tryEverything = () => {
      send({
        type: 'kit.connectors',
        connectors: [{ id: 'io.dev', name: 'Dev', type: 'announced', chain: 'eip155' }],
      })
      send({ type: 'wallet.select', wallet: { id: 'io.dev', name: 'Dev' } })
      send({ type: 'wallet.select', wallet: { id: 'walletConnect', name: 'WalletConnect' } })
      send({ type: 'frame.connectEmail', email: 'a@example.com' })
      send({ type: 'frame.connectSocial', provider: 'github' })
      send({ type: 'frame.connectFarcaster' })
      send({ type: 'connection.connect', connectorId: 'io.dev' })
    }
    tryEverything()
    expect(selectLegalAccepted(kit.getSnapshot())).toBe(false)
    expect(toldAll()).toEqual({ connection: [], frame: [], modal: [] })
    expect(kit.getSnapshot().context.connecting).toBeUndefined()
    // Other frame commands still reach the frame (a retry, the theme): only the logins wait.
    send({ type: 'frame.retry' })
    expect(told('frame')).toEqual([{ type: 'frame.retry' }])

    send({ type: 'legal.accept', accepted: true })
    expect(selectLegalAccepted(kit.getSnapshot())).toBe(true)
    tryEverything()
    const allowed = toldAll()
    expect(allowed.connection).toEqual([
      {
        type: 'connection.connect',
        connectorId: 'io.dev',
        wallet: { id: 'io.dev', name: 'Dev' },
        method: 'browser',
      },
      {
        type: 'connection.connect',
        connectorId: 'walletConnect',
        wallet: { id: 'walletConnect', name: 'WalletConnect' },
        method: 'qrcode',
      },
      { type: 'connection.connect', connectorId: 'io.dev' },
    ])
    expect(allowed.frame).toEqual([
      { type: 'frame.connectEmail', email: 'a@example.com' },
      { type: 'frame.connectSocial', provider: 'github' },
      { type: 'frame.connectFarcaster' },
    ])
    expect(allowed.modal).toEqual([
      { type: 'router.push', view: 'ConnectingExternal' },
      { type: 'router.push', view: 'ConnectingWalletConnectBasic' },
    ])

    // Unticked again: refused again (the acceptance is the checkbox's state, kept while the page lives).
    send({ type: 'legal.accept', accepted: false })
    tryEverything()
    expect(toldAll()).toEqual({ connection: [], frame: [], modal: [] })
  })

  it('legalCheckbox off (the default): nothing waits for an agreement', () => {
    const { kit, send, told } = kitWithRecorders()
    expect(selectLegalAccepted(kit.getSnapshot())).toBe(true)
    send({ type: 'wallet.select', wallet: { id: 'some-wallet', name: 'Some Wallet' } })
    send({ type: 'connection.connect', connectorId: 'walletConnect' })
    expect(told('connection').map((event) => event.type)).toEqual([
      'connection.connect',
      'connection.connect',
    ])
  })
})

describe('SPEC §9 image preload race 2 s', () => {
  it("a wallet's image is raced against 2 s before its Connecting view shows; a wallet without one shows at once", async () => {
    const clock = new SimulatedClock()
    let loaded: () => void = () => {}
    const { send, told } = kitWithRecorders(
      {},
      undefined,
      clock,
      () => new Promise<void>((r) => (loaded = r)),
    )
    const wallet = { id: 'some-wallet', name: 'Some Wallet', imageUrl: 'https://img.example/w.png' }
    send({ type: 'wallet.select', wallet })
    // The connect starts at once; the view waits for the image.
    expect(told('connection')).toHaveLength(1)
    expect(told('modal')).toEqual([])
    clock.increment(IMAGE_PRELOAD_RACE_MS - 1)
    expect(told('modal')).toEqual([])
    clock.increment(1)
    expect(told('modal')).toEqual([{ type: 'router.push', view: 'ConnectingWalletConnect' }])
    // The image loads before the 2 s: the view shows then.
    send({ type: 'wallet.select', wallet: { ...wallet, imageUrl: undefined, imageId: 'abc-123' } })
    expect(told('modal')).toEqual([])
    loaded()
    await tick()
    expect(told('modal')).toEqual([{ type: 'router.push', view: 'ConnectingWalletConnect' }])
    clock.increment(IMAGE_PRELOAD_RACE_MS)
    expect(told('modal')).toEqual([])
    // No image to wait for: at once.
    send({ type: 'wallet.select', wallet: { id: 'plain', name: 'Plain' } })
    expect(told('modal')).toEqual([{ type: 'router.push', view: 'ConnectingWalletConnectBasic' }])
  })
})
