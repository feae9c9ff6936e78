import { describe, expect, it } from 'vitest'
import { type AnyStateMachine, type AnyStateNode, createMachine, fromPromise, setup } from 'xstate'
import * as machines from '../../src/machines'
import { callsMachine } from '../../src/machines/calls'
import { smartSessionsMachine } from '../../src/machines/smartSessions'

/**
 * The "no dead end" check (issue 13): every machine of the kit, walked from its definition. A state that waits
 * on I/O (it invokes an actor, or is tagged busy / loading / pending) must have a way to end that does not
 * depend on the I/O answering:
 * - a time limit: a delayed (`after`) transition on the state or an ancestor that leaves the state, or
 * - a way out: a transition on the state or an ancestor, taken on a cancel / reset / close / back / edit /
 *   disconnect / lost / remove / clear / hide / dismiss / abort event, or on an expiry announced from outside
 *   (`…Expired`, `…Expire`), that leaves the state, or
 * - an invoked child machine that bounds itself: every state of it that is not final has a time limit (the
 *   frame's `frameRequest`, whose reply waits at most its SPEC §9 timeout).
 * An `onError` does not count: a wallet that never answers never errors either.
 * Justified exceptions are listed below with their reason; the check also fails on an exception that is no
 * longer needed, so the list stays true.
 */

const WAY_OUT = /^(cancel|reset|clear|close|back|edit|disconnect|lost|remove|hide|dismiss|abort)$/
const EXPIRY = /expired?$/i
const WAITING_TAGS = new Set(['busy', 'loading', 'pending'])

/** State id → why it may wait without a time limit or a way out. */
const EXCEPTIONS: Record<string, string> = {
  // Services that live as long as their machine: nothing to time out, the machine's parent stops them.
  connection: 'persistence and watchConnectors follow the wallet for as long as the connection machine runs',
  frame: 'persistence lives as long as the frame machine',
  kit: 'the child machines and followers live as long as the kit',
  sessionClient: 'the sign client lives as long as the session client',
  // Bounded inside their slot, not in the chart (src/machines/wallets.ts belongs to the listing work).
  'wallets.loadingFirst.featured.loading':
    'fetchWallets: requestJson aborts after WALLETS_API_TIMEOUT_MS (15 s, src/api/walletsApi.ts) and the slot rejects',
  'wallets.loadingFirst.page.loading':
    'fetchWallets: bounded by WALLETS_API_TIMEOUT_MS in its slot (see above)',
  'wallets.ready.browse.loadingMore':
    'fetchWallets: bounded by WALLETS_API_TIMEOUT_MS in its slot (see above)',
  'wallets.ready.search.searching': 'fetchWallets: bounded by WALLETS_API_TIMEOUT_MS in its slot (see above)',
  // The kit's capabilities loaded on demand (src/machines/kit/onDemand.ts).
  // A capability's host (src/machines/capability.ts): its glue follows its statechart while it runs.
  'capability.running':
    "the capability's glue lives as long as its statechart runs (one for one account leaves on an account change)",
  'kit.embedded.running': 'followFrame lives as long as the frame runs (running is never left)',
  'kit.remoteSessions.running': 'followRemoteSessions lives as long as the session client runs',
  'kit.account.running': 'followAccount lives as long as the account machine runs',
  'kit.wallets.running': 'followWallets lives as long as the wallet listing runs',
  // Sign-in (issue 15): its slots call the host's SIWX config; the kit's own (createSiwe, the Data API sessions)
  // bound every request by SIGN_IN_REQUEST_TIMEOUT_MS (src/siwx/siwe.ts). A host's own callbacks are the host's.
  'signIn.checking':
    "findSession: the SIWX config's getSessions (the kit's own: bounded by its request timeout)",
  'signIn.verifying': "verifyAndKeep: the SIWX config's addSession (bounded as above for the kit's own)",
  'signIn.revoking': "revoke: the SIWX config's revokeSession (bounded as above for the kit's own)",
  'signIn.dropping': "revoke (a kept session not to trust): the SIWX config's revokeSession (as above)",
  // The swap (issue 16): its Data API calls abort after DATA_API_TIMEOUT_MS in the convert client
  // (src/api/convert.ts, requestJson) and the slot rejects; the form's own edits also leave quoting.
  'swap.loadingTokens': 'fetchTokens: bounded by DATA_API_TIMEOUT_MS in the convert client',
  'swap.form.quoting': 'fetchQuote: bounded by DATA_API_TIMEOUT_MS in the convert client; any edit leaves it',
  // One payment, one transaction: the swap the wallet holds is never walked away from (a second swap could go live
  // beside it). Its transaction (src/machines/transaction.ts) bounds it: the time limit, then the swap's deadline
  // (its rules), then the receipt windows; `confirming` is only where the view reads it.
  'swap.swapping':
    'transaction: bounded by its time limit, the swap deadline past it, then the receipt windows',
  'swap.swapping.confirming': "the swap's transaction's receipt windows (receiptTimeout, pendingPolling)",
  // The approvals and the swap as one batch: its child (src/machines/calls/batch.ts) bounds itself (the wallet's
  // answer and the final status, each at most the swap's deadline and its margin); these are where the view reads it.
  'swap.confirmingBatch.sending':
    "the swap batch's deadline (callsRequest: the swap's validForMs and margin)",
  'swap.confirmingBatch.confirming':
    "the swap batch's deadline (callsConfirm: the swap's validForMs and margin)",
  // The send's transaction (src/machines/transaction.ts) bounds itself the same way: the time limit, then (the
  // payment's nonce held) the chain's word on it, then the receipt windows; `confirming` is where the view reads it.
  'send.transaction':
    'transaction: bounded by its time limit, the nonce checks past it (send.reset leaves them), then the receipt windows',
  'send.transaction.confirming': "the send's transaction's receipt windows (receiptTimeout, pendingPolling)",
  // The send's wallet request: the transaction that asks it leaves it at its time limit (which stops it).
  'sendWallet.native': "sendNative: the transaction's time limit (timeLimit) stops it",
  'sendWallet.erc20': "sendErc20: the transaction's time limit (timeLimit) stops it",
  'sendWallet.solana': "sendSolana: the transaction's time limit (timeLimit) stops it",
  // A transaction's nonce checks past the time limit: the chain is watched until it tells; the parent leaves them
  // (send's reset on disconnect), which stops the child.
  'transaction.overdue.checking':
    "checkNonce: one RPC read; the parent's way out (send.reset) stops the child",
  'transaction.overdue.open':
    "watchNonce: watched until the chain tells; the parent's way out stops the child",
  // Names (issue 20): the Data API calls abort after DATA_API_TIMEOUT_MS in the names client (src/api/names.ts)
  // and the slot rejects; the wallet's signature has its own time limit in the chart.
  'names.editing.checking':
    'fetchSuggestions: bounded by DATA_API_TIMEOUT_MS in the names client; any edit leaves it',
  'names.registering.submitting': 'registerName: bounded by DATA_API_TIMEOUT_MS in the names client',
}

