import { describe, expect, it } from 'vitest'
import { assign, createActor, createMachine, fromCallback, fromPromise, type SnapshotFrom } from 'xstate'
import type { RegisteredCapability } from '../../src/machines/capability'
import { type KitEvent, kitMachine, selectLegalAccepted } from '../../src/machines/kit'
import { assertCoverage, createModel, replayPath } from '../../src/testing'
import { kitTestInput, kitTestInputWithSolana, shown, testAccount } from './kit.fixtures'
import { replayAll } from './paths'

/**
 * The kit machine alone: every child is a stand-in (a machine that does nothing), every loader settles at
 * once with a stand-in machine, so the graph explores the kit's own rules: its regions loaded on demand and
 * the guarded transitions where the machines meet.
 */
const standIn = createMachine({})
const quiet = fromCallback<KitEvent>(() => {})
/** Graph traversal reuses one actor system, so a spawn with a systemId would repeat: the refs are stand-ins. */
const ref = (_name: string) => createActor(standIn).start() as never
const machine = kitMachine.provide({
  actions: {
    spawnFrame: assign({ frame: () => ref('frame') }),
    spawnRemoteSessions: assign({ remoteSessions: () => ref('remoteSessions') }),
    spawnAccount: assign({ account: () => ref('account') }),
    spawnWallets: assign({ wallets: () => ref('wallets') }),
    // The capabilities' hosts are actors of their own (test/model-based/capability.test.ts): a stand-in here.
    spawnCapabilities: assign({
      capabilities: ({ context }) =>
        Object.fromEntries(context.input.capabilities.map((c) => [c.id, ref('capability')])),
    }),
  },
  actors: {
    modal: standIn as never,
    toast: standIn as never,
    connection: standIn as never,
    telemetry: quiet,
    embeddedLoader: quiet,
    followModal: quiet,
    followConnectors: quiet,
    followFrame: quiet,
    followRemoteSessions: quiet,
    followAccount: quiet,
    chainStore: quiet as never,
    loadEmbedded: fromPromise(async () => ({ logic: standIn, restored: undefined })) as never,
    loadRemoteSessions: fromPromise(async () => standIn) as never,
    loadAccount: fromPromise(async () => standIn) as never,
    loadWallets: fromPromise(async () => standIn) as never,
  },
})

/**
 * A capability from the contract alone (no name the kit knows): the root routes its events, tells it the view and
 * the account changes; what it does with them is its host's (capability.test.ts).
 */
const STAND_IN = 'standIn'
const standInCapability: RegisteredCapability = {
  id: STAND_IN,
  views: ['Swap'],
  offered: ({ connected }) => connected !== undefined,
  perAccount: true,
  load: async () => ({ logic: standIn }),
  input: () => ({}),
}
const input = kitTestInput('kit-model', { capabilities: [standInCapability] })
const { config } = input
const account = testAccount
const SOLANA = 'solana:Hq4dzz54z5Mz3UNbSXtqh2tF4zCBtKZx' as const
const solanaAccount = {
  namespace: 'solana',
  address: '3oGHMXGt3YnzuuEs496heyLgzXBvXKGDEbvLZ1hbALvB',
  addresses: ['3oGHMXGt3YnzuuEs496heyLgzXBvXKGDEbvLZ1hbALvB'],
  chainId: SOLANA,
  connectorId: 'solana:walletstate-solana-dev-wallet',
} as const

const done = (id: string) => ({
  type: `xstate.done.actor.${id}`,
  output: id === 'loadEmbedded' ? { logic: standIn } : standIn,
})
const failed = (id: string) => ({ type: `xstate.error.actor.${id}`, error: new Error('offline') })

