import * as v from 'valibot'
import {
  type ActorRefFrom,
  and,
  assertEvent,
  assign,
  emit,
  enqueueActions,
  fromCallback,
  fromPromise,
  not,
  setup,
  spawnChild,
} from 'xstate'
import { CALLS_CAPABILITIES_TIMEOUT_MS, PERMISSIONS_REQUEST_TIMEOUT_MS } from '../constants'
import type { ErrorInfo } from '../errors/base'
import {
  InvalidPermissionRequestError,
  NotSmartAccountError,
  PermissionsBusyError,
  PermissionsNotConnectedError,
  PermissionsTimeoutError,
  PermissionsUnsupportedError,
  permissionsErrorInfo,
  SmartSessionsDisabledError,
} from '../errors/permissions'
import type {
  AccountKind,
  GrantedPermission,
  KitGrantRequest,
  PermissionStoreRequest,
  SmartSessionsAccount,
  SmartSessionsEvent,
  SmartSessionsNotice,
  SmartSessionsOutcome,
} from './smartSessions/events'
import { GrantRequestSchema, PermissionIdSchema, permissionOf, unexpired } from './smartSessions/rules'

/**
 * ERC-7715 permissions (smart sessions, `features.smartSessions`): the host grants an app-chosen signer a spend
 * limit on one token until an expiry, lists what it granted, and revokes. A request is refused at once when the
 * feature is off (`smartSessionsOn`), without a connected eip155 account, when it is malformed
 * (`validGrantRequest`, `validPermissionId`), or while another is on its way (`busy`). Else the wallet's account
 * kind is read (`checking`: only a smart account enforces a permission, `smartAccountConnected`, and only a wallet
 * that reports ERC-7715 permissions in its `wallet_getCapabilities` is asked, `walletGrantsPermissions`), then the wallet
 * is asked (`granting`: `wallet_grantPermissions`, the visitor approves it there; `revoking`:
 * `wallet_revokePermissions`), each within its time. A grant ends `granted` (the permission joins `granted`), a
 * revoke `revoked` (it leaves it); anything else `failed`, with its error.
 *
 * What is granted outlives the page: each grant and revoke saves the account's permissions (their public records)
 * through the slot `permissionStore`, which reads them back when the machine starts for an account and when the
 * account shown changes (`smartSessions.stored`); those of the account shown are listed again
 * (`storedForAccountShown`), an expired one dropped, from the list and from storage (`someStoredExpired`).
 *
 * Pure: the wallet is reached through the slots `accountKind`, `grant` and `revoke`, storage through
 * `permissionStore` (src/actors/smartSessions.ts). Nothing secret is kept: a permission's id (its
 * `permissionsContext`) and its terms, never a key.
 */
export interface SmartSessionsContext {
  /** `features.smartSessions`. */
  enabled: boolean
  account: SmartSessionsAccount | undefined
  /**
   * The permissions granted through the kit and not revoked, oldest first: in this page, and those stored for the
   * account shown by an earlier one (unexpired).
   */
  granted: readonly GrantedPermission[]
  /** The host's last request (a grant's checked terms while it is on its way). */
  request:
    | { id: number; kind: 'grant' | 'revoke'; grant?: KitGrantRequest; permissionId?: string }
    | undefined
  outcome: SmartSessionsOutcome | undefined
  /** The last request refused because another was on its way. */
  refused: { id: number; error: ErrorInfo } | undefined
}

type Output<T> = { output: T }

