import { describe, expect, it } from 'vitest'
import {
  createActor,
  type EventFromLogic,
  fromCallback,
  fromPromise,
  type SnapshotFrom,
  waitFor,
} from 'xstate'
import { createPermissionStore } from '../../src/actors/smartSessions'
import { smartSessionsMachine } from '../../src/machines/smartSessions'
import type { AccountKind } from '../../src/machines/smartSessions/events'
import type { GrantedPermission } from '../../src/machines/smartSessions/types'
import { createKitStore, memoryStorage, STORAGE_PREFIX } from '../../src/storage'
import { assertCoverage, createModel, replayPath } from '../../src/testing'
import { replayAll } from './paths'

/**
 * Smart sessions (src/machines/smartSessions.ts): every order of the host's grants (valid, malformed) and
 * revokes, the account, and the wallet's answers (its account kind, the grant or revoke done or failed). The slots
 * never settle on their own: each answer is an event of the path. The invariant holds what the host reads
 * (src/react/smartSessions.ts): no wallet is asked with the feature off, without an account, for a malformed
 * request or from an account that is not a smart account; what is granted is listed until revoked. The stored
 * permissions (the slot `permissionStore`'s answers, events of the path too): the account shown's are listed,
 * never an expired one, never another account's.
 */
const never = <T>() => new Promise<T>(() => {})
const modelMachine = smartSessionsMachine.provide({
  actors: {
    accountKind: fromPromise(never<AccountKind>),
    grant: fromPromise(never<GrantedPermission>),
    revoke: fromPromise(never<void>),
    permissionStore: fromCallback(() => {}),
  },
})
type Snapshot = SnapshotFrom<typeof modelMachine>
type Event = EventFromLogic<typeof modelMachine>

const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as const
const SIGNER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const
const USDC = '0x5FbDB2315678afecb367f032d93F642f64180aa3' as const
const ID = `0x${'ab'.repeat(32)}` as const
const VALID = { signer: SIGNER, token: USDC, limit: '10000000', expiry: 2_000_000_000 }
const PERMISSION: GrantedPermission = {
  id: ID,
  address: ALICE,
  chainId: 31337,
  signer: SIGNER,
  token: USDC,
  limit: '10000000',
  expiry: 2_000_000_000,
}

const NOW = 1_900_000_000_000
const STORED: GrantedPermission = { ...PERMISSION, id: `0x${'cd'.repeat(32)}` }
const EXPIRED: GrantedPermission = { ...PERMISSION, id: `0x${'ef'.repeat(32)}`, expiry: NOW / 1000 - 1 }
const BOB = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' as const

const events = [
  { type: 'smartSessions.grant', id: 1, request: VALID },
  { type: 'smartSessions.grant', id: 2, request: { ...VALID, limit: '0' } },
  { type: 'smartSessions.revoke', id: 3, permissionId: ID },
  { type: 'smartSessions.revoke', id: 4, permissionId: 'not-an-id' },
  { type: 'smartSessions.account', account: undefined },
  { type: 'smartSessions.account', account: { address: ALICE, chainId: 31337 } },
  { type: 'xstate.done.actor.accountKind', output: { kind: 'smartAccount', permissions: true } },
  { type: 'xstate.done.actor.accountKind', output: { kind: 'eoa', permissions: false } },
  // A smart account whose wallet does not report ERC-7715 permissions in wallet_getCapabilities.
  { type: 'xstate.done.actor.accountKind', output: { kind: 'smartAccount', permissions: false } },
  { type: 'xstate.error.actor.accountKind', error: new Error('no capabilities') },
  { type: 'xstate.done.actor.grant', output: PERMISSION },
  { type: 'xstate.error.actor.grant', error: Object.assign(new Error('User rejected'), { code: 4001 }) },
  { type: 'xstate.done.actor.revoke', output: undefined },
  { type: 'xstate.error.actor.revoke', error: new Error('No active permission') },
  {
    type: 'smartSessions.stored',
    account: { address: ALICE, chainId: 31337 },
    permissions: [STORED],
    now: NOW,
  },
  {
    type: 'smartSessions.stored',
    account: { address: ALICE, chainId: 31337 },
    permissions: [EXPIRED],
    now: NOW,
  },
  {
    type: 'smartSessions.stored',
    account: { address: BOB, chainId: 31337 },
    permissions: [{ ...STORED, address: BOB }],
    now: NOW,
  },
] as unknown as Event[]

const serializeState = (s: Snapshot) =>
  JSON.stringify([
    s.value,
    s.context.account !== undefined,
    s.context.granted.length,
    s.context.outcome?.kind,
    s.context.outcome?.error?.name,
    s.context.refused !== undefined,
  ])