const events = [
  shown('Connect'),
  shown('EmailVerifyOtp'),
  shown('UnsupportedChain'),
  shown('WalletSend'),
  shown('Swap'),
  { type: 'standIn.ping' },
  { type: 'capabilities.load', id: STAND_IN },
  // A capability's glue: the modal moved as the kit, any other event taken as the kit takes it.
  { type: 'capabilities.tell', event: { type: 'router.push', view: 'Account' } },
  { type: 'capabilities.tell', event: { type: 'toast.show', variant: 'success', message: 'Done' } },
  shown(),
  { type: 'account.connected', account: account('walletConnect'), method: 'qrcode', reconnected: false },
  { type: 'account.connected', account: account('walletstateEmbedded'), method: 'email', reconnected: true },
  { type: 'account.chainChanged', chainId: 1, supported: false },
  { type: 'account.chainChanged', chainId: 31337, supported: true },
  // Another of the wallet's shared accounts shown (SPEC §3 allAccounts).
  {
    type: 'account.changed',
    account: { ...account('walletConnect'), address: '0x0000000000000000000000000000000000000b0b' },
  },
  { type: 'embedded.view', view: 'ApproveTransaction', previous: undefined, connected: false },
  { type: 'embedded.view', view: 'EmailVerifyOtp', previous: undefined, connected: false },
  { type: 'embedded.view', view: undefined, previous: 'EmailVerifyOtp', connected: false },
  { type: 'embedded.view', view: undefined, previous: 'EmailVerifyOtp', connected: true },
  { type: 'embedded.view', view: undefined, previous: 'UpdateEmailWallet', connected: true },
  { type: 'embedded.connected', social: undefined },
  { type: 'embedded.failed', alert: { code: 'FRAME_FAILED', shortMessage: 'Frame failed', longMessage: '' } },
  { type: 'kit.connectors', connectors: [] },
  { type: 'kit.dismissAlert', code: 'FRAME_FAILED' },
  { type: 'account.balancesUpdated', owner: { address: '0x0', chainId: 'eip155:31337' }, balances: [] },
  { type: 'account.balancesUnavailable', message: 'Token Balance Unavailable', reason: 'failed' },
  { type: 'account.disconnected' },
  { type: 'wallet.select', wallet: { id: 'metamask', name: 'MetaMask' } },
  // SPEC §9 image preload race: a wallet with an image (its view waits for it, 2 s at most), one without.
  {
    type: 'kit.showConnecting',
    view: 'ConnectingWalletConnect',
    wallet: { id: 'w', name: 'W', imageUrl: 'https://img.example/w.png' },
  },
  { type: 'kit.showConnecting', view: 'ConnectingWalletConnectBasic', wallet: { id: 'p', name: 'P' } },
  { type: 'remoteSessions.sessionEnded', topic: 't', outcome: 'expired' },
  { type: 'connection.switchChain', chainId: 1 },
  { type: 'telemetry.configRefused', status: 403 },
  { type: 'frame.updateEmail', email: 'new@example.com' },
  { type: 'frame.setAccountType', accountType: 'eoa' },
  { type: 'remoteSessions.sessionEnded', topic: 't', outcome: 'peerDisconnected' },
  ...['loadEmbedded', 'loadRemoteSessions', 'loadAccount', 'loadWallets'].flatMap((id) => [
    done(id),
    failed(id),
  ]),
] as unknown as Parameters<typeof createModel<typeof machine>>[1]['events']

/**
 * The host's run-time settings (issue 18): the theme and the language at run time. They change only context that
 * no region reads, so they are explored in the default model alone: in every model they would only multiply its
 * edges. kit.theme.test.ts tests them in depth (the host's payment is Pay's capability: kit.pay.test.ts).
 */
const hostEvents = [
  { type: 'kit.setThemeMode', themeMode: 'light' },
  { type: 'kit.setThemeVariables', themeVariables: { '--ws-accent': '#ff3366' } },
  { type: 'kit.setLocale', locale: 'de' },
] as unknown as typeof events

/**
 * Two namespaces (issue 17): Solana's connection (a capability whose statechart is a namespace's connection, the
 * contract's `connection`: a stand-in here, its host telling when it runs), its account, Networks across them.
 */