const smartSessionsSetup = setup({
  types: {
    context: {} as SmartSessionsContext,
    events: {} as SmartSessionsEvent,
    input: {} as { enabled: boolean; account: SmartSessionsAccount | undefined },
    emitted: {} as SmartSessionsNotice,
  },
  actors: {
    /** Whether the wallet's account is a smart account on the chain, and reports ERC-7715 permissions. */
    accountKind: fromPromise<AccountKind, SmartSessionsAccount>(async () => {
      throw new Error('accountKind: not provided')
    }),
    /** `wallet_grantPermissions`: the permission granted (its id the wallet's `permissionsContext`). */
    grant: fromPromise<GrantedPermission, { account: SmartSessionsAccount; request: KitGrantRequest }>(
      async () => {
        throw new Error('grant: not provided')
      },
    ),
    /** `wallet_revokePermissions`. */
    revoke: fromPromise<void, { account: SmartSessionsAccount; permissionId: string }>(async () => {
      throw new Error('revoke: not provided')
    }),
    /**
     * The account's stored permissions: read for the account it starts with and on `load` (answered with
     * `smartSessions.stored`), replaced on `save`. By default nothing is stored (a kit without storage).
     */
    permissionStore: fromCallback<PermissionStoreRequest, SmartSessionsAccount | undefined>(() => {}),
  },
  guards: {
    /** `features.smartSessions` is on. */
    smartSessionsOn: ({ context }) => context.enabled,
    accountConnected: ({ context }) => context.account !== undefined,
    /** The request is an ERC-7715 grant the kit can ask for: addresses, a limit above 0, an expiry in seconds. */
    validGrantRequest: ({ event }) => {
      assertEvent(event, 'smartSessions.grant')
      return v.safeParse(GrantRequestSchema, event.request).success
    },
    validPermissionId: ({ event }) => {
      assertEvent(event, 'smartSessions.revoke')
      return v.safeParse(PermissionIdSchema, event.permissionId).success
    },
    /** The wallet's account is a smart account: only one enforces a permission on chain. */
    smartAccountConnected: ({ event }) =>
      (event as unknown as Output<AccountKind>).output.kind === 'smartAccount',
    /** The wallet reports ERC-7715 permissions for the account (`wallet_getCapabilities`): only then is it asked. */
    walletGrantsPermissions: ({ event }) => (event as unknown as Output<AccountKind>).output.permissions,
    isGrant: ({ context }) => context.request?.kind === 'grant',
    /** Stored permissions read for the account shown now (not one shown before), with smart sessions on. */
    storedForAccountShown: ({ context, event }) => {
      assertEvent(event, 'smartSessions.stored')
      return context.enabled && context.account !== undefined && permissionOf(event.account, context.account)
    },
    /** A stored permission has expired: it is dropped from storage too. */
    someStoredExpired: ({ event }) => {
      assertEvent(event, 'smartSessions.stored')
      return event.permissions.some((p) => !unexpired(p, event.now))
    },
  },
  delays: {
    accountKindRead: CALLS_CAPABILITIES_TIMEOUT_MS,
    permissionsRequest: PERMISSIONS_REQUEST_TIMEOUT_MS,
  },
  actions: {
    keepAccount: assign(({ event }) => {
      assertEvent(event, 'smartSessions.account')
      return { account: event.account }
    }),
    /** The slot `permissionStore`, for the account the machine starts with (it reads that account's at once). */
    startStore: spawnChild('permissionStore', {
      id: 'permissionStore',
      input: ({ context }) => context.account,
    }),
    /** The account shown changed: its stored permissions are read. */
    loadStored: enqueueActions(({ context, enqueue }) => {
      if (context.account)
        enqueue.sendTo('permissionStore', {
          type: 'load',
          account: context.account,
        } as PermissionStoreRequest)
    }),
    /** The stored permissions of the account shown, unexpired, listed before those granted in this page. */
    keepStored: assign(({ context, event }) => {
      assertEvent(event, 'smartSessions.stored')
      const live = event.permissions.filter((p) => unexpired(p, event.now) && permissionOf(p, event.account))
      return {
        granted: [...live.filter((p) => !context.granted.some((g) => g.id === p.id)), ...context.granted],
      }
    }),
    /** The account's permissions (a grant's: its account; else the account shown) replace its stored ones. */
    saveGranted: enqueueActions(({ context, event, enqueue }) => {
      const account =
        (event as { type: string }).type === 'xstate.done.actor.grant'
          ? (event as unknown as Output<GrantedPermission>).output
          : context.account
      if (!account) return
      const of = { address: account.address, chainId: account.chainId }
      enqueue.sendTo('permissionStore', {
        type: 'save',
        account: of,
        permissions: context.granted.filter((p) => permissionOf(p, of)),
      } as PermissionStoreRequest)
    }),
    start: assign(({ event }) => {
      assertEvent(event, ['smartSessions.grant', 'smartSessions.revoke'])
      const request =
        event.type === 'smartSessions.grant'
          ? {
              id: event.id,
              kind: 'grant' as const,
              grant: v.parse(GrantRequestSchema, event.request) as KitGrantRequest,
            }
          : { id: event.id, kind: 'revoke' as const, permissionId: event.permissionId.toLowerCase() }
      return { request, outcome: { id: event.id, kind: request.kind, phase: 'pending' as const } }
    }),
    /** Refused before any wallet is asked: off, not connected, malformed, or not a smart account. */
    refuse: assign(({ event }, reason: 'off' | 'notConnected' | 'invalid') => {
      assertEvent(event, ['smartSessions.grant', 'smartSessions.revoke'])
      const kind = event.type === 'smartSessions.grant' ? ('grant' as const) : ('revoke' as const)
      const error =
        reason === 'off'
          ? new SmartSessionsDisabledError()
          : reason === 'notConnected'
            ? new PermissionsNotConnectedError()
            : new InvalidPermissionRequestError({ details: invalidDetails(event) })
      return {
        request: undefined,
        outcome: { id: event.id, kind, phase: 'failed' as const, error: permissionsErrorInfo(error) },
      }
    }),
    refuseBusy: assign(({ event }) => {
      assertEvent(event, ['smartSessions.grant', 'smartSessions.revoke'])
      return { refused: { id: event.id, error: permissionsErrorInfo(new PermissionsBusyError()) } }
    }),
    fail: assign(({ context }, error: ErrorInfo) => ({
      outcome: { ...context.outcome!, phase: 'failed' as const, error },
    })),
    keepGranted: assign(({ context, event }) => {
      const permission = (event as unknown as Output<GrantedPermission>).output
      return {
        granted: [...context.granted.filter((p) => p.id !== permission.id), permission],
        outcome: { ...context.outcome!, phase: 'succeeded' as const, permission },
      }
    }),
    dropRevoked: assign(({ context }) => ({
      granted: context.granted.filter((p) => p.id.toLowerCase() !== context.request?.permissionId),
      outcome: { ...context.outcome!, phase: 'succeeded' as const },
    })),
    tellGranted: emit(({ context }) => ({
      type: 'smartSessions.granted' as const,
      permission: context.outcome!.permission!,
    })),
    tellRevoked: emit(({ context }) => ({
      type: 'smartSessions.revoked' as const,
      id: context.request!.permissionId as `0x${string}`,
    })),
    tellFailed: emit(({ context }) => ({
      type: 'smartSessions.failed' as const,
      error: context.outcome!.error!,
    })),
  },
})