const modelFor = (enabled: boolean, connected: boolean) =>
  createModel(modelMachine, {
    input: { enabled, account: connected ? { address: ALICE, chainId: 31337 } : undefined },
    events,
    serializeState,
  })
const on = modelFor(true, true)
const onDisconnected = modelFor(true, false)
const off = modelFor(false, true)
const PATHS = { on: 27, onDisconnected: 27, off: 3 }

function invariant(s: Snapshot) {
  const { outcome, granted, enabled, refused } = s.context
  const asking =
    s.matches({ ready: 'checking' }) || s.matches({ ready: 'granting' }) || s.matches({ ready: 'revoking' })
  if (asking !== (outcome?.phase === 'pending'))
    throw new Error('a request on its way outside the asking states')
  if (!enabled && (asking || granted.length > 0))
    throw new Error('the wallet was asked with smart sessions off')
  if (!enabled && outcome && outcome.error?.name !== 'SmartSessionsDisabledError')
    throw new Error('refused with smart sessions off, but not saying so')
  if ((outcome?.id === 2 || outcome?.id === 4) && outcome.phase !== 'failed')
    throw new Error('a malformed request went on')
  if (s.matches({ ready: 'granted' }) && granted.at(-1)?.id !== ID) throw new Error('granted, yet not listed')
  if (s.matches({ ready: 'revoked' }) && granted.some((p) => p.id === ID))
    throw new Error('revoked, yet listed')
  if (s.matches({ ready: 'failed' }) && !outcome?.error) throw new Error('failed without its error')
  if ((s.matches({ ready: 'granting' }) || s.matches({ ready: 'revoking' })) && !s.context.request)
    throw new Error('the wallet asked without a request')
  if (granted.some((p) => p.id === EXPIRED.id)) throw new Error('an expired stored permission is listed')
  if (granted.some((p) => p.address === BOB)) throw new Error("another account's stored permission is listed")
  if (new Set(granted.map((p) => p.id)).size !== granted.length) throw new Error('a permission listed twice')
  if (refused && refused.error.name !== 'PermissionsBusyError')
    throw new Error('a busy refusal of another kind')
}

describe('Smart sessions, model-based', () => {
  it('has the expected number of covering paths (a change to the machine shows here)', () => {
    expect({
      on: on.paths.length,
      onDisconnected: onDisconnected.paths.length,
      off: off.paths.length,
    }).toEqual(PATHS)
  })

  for (const [name, model] of [
    ['on', on],
    ['on, disconnected', onDisconnected],
    ['off', off],
  ] as const)
    for (const path of model.paths)
      it(`replays, ${name}, ${path.description}`, () => {
        replayPath(model, path, { invariant })
      })

  it('reaches every state and takes every transition of the machine', () => {
    assertCoverage(on, replayAll([on, onDisconnected, off], { invariant }))
  })
})

describe('Smart sessions, with answering slots', () => {
  const run = (kind: 'smartAccount' | 'eoa', permissions = kind === 'smartAccount') => {
    const asked: string[] = []
    const actor = createActor(
      smartSessionsMachine.provide({
        actors: {
          accountKind: fromPromise(async (): Promise<AccountKind> => ({ kind, permissions })),
          grant: fromPromise(async ({ input }) => {
            asked.push('grant')
            expect(input).toEqual({ account: { address: ALICE, chainId: 31337 }, request: VALID })
            return PERMISSION
          }),
          revoke: fromPromise(async ({ input }) => {
            asked.push(`revoke ${input.permissionId}`)
          }),
        },
      }),
      { input: { enabled: true, account: { address: ALICE, chainId: 31337 } } },
    ).start()
    return { actor, asked }
  }

  it('grants, lists, then revokes and drops it', async () => {
    const { actor, asked } = run('smartAccount')
    actor.send({ type: 'smartSessions.grant', id: 1, request: VALID })
    await waitFor(actor, (s) => s.matches({ ready: 'granted' }))
    expect(actor.getSnapshot().context.granted).toEqual([PERMISSION])
    actor.send({ type: 'smartSessions.revoke', id: 2, permissionId: ID.toUpperCase().replace('0X', '0x') })
    await waitFor(actor, (s) => s.matches({ ready: 'revoked' }))
    expect(actor.getSnapshot().context.granted).toEqual([])
    expect(asked).toEqual(['grant', `revoke ${ID}`])
  })

  it('refuses an EOA before the wallet is asked to grant', async () => {
    const { actor, asked } = run('eoa')
    actor.send({ type: 'smartSessions.grant', id: 1, request: VALID })
    await waitFor(actor, (s) => s.matches({ ready: 'failed' }))
    expect(actor.getSnapshot().context.outcome?.error).toMatchObject({
      name: 'NotSmartAccountError',
      message: 'Permissions need a smart account: switch to your smart account',
    })
    expect(asked).toEqual([])
  })

  it('refuses a smart account whose wallet does not report permissions (wallet_getCapabilities), before asking', async () => {
    const { actor, asked } = run('smartAccount', false)
    actor.send({ type: 'smartSessions.grant', id: 1, request: VALID })
    await waitFor(actor, (s) => s.matches({ ready: 'failed' }))
    expect(actor.getSnapshot().context.outcome?.error).toMatchObject({
      name: 'PermissionsUnsupportedError',
      message: 'The wallet does not support permissions (ERC-7715) for this account',
    })
    actor.send({ type: 'smartSessions.revoke', id: 2, permissionId: ID })
    await waitFor(actor, (s) => s.context.outcome?.id === 2 && s.matches({ ready: 'failed' }))
    expect(actor.getSnapshot().context.outcome?.error?.name).toBe('PermissionsUnsupportedError')
    expect(asked).toEqual([])
  })

  it('refuses a malformed request with what is wrong', () => {
    const { actor } = run('smartAccount')
    actor.send({ type: 'smartSessions.grant', id: 1, request: { ...VALID, signer: 'alice.eth' } })
    expect(actor.getSnapshot().context.outcome?.error).toMatchObject({
      name: 'InvalidPermissionRequestError',
      details: expect.stringContaining('an address'),
    })
  })
})