const SOLANA_CONNECTION = 'solanaConnection'
const solanaConnection: RegisteredCapability = {
  id: SOLANA_CONNECTION,
  views: [],
  connection: { chain: 'solana', embeddedConnectorId: 'solana:embedded' },
  offered: () => true,
  atStart: () => true,
  load: async () => ({ logic: standIn }),
  input: () => ({}),
}
const solanaEvents = [
  { type: 'capabilities.running', id: SOLANA_CONNECTION, running: true },
  { type: 'capabilities.running', id: SOLANA_CONNECTION, running: false },
  { type: 'network.select', caipNetworkId: SOLANA },
  { type: 'network.select', caipNetworkId: 'eip155:31337' },
  { type: 'account.connected', account: solanaAccount, method: 'browser', reconnected: false },
  { type: 'account.disconnected', namespace: 'solana' },
  { type: 'kit.connectors', namespace: 'solana', connectors: [] },
] as unknown as typeof events

/** SPEC §1 legalCheckbox: every way to start a connect, before and after the visitor agrees (and disagrees). */
const legalEvents = [
  { type: 'legal.accept', accepted: true },
  { type: 'legal.accept', accepted: false },
  { type: 'frame.connectEmail', email: 'a@example.com' },
  { type: 'frame.connectSocial', provider: 'github' },
  { type: 'frame.connectFarcaster' },
  { type: 'connection.connect', connectorId: 'walletConnect' },
] as unknown as typeof events

type KitSnapshot = SnapshotFrom<typeof machine>

/** State identity: the regions, and what the kit's rules read of its context (not the children's refs). */
const serializeState = (s: KitSnapshot) =>
  JSON.stringify([
    s.value,
    s.context.modal.open,
    s.context.modal.history.at(-1),
    s.context.modal.history.length > 1,
    s.context.modal.history.includes('UnsupportedChain'),
    s.context.connected?.connectorId,
    s.context.activeNamespace,
    s.context.connecting,
    s.context.alerts.length > config.alerts.length,
    // Whether a connect may start (the rule, not the flag: with the checkbox off nothing depends on it).
    selectLegalAccepted(s),
  ])

/** One capability away from idle at a time: the regions do not read each other, so their product adds nothing. */
const stopWhen = (s: KitSnapshot) =>
  Object.values(s.value as Record<string, string>).filter((state) => state !== 'idle').length > 1

/** The kit's model from its test input with `overrides`: the same events, state identity and bound. */
const modelWith = (
  overrides: Partial<typeof input> = {},
  more: typeof events = [],
  stop: (s: KitSnapshot) => boolean = stopWhen,
) =>
  createModel(machine, {
    input: { ...input, ...overrides },
    events: [...events, ...more],
    serializeState,
    stopWhen: stop,
  })

const model = modelWith({}, hostEvents)
/** A stored login at start: the frame loads at once (the `always` of `embedded.idle`). */
const restoring = modelWith({ storedLogin: true })
/** A device without hover: the login frame loads when the modal opens (`loadsFrameOnOpen`), not on intent. */
const touch = modelWith({ frameOnOpen: true })
/**
 * A capability that loads at start, follows the accounts, goes on from a fresh connect in a view of its own and
 * hears that view being left (the contract's `atStart`, `accounts`, `afterConnect`, `leave`; sign-in is one):
 * connecting goes on to its view instead of closing, and leaving that view is told to it, not a cancelled connect.
 */
const FOLLOWER = 'follower'
const followerCapability: RegisteredCapability = {
  id: FOLLOWER,
  views: ['follower.Ask'],
  offered: () => true,
  atStart: () => true,
  load: async () => ({ logic: standIn }),
  input: () => ({}),
  accounts: (change) => ({ type: 'follower.accounts', change }),
  afterConnect: ({ connected }) => (connected?.namespace === 'eip155' ? 'follower.Ask' : undefined),
  leave: () => ({ type: 'follower.left' }),
}
const following = modelWith({ capabilities: [standInCapability, followerCapability] }, [
  shown('follower.Ask'),
  { type: 'follower.ping' },
] as unknown as typeof events)
/** A Solana network beside the EVM one (issue 17): Solana's connection loads at start. */
const withSolana = modelWith(
  {
    config: kitTestInputWithSolana('kit-model').config,
    capabilities: [standInCapability, solanaConnection],
  },
  solanaEvents,
)
/**
 * The legal checkbox on (SPEC §1): no connect starts before `legal.accept` (the `legalAccepted` guard). The
 * refusals are the root's and read nothing else, so the graph stops once the box is ticked or a capability
 * loads: beyond that the kit is the default model's.
 */