function invalidDetails(event: SmartSessionsEvent): string {
  const result =
    event.type === 'smartSessions.grant'
      ? v.safeParse(GrantRequestSchema, event.request)
      : event.type === 'smartSessions.revoke'
        ? v.safeParse(PermissionIdSchema, event.permissionId)
        : undefined
  return result && !result.success ? v.summarize(result.issues) : ''
}

const errorOf = ({ event }: { event: unknown }) => permissionsErrorInfo((event as { error: unknown }).error)
const timedOut = (step: string) => () => permissionsErrorInfo(new PermissionsTimeoutError({ details: step }))

/** A new grant, from a state where none is on its way. */
const onGrant = [
  { guard: not('smartSessionsOn'), target: '.failed', actions: { type: 'refuse', params: 'off' } },
  { guard: not('accountConnected'), target: '.failed', actions: { type: 'refuse', params: 'notConnected' } },
  { guard: not('validGrantRequest'), target: '.failed', actions: { type: 'refuse', params: 'invalid' } },
  { target: '.checking', actions: 'start' },
] as const
const onRevoke = [
  { guard: not('smartSessionsOn'), target: '.failed', actions: { type: 'refuse', params: 'off' } },
  { guard: not('accountConnected'), target: '.failed', actions: { type: 'refuse', params: 'notConnected' } },
  { guard: not('validPermissionId'), target: '.failed', actions: { type: 'refuse', params: 'invalid' } },
  { target: '.checking', actions: 'start' },
] as const
const busy = {
  'smartSessions.grant': { actions: 'refuseBusy' },
  'smartSessions.revoke': { actions: 'refuseBusy' },
} as const
const failWith = (error: (args: { event: unknown }) => ErrorInfo) =>
  [{ type: 'fail', params: error }, 'tellFailed'] as const