describe('Smart sessions, with the real permission store (the kit storage)', () => {
  const ACCOUNT = { address: ALICE, chainId: 31337 }
  const start = (store: ReturnType<typeof createKitStore>) =>
    createActor(
      smartSessionsMachine.provide({
        actors: {
          accountKind: fromPromise(
            async (): Promise<AccountKind> => ({ kind: 'smartAccount', permissions: true }),
          ),
          grant: fromPromise(async () => PERMISSION),
          revoke: fromPromise(async () => {}),
          permissionStore: createPermissionStore(store, () => NOW),
        },
      }),
      { input: { enabled: true, account: ACCOUNT } },
    ).start()
  const listed = (actor: ReturnType<typeof start>) => actor.getSnapshot().context.granted.map((p) => p.id)
  const stored = (storage: ReturnType<typeof memoryStorage>) =>
    JSON.parse(storage.map.get(`${STORAGE_PREFIX}grantedPermissions`) ?? 'null') as unknown

  it('a grant is stored (its public record, no key) and listed again by the next page; a revoke removes it', async () => {
    const storage = memoryStorage()
    const store = createKitStore(storage, () => {})
    const first = start(store)
    first.send({ type: 'smartSessions.grant', id: 1, request: VALID })
    await waitFor(first, (s) => s.matches({ ready: 'granted' }))
    expect(stored(storage)).toEqual([PERMISSION])
    first.stop()

    // The next page (a reload): the machine starts for the account and lists what it granted.
    const second = start(store)
    await waitFor(second, (s) => s.context.granted.length === 1)
    expect(second.getSnapshot().context.granted).toEqual([PERMISSION])
    second.send({ type: 'smartSessions.revoke', id: 2, permissionId: ID })
    await waitFor(second, (s) => s.matches({ ready: 'revoked' }))
    expect(listed(second)).toEqual([])
    expect(storage.map.has(`${STORAGE_PREFIX}grantedPermissions`)).toBe(false)
    second.stop()
    expect(listed(start(store))).toEqual([])
  })

  it("lists only the account shown's; drops an expired one from the list and from storage; ignores a malformed record", async () => {
    const storage = memoryStorage()
    const bobs = { ...STORED, id: `0x${'12'.repeat(32)}` as const, address: BOB }
    storage.map.set(
      `${STORAGE_PREFIX}grantedPermissions`,
      JSON.stringify([
        EXPIRED,
        bobs,
        { ...STORED, limit: 'lots' },
        { ...STORED, signer: 'alice.eth' },
        STORED,
      ]),
    )
    const actor = start(createKitStore(storage, () => {}))
    await waitFor(actor, (s) => s.context.granted.length > 0)
    expect(listed(actor)).toEqual([STORED.id])
    // Rewritten without the expired one (and without the malformed); Bob's kept for Bob.
    expect(stored(storage)).toEqual([bobs, STORED])

    // Bob's account shown: his are read and listed (Alice's, granted in this page's sense, stay listed).
    actor.send({ type: 'smartSessions.account', account: { address: BOB, chainId: 31337 } })
    await waitFor(actor, (s) => s.context.granted.length === 2)
    expect(listed(actor)).toEqual([bobs.id, STORED.id])
  })
})