type Found = { machine: string; id: string; why: string }

function isMachine(value: unknown): value is AnyStateMachine {
  return !!value && typeof value === 'object' && 'root' in value && 'implementations' in value
}

/** Every machine exported by src/machines, and every machine they invoke or spawn by definition. */
function allMachines(): Map<string, AnyStateMachine> {
  const found = new Map<string, AnyStateMachine>()
  const visit = (machine: AnyStateMachine) => {
    if ([...found.values()].includes(machine)) return
    let key = machine.id
    for (let n = 2; found.has(key); n++) key = `${machine.id}#${n}`
    found.set(key, machine)
    const actors = (machine.implementations.actors ?? {}) as Record<string, unknown>
    for (const logic of Object.values(actors)) if (isMachine(logic)) visit(logic)
  }
  // Batched calls' machine is walked too, though `walletstate/machines` does not export it (its declarations).
  // So is smart sessions' (loaded with the host's first permission request, not exported either).
  for (const value of [...Object.values(machines), callsMachine, smartSessionsMachine])
    if (isMachine(value)) visit(value)
  return found
}

function nodes(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap((child) => nodes(child as AnyStateNode))]
}

function ancestorsOf(node: AnyStateNode): AnyStateNode[] {
  const list: AnyStateNode[] = []
  for (let n: AnyStateNode | undefined = node; n; n = n.parent) list.push(n)
  return list
}

const within = (candidate: AnyStateNode, node: AnyStateNode) => ancestorsOf(candidate).includes(node)

/** The transition leaves `node` (a target outside it; a re-entry of itself only restarts the wait). */
const leaves = (transition: { target?: readonly unknown[] | undefined }, node: AnyStateNode) =>
  (transition.target ?? []).some((target) => !within(target as AnyStateNode, node))

function hasTimeLimit(node: AnyStateNode): boolean {
  return ancestorsOf(node).some((n) => n.after.some((t) => leaves(t as never, node)))
}

function hasWayOut(node: AnyStateNode): boolean {
  return ancestorsOf(node).some((n) =>
    [...n.transitions.entries()].some(([type, transitions]) => {
      if (type.startsWith('xstate.') || type.includes('*')) return false
      const name = type.split('.').at(-1) ?? ''
      if (!WAY_OUT.test(name) && !EXPIRY.test(name)) return false
      return transitions.some((t) => leaves(t as never, node))
    }),
  )
}

/** A state left at once by an unguarded eventless transition (a choice, it waits on nothing). */
const isTransient = (node: AnyStateNode) =>
  (node.always ?? []).some((t) => !t.guard && leaves(t as never, node))

/** A machine that ends by itself: each of its states that is not final has a time limit (or is transient). */
function boundsItself(machine: AnyStateMachine): boolean {
  return nodes(machine.root)
    .filter((n) => n.type === 'atomic')
    .every((n) => hasTimeLimit(n) || isTransient(n))
}