const legal = modelWith(
  { config: { ...config, features: { ...config.features, legalCheckbox: true } } },
  legalEvents,
  (s) =>
    s.context.legalAccepted || Object.values(s.value as Record<string, string>).some((v) => v !== 'idle'),
)

// `account.changed` (another of the wallet's shared accounts shown, SPEC §3 allAccounts): +1 path in each model,
// +3 in the restoring and legal ones, whose bounded graphs take the root's new transition from more end states.
// SPEC §9 image preload race (the `walletImage` region: preloading, left by the image, an error or the 2 s race):
// +4 in each model, +1 in the restoring one and +2 in the legal one, whose bounded graphs reach it from fewer states.
// SPEC §7 error telemetry and §2 shake (`kit.reportError`, `embedded.refused`): +2 in each model.
const PATHS = 87
const RESTORING_PATHS = 66
const TOUCH_PATHS = 85
const FOLLOWER_PATHS = 87
const SOLANA_PATHS = 85
const LEGAL_PATHS = 57

function invariant(s: KitSnapshot) {
  // A capability runs exactly when its region is `running`, and its ref is typed and kept.
  if (s.matches({ account: 'running' }) !== !!s.context.account) throw new Error('account ref out of step')
  if (s.matches({ embedded: 'running' }) !== !!s.context.frame) throw new Error('frame ref out of step')
  if (s.matches({ remoteSessions: 'running' }) !== !!s.context.remoteSessions)
    throw new Error('session ref out of step')
  if (s.matches({ wallets: 'running' }) !== !!s.context.wallets) throw new Error('wallets ref out of step')
  // The account shown is the active namespace's.
  if (s.context.connected !== s.context.accounts[s.context.activeNamespace])
    throw new Error('the account shown is not the active namespace’s')
  // What was asked of the listing before it ran has reached it once it runs.
  if (s.context.wallets && s.context.walletsPending.length > 0) throw new Error('listing requests held back')
  if (
    s.matches({ embedded: 'failed' }) &&
    !s.context.alerts.some((a) => a.code === 'EMBEDDED_WALLET_LOAD_FAILED')
  )
    throw new Error('embedded failure without its alert')
}

describe('kit machine, model-based', () => {
  it('has the expected number of covering paths (a change to the machine shows here)', () => {
    expect([
      model.paths.length,
      restoring.paths.length,
      touch.paths.length,
      following.paths.length,
      withSolana.paths.length,
      legal.paths.length,
    ]).toEqual([PATHS, RESTORING_PATHS, TOUCH_PATHS, FOLLOWER_PATHS, SOLANA_PATHS, LEGAL_PATHS])
  })

  for (const path of model.paths) {
    it(`replays ${path.description}`, () => {
      replayPath(model, path, { invariant })
    })
  }
  for (const path of restoring.paths) {
    it(`replays, a stored login restored, ${path.description}`, () => {
      replayPath(restoring, path, { invariant })
    })
  }

  for (const path of touch.paths) {
    it(`replays, without hover, ${path.description}`, () => {
      replayPath(touch, path, { invariant })
    })
  }

  for (const path of following.paths) {
    it(`replays, with a capability that follows the accounts, ${path.description}`, () => {
      replayPath(following, path, { invariant })
    })
  }

  for (const path of withSolana.paths) {
    it(`replays, with a Solana network, ${path.description}`, () => {
      replayPath(withSolana, path, { invariant })
    })
  }

  for (const path of legal.paths) {
    it(`replays, with the legal checkbox, ${path.description}`, () => {
      replayPath(legal, path, { invariant })
    })
  }

  it('reaches every state and takes every transition of the machine', () => {
    assertCoverage(model, replayAll([model, restoring, touch, following, withSolana, legal], { invariant }))
  })
})