export const smartSessionsMachine = smartSessionsSetup.createMachine({
  id: 'smartSessions',
  context: ({ input }) => ({
    enabled: input.enabled,
    account: input.account,
    granted: [],
    request: undefined,
    outcome: undefined,
    refused: undefined,
  }),
  entry: 'startStore',
  initial: 'ready',
  states: {
    ready: {
      initial: 'idle',
      on: {
        'smartSessions.account': { actions: ['keepAccount', 'loadStored'] },
        'smartSessions.stored': [
          {
            guard: and(['storedForAccountShown', 'someStoredExpired']),
            actions: ['keepStored', 'saveGranted'],
          },
          { guard: 'storedForAccountShown', actions: 'keepStored' },
        ],
        'smartSessions.grant': [...onGrant],
        'smartSessions.revoke': [...onRevoke],
      },
      states: {
        idle: {},
        /** The account's kind on its chain: a grant or a revoke goes on only from a smart account. */
        checking: {
          on: busy,
          invoke: {
            id: 'accountKind',
            src: 'accountKind',
            input: ({ context }) => context.account!,
            onDone: [
              {
                guard: not('smartAccountConnected'),
                target: 'failed',
                actions: failWith(() => permissionsErrorInfo(new NotSmartAccountError())),
              },
              {
                guard: not('walletGrantsPermissions'),
                target: 'failed',
                actions: failWith(() => permissionsErrorInfo(new PermissionsUnsupportedError())),
              },
              { guard: 'isGrant', target: 'granting' },
              { target: 'revoking' },
            ],
            onError: { target: 'failed', actions: failWith(errorOf) },
          },
          after: {
            accountKindRead: { target: 'failed', actions: failWith(timedOut('wallet_getCapabilities')) },
          },
        },
        /** `wallet_grantPermissions`: the visitor approves it in the wallet, then its operation is mined. */
        granting: {
          on: busy,
          invoke: {
            id: 'grant',
            src: 'grant',
            input: ({ context }) => ({ account: context.account!, request: context.request!.grant! }),
            onDone: { target: 'granted', actions: ['keepGranted', 'saveGranted', 'tellGranted'] },
            onError: { target: 'failed', actions: failWith(errorOf) },
          },
          after: {
            permissionsRequest: { target: 'failed', actions: failWith(timedOut('wallet_grantPermissions')) },
          },
        },
        granted: {},
        /** `wallet_revokePermissions`. */
        revoking: {
          on: busy,
          invoke: {
            id: 'revoke',
            src: 'revoke',
            input: ({ context }) => ({
              account: context.account!,
              permissionId: context.request!.permissionId!,
            }),
            onDone: { target: 'revoked', actions: ['dropRevoked', 'saveGranted', 'tellRevoked'] },
            onError: { target: 'failed', actions: failWith(errorOf) },
          },
          after: {
            permissionsRequest: { target: 'failed', actions: failWith(timedOut('wallet_revokePermissions')) },
          },
        },
        revoked: {},
        failed: {},
      },
    },
  },
})

export type SmartSessionsMachine = typeof smartSessionsMachine
export type SmartSessionsActorRef = ActorRefFrom<SmartSessionsMachine>