/** The states of `machine` that wait on I/O with no time limit and no way out. */
function deadEnds(name: string, machine: AnyStateMachine): Found[] {
  const actors = (machine.implementations.actors ?? {}) as Record<string, unknown>
  const found: Found[] = []
  for (const node of nodes(machine.root)) {
    if (node.type === 'final') continue
    const unbounded = node.invoke.filter((i) => {
      const logic = typeof i.src === 'string' ? actors[i.src] : i.src
      return !(isMachine(logic) && boundsItself(logic))
    })
    // A busy tag says "waiting" on an atomic state; on a compound one its children are checked instead.
    const tags = node.type === 'atomic' ? [...node.tags].filter((t) => WAITING_TAGS.has(t)) : []
    const waitsOnlyOnBounded = node.invoke.length > 0 && unbounded.length === 0
    if (unbounded.length === 0 && (tags.length === 0 || waitsOnlyOnBounded)) continue
    if (hasTimeLimit(node) || hasWayOut(node)) continue
    const invoked = unbounded
    const waits = [
      ...(invoked.length ? [`invokes ${invoked.map((i) => String(i.src)).join(', ')}`] : []),
      ...(tags.length ? [`tagged ${tags.join(', ')}`] : []),
    ].join(' and ')
    found.push({ machine: name, id: node.id, why: waits })
  }
  return found
}

const report = (list: Found[]) =>
  list.map((f) => `  ${f.id} (${f.machine}): ${f.why}; no time limit and no way out`).join('\n')

describe('no dead end: every state that waits on I/O can end without it', () => {
  const all = allMachines()

  it('walks every machine of the kit, the children they invoke or spawn included', () => {
    expect([...all.keys()].sort()).toEqual(
      [
        'account',
        'auth',
        'batch',
        'batch#2',
        'calls',
        'capability',
        'connection',
        'frame',
        'frameRequest',
        'incomingRequest',
        'kit',
        'modal',
        'names',
        'onramp',
        'outgoingRequest',
        'proposal',
        'send',
        'session',
        'signIn',
        'swap',
        'sessionClient',
        'toast',
        'transaction',
        // The transaction machine twice: the send's and the swap's, each with its parent's slots.
        'transaction#2',
        // The send's wallet request, its transaction's `ask` (src/machines/send/wallet.ts).
        'sendWallet',
        'smartSessions',
        'wallets',
      ].sort(),
    )
  })

  it('finds no dead end outside the listed exceptions', () => {
    const found = [...all].flatMap(([name, machine]) => deadEnds(name, machine))
    const unexcused = found.filter((f) => !(f.id in EXCEPTIONS))
    expect(`States that can wait forever:\n${report(unexcused)}`).toBe('States that can wait forever:\n')
  })

  it('every exception is still needed (a fixed state leaves the list)', () => {
    const found = new Set([...all].flatMap(([name, machine]) => deadEnds(name, machine)).map((f) => f.id))
    const stale = Object.keys(EXCEPTIONS).filter((id) => !found.has(id))
    expect(`Exceptions no longer dead ends: ${stale.join(', ')}`).toBe('Exceptions no longer dead ends: ')
  })
})

describe('the check itself', () => {
  const ask = fromPromise(() => new Promise<never>(() => {}))
  const reply = createMachine({
    id: 'reply',
    initial: 'waiting',
    states: { waiting: { after: { 1000: 'done' } }, done: { type: 'final' } },
  })
  const shaped = (waiting: object) =>
    setup({ actors: { ask, reply } }).createMachine({
      id: 'flow',
      initial: 'idle',
      states: { idle: { on: { go: 'waiting' } }, waiting, done: {} },
    })
  const ids = (machine: AnyStateMachine) => deadEnds('flow', machine).map((f) => f.id)

  it('finds a state that invokes and has no time limit or way out, or is tagged busy', () => {
    expect(ids(shaped({ invoke: { src: 'ask', onDone: 'done', onError: 'done' } }))).toEqual(['flow.waiting'])
    expect(ids(shaped({ tags: 'busy', on: { answered: 'done' } }))).toEqual(['flow.waiting'])
    // Re-entering itself restarts the wait; it is no way out.
    expect(
      ids(shaped({ invoke: { src: 'ask' }, on: { 'x.cancel': { target: 'waiting', reenter: true } } })),
    ).toEqual(['flow.waiting'])
  })

  it('accepts a time limit, a way out, or a child machine that bounds itself', () => {
    expect(ids(shaped({ invoke: { src: 'ask' }, after: { 1000: 'done' } }))).toEqual([])
    expect(ids(shaped({ invoke: { src: 'ask' }, on: { 'flow.cancel': 'idle' } }))).toEqual([])
    expect(ids(shaped({ invoke: { src: 'ask' }, on: { 'wc.requestExpired': 'done' } }))).toEqual([])
    expect(ids(shaped({ tags: 'busy', invoke: { src: 'reply', onDone: 'done' } }))).toEqual([])
  })
})
