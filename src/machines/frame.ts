import { type ActorRefFrom, and, assign, type SnapshotFrom, stopChild } from 'xstate'
import { DEFAULT_ACCOUNT_TYPES, EMAIL_LOGIN_COOLDOWN_MS, SDK_VERSION } from '../constants'
import type { ViewName } from '../views'
import { emailLogin } from './frame/email'
import { farcasterLogin } from './frame/farcaster'
import { frameNetworkId } from './frame/networks'
import { askFrame } from './frame/requests'
import { defaultAccountType, frameSetup } from './frame/setup'
import { socialLogin } from './frame/social'
import { answers, result } from './frame/steps'
import type { FrameContext, FrameRestored, FrameStateMeta, FrameTag } from './frame/types'
import { updateEmail } from './frame/updateEmail'

/**
 * The embedded wallet's login frame, kit side (SPEC §4 "Login frame", §5, §8, §9).
 *
 * Two regions run side by side:
 * - `lifecycle`: `active` (the transport, i.e. the hidden iframe, lives here) → `loading` → on `frame.ready`
 *   → `settling` (the SPEC's further 500 ms) → `ready`; no ready within 20 s, or the frame refusing this
 *   page's origin, is `failed` with an alert (retry recreates the iframe). `ready` has two regions: `auth`,
 *   the e-mail, social and Farcaster logins and the connected account, and `approval`, whether the frame
 *   must be shown for the visitor to confirm a signing request.
 * - `cooldown`: the e-mail login throttle (SPEC §5): a deadline on the injected clock (`input.now`), one
 *   timer to it, and the seconds left read off the clock when needed.
 *
 * Each login step that waits on the frame invokes one request actor (`./frame/requests.ts`): it posts the
 * command, waits for the reply with the SPEC §9 timeout, and is cancelled by leaving the step. Each RPC call
 * is a spawned request actor, listed in `context.rpc` until answered or aborted. The login flows live beside
 * this file (`./frame/{email,social,farcaster,updateEmail}.ts`), and the view each step shows is its `meta`.
 * All I/O is in actor slots: `transport`, `persistence`, `socialPopup`.
 */

export { frameRpc } from '../frame/rpc'
export { frameNetworkId, smartAccountEnabled } from './frame/networks'
export { FRAME_COMMAND_TIMEOUTS, type FrameRequestInput, frameRequestMachine } from './frame/requests'
export { defaultAccountType, frameSetup } from './frame/setup'
export type * from './frame/types'

function restoredCooldown(restored: FrameRestored | undefined, now: () => number): number | undefined {
  const left = Math.min(EMAIL_LOGIN_COOLDOWN_MS, restored?.cooldownMs ?? 0)
  return left > 0 ? now() + left : undefined
}

/** Events the frame takes while it is not ready: remembered for when it is, or refused. */
const notReady = {
  'frame.rpc': { actions: 'refuseSignedOut' },
  'frame.switchNetwork': { actions: 'setChainId' },
  'frame.syncTheme': { actions: 'setTheme' },
} as const

const ready = frameSetup.createStateConfig({
  type: 'parallel',
  entry: 'syncOnReady',
  // Only events no state inside handles: both regions reach these, and XState runs a transition found twice
  // once.
  on: {
    'frame.rpcSettled': { guard: 'isOpenRpc', actions: 'settleRpc' },
    'frame.rejectRpcRequests': { actions: 'rejectRpcRequests' },
    'frame.syncTheme': { actions: 'syncTheme' },
  },
  states: {
    auth: {
      id: 'frameAuth',
      initial: 'checking',
      on: {
        'frame.rpc': { actions: 'refuseSignedOut' },
        'frame.switchNetwork': { actions: 'setChainId' },
      },
      states: {
        checking: {
          always: [{ guard: 'restoring', target: 'reconnecting' }, { target: 'idle' }],
        },
        reconnecting: {
          tags: 'busy',
          ...askFrame('isConnected'),
          on: {
            'frame.authDone': [
              {
                guard: {
                  type: 'result',
                  params: { command: 'isConnected', check: (r) => r.isConnected === true },
                },
                target: 'fetchingUser',
              },
              { guard: answers('isConnected'), target: 'idle', actions: 'forgetLogin' },
            ],
            // The frame could not tell: the stored login stays for the next start.
            'frame.authFailed': { target: 'idle', actions: 'stopRestoring' },
          },
        },
        idle: {
          entry: 'endFlow',
          on: {
            'frame.connectEmail': [
              {
                guard: 'invalidEmail',
                actions: ['setInvalidEmail', { type: 'emitRefused', params: 'email' }],
              },
              { guard: 'coolingDown', actions: 'setThrottled' },
              { target: 'email', actions: 'startEmail' },
            ],
            'frame.connectSocial': { target: 'social', actions: 'startSocial' },
            'frame.connectFarcaster': { target: 'farcaster', actions: 'startFarcaster' },
          },
        },
        email: emailLogin,
        social: socialLogin,
        farcaster: farcasterLogin,
        /**
         * SPEC §9 Farcaster reload delay: the visitor left a Farcaster login the frame still waits on (it has no
         * end of its own); 100 ms later the frame is reloaded, which drops that wait, and the kit waits for the
         * frame to announce itself ready again.
         */
        farcasterLeft: {
          after: { farcasterReload: 'reloadingFrame' },
        },
        reloadingFrame: {
          tags: 'busy',
          ...askFrame('reload'),
          on: {
            'frame.authDone': { guard: answers('reload'), target: '#frame.lifecycle.active.loading' },
            'frame.authFailed': { target: 'idle' },
          },
        },
        fetchingUser: {
          tags: ['busy', 'signingIn'],
          ...askFrame('getUser', ({ context }) => ({ chainId: context.chainId })),
          on: {
            'frame.authDone': [
              {
                guard: and([result('getUser'), 'otherAccountTypePreferred']),
                target: 'applyingAccountType',
                actions: ['setUser', 'markAccountTypeApplied'],
              },
              { guard: result('getUser'), target: 'connected', actions: 'setUser' },
              {
                guard: answers('getUser'),
                target: 'idle',
                actions: ['setBadReply', 'endFlow', 'stopRestoring', 'hideLoadingUser'],
              },
            ],
            'frame.authFailed': {
              target: 'idle',
              actions: ['setError', 'endFlow', 'stopRestoring', 'hideLoadingUser'],
            },
          },
        },
        /**
         * A fresh login gets the config's account type (SPEC §4 default), asked once; the user is then read
         * again. The frame refusing it leaves the user's own type.
         */
        applyingAccountType: {
          tags: ['busy', 'signingIn'],
          ...askFrame('setPreferredAccount', ({ context }) => ({ type: context.preferredAccountType })),
          on: {
            // The user is read again: the one read before is not the account any more.
            'frame.authDone': {
              guard: answers('setPreferredAccount'),
              target: 'fetchingUser',
              actions: 'dropUser',
            },
            'frame.authFailed': [
              {
                guard: 'smartAccountRefused',
                target: 'connected',
                actions: ['setSmartAccountUnsupported', 'markNoSmartAccount'],
              },
              { target: 'connected', actions: 'setError' },
            ],
          },
        },
        connected: {
          tags: 'connected',
          // The account's data came: the loading toast of a social or Farcaster login goes.
          entry: ['onConnected', 'hideLoadingUser'],
          exit: { type: 'abortRpcRequests', params: { all: true } },
          on: {
            'frame.signOut': 'signingOut',
            'frame.rpc': [{ guard: 'invalidRpc', actions: 'refuseRpc' }, { actions: 'requestRpc' }],
          },
          initial: 'checkingSmartAccount',
          states: {
            /** On the smart account, the frame sets it up first (SPEC §4 "smart-account setup"). */
            checkingSmartAccount: {
              always: [{ guard: 'onSmartAccount', target: 'settingUpSmartAccount' }, { target: 'idle' }],
            },
            settingUpSmartAccount: {
              ...askFrame('initSmartAccount'),
              on: {
                'frame.authDone': [
                  { guard: result('initSmartAccount'), target: 'idle', actions: 'setSmartAccountReady' },
                  { guard: answers('initSmartAccount'), target: 'idle', actions: 'setBadReply' },
                ],
                'frame.authFailed': [
                  {
                    guard: 'smartAccountSetupRefused',
                    target: 'idle',
                    actions: ['setSmartAccountUnsupported', 'markNoSmartAccount'],
                  },
                  { target: 'idle', actions: 'setError' },
                ],
              },
            },
            idle: {
              entry: 'endFlow',
              on: {
                'frame.switchNetwork': { target: 'switchingNetwork', actions: 'setChainId' },
                'frame.setAccountType': [
                  { guard: 'smartAccountUnavailable', actions: 'refuseSmartAccount' },
                  { target: 'settingAccountType' },
                ],
                'frame.updateEmail': [
                  { guard: 'invalidEmail', actions: 'setInvalidEmail' },
                  { guard: 'coolingDown', actions: 'setThrottled' },
                  { target: 'updateEmail', actions: 'startUpdate' },
                ],
              },
            },
            switchingNetwork: {
              tags: 'busy',
              ...askFrame('switchNetwork', ({ context }) => ({ chainId: context.chainId })),
              on: {
                // The chain (and, on Solana, the base58 address) as the protocol says; anything else is refused.
                'frame.authDone': [
                  { guard: result('switchNetwork'), target: 'refreshingUser', actions: 'clearError' },
                  { guard: answers('switchNetwork'), target: 'idle', actions: 'setBadReply' },
                ],
                'frame.authFailed': { target: 'idle', actions: 'setError' },
              },
            },
            settingAccountType: {
              tags: ['busy', 'refreshingAccount'],
              ...askFrame('setPreferredAccount', ({ event }) => ({
                type: event.type === 'frame.setAccountType' ? event.accountType : undefined,
              })),
              on: {
                'frame.authDone': {
                  guard: answers('setPreferredAccount'),
                  target: 'refreshingUser',
                  actions: 'clearError',
                },
                'frame.authFailed': [
                  { guard: 'smartAccountRefused', target: 'idle', actions: 'setSmartAccountUnsupported' },
                  { target: 'idle', actions: 'setError' },
                ],
              },
            },
            /** After a change the frame's user is the truth (address, chain, account type). */
            refreshingUser: {
              tags: ['busy', 'refreshingAccount'],
              ...askFrame('getUser', ({ context }) => ({ chainId: context.chainId })),
              on: {
                'frame.authDone': [
                  {
                    guard: result('getUser'),
                    target: 'checkingSmartAccount',
                    actions: ['setUser', 'emitUserUpdated'],
                  },
                  { guard: answers('getUser'), target: 'idle', actions: 'setBadReply' },
                ],
                'frame.authFailed': { target: 'idle', actions: 'setError' },
              },
            },
            updateEmail,
          },
        },
        /** Signed out locally whatever the frame answers, within 3 s at most (SPEC §9). */
        signingOut: {
          tags: 'busy',
          ...askFrame('signOut'),
          on: {
            'frame.authDone': {
              guard: answers('signOut'),
              target: 'idle',
              actions: ['signedOut', 'clearError'],
            },
            'frame.authFailed': { target: 'idle', actions: ['signedOut', 'clearError'] },
          },
        },
      },
    },
    approval: {
      initial: 'hidden',
      states: {
        hidden: {
          on: {
            'frame.approvalNeeded': {
              guard: 'approvalForPending',
              target: 'shown',
              actions: ['setApproval', 'emitApprovalNeeded'],
            },
          },
        },
        /** ApproveTransaction: the frame is shown over the view's container until settled. */
        shown: {
          tags: 'showFrame',
          meta: { view: 'ApproveTransaction' },
          exit: 'endApproval',
          on: {
            'frame.showIn': { actions: 'showTransport' },
            'frame.approvalSettled': {
              guard: 'approvalMatches',
              target: 'hidden',
              actions: ['markApproved', 'hideTransport'],
            },
            'frame.approvalCleared': { target: 'hidden', actions: 'hideTransport' },
          },
        },
      },
    },
  },
})

export const frameMachine = frameSetup.createMachine({
  id: 'frame',
  type: 'parallel',
  context: ({ input }) => {
    const namespace = input.namespace ?? 'eip155'
    const restored = input.restored
    const preferredAccountType = input.preferredAccountType ?? DEFAULT_ACCOUNT_TYPES.eip155
    // The stored list where there is one (only the networks the kit still has), else the given one; without
    // one, the network the frame starts on (eip155's).
    const given =
      input.smartAccountNetworks ?? (namespace === 'eip155' ? [frameNetworkId(input.chainId)] : [])
    const stored = restored?.smartAccountNetworks
    const now = input.now ?? Date.now
    return {
      endpoint: input.endpoint,
      projectId: input.projectId,
      chainId: input.chainId,
      namespace,
      enableLogger: input.enableLogger ?? false,
      version: input.version ?? SDK_VERSION,
      theme: input.theme,
      dappData: input.dappData,
      restoring: restored?.loggedIn ?? false,
      frameVersion: undefined,
      now,
      transport: undefined,
      requestCount: 0,
      rpc: [],
      user: undefined,
      email: restored?.loggedIn ? restored.email : undefined,
      newEmail: undefined,
      social: restored?.loggedIn ? restored.social : undefined,
      socialUri: undefined,
      farcasterUrl: undefined,
      accountType: defaultAccountType(namespace, preferredAccountType),
      preferredAccountType,
      accountTypeApplied: false,
      smartAccountNetworks: stored ? stored.filter((id) => given.includes(id)) : [...given],
      error: undefined,
      alert: undefined,
      approval: undefined,
      cooldownUntil: restoredCooldown(restored, now),
    }
  },
  invoke: { id: 'persistence', src: 'persistence' },
  states: {
    lifecycle: {
      initial: 'active',
      states: {
        active: {
          // Spawned rather than invoked: the request actors post through it (`context.transport`).
          entry: assign({
            transport: ({ context, spawn }) =>
              spawn('transport', {
                id: 'transport',
                input: {
                  endpoint: context.endpoint,
                  projectId: context.projectId,
                  chainId: context.chainId,
                  version: context.version,
                  enableLogger: context.enableLogger,
                },
              }),
          }),
          exit: [stopChild('transport'), assign({ transport: undefined })],
          on: {
            'frame.originNotAllowed': { target: 'failed', actions: 'setOriginError' },
          },
          initial: 'loading',
          states: {
            loading: {
              tags: 'loading',
              on: { ...notReady, 'frame.ready': { target: 'settling', actions: 'setFrameVersion' } },
              after: { loadTimeout: { target: '#frame.lifecycle.failed', actions: 'setLoadError' } },
            },
            settling: {
              tags: 'loading',
              on: notReady,
              after: { readyDelay: 'ready' },
            },
            ready,
          },
        },
        failed: {
          tags: 'failed',
          entry: ['loseSession', 'emitFailed', 'hideLoadingUser'],
          on: { ...notReady, 'frame.retry': { target: 'active', actions: 'resetForRetry' } },
        },
      },
    },
    /** SPEC §5: after an e-mail with a code, a new one waits 30 s. */
    cooldown: {
      initial: 'open',
      states: {
        open: {
          // Only at start: a cooldown left from the stored last login.
          always: { guard: 'hasCooldown', target: 'cooling' },
          on: { 'frame.emailSent': { target: 'cooling', actions: 'startCooldown' } },
        },
        cooling: {
          tags: 'coolingDown',
          entry: 'armCooldown',
          exit: 'disarmCooldown',
          on: {
            // A transition of the region's own state: from the region node, `reenter` would take the parallel
            // root as its domain and restart the lifecycle too.
            'frame.emailSent': { target: 'cooling', reenter: true, actions: 'startCooldown' },
            'frame.cooldownOver': { target: 'open', actions: 'endCooldown' },
          },
        },
      },
    },
  },
})

export type FrameActorRef = ActorRefFrom<typeof frameMachine>
export type FrameSnapshot = SnapshotFrom<typeof frameMachine>

/**
 * Whole seconds left of the e-mail login cooldown, for a "resend in n s" label; 0 when a login may go.
 *
 * @example
 * ```tsx
 * import { useSelector } from '@xstate/react'
 * import { type frameMachine, selectCooldownSeconds } from 'walletstate/machines'
 * import { useKitActor } from 'walletstate/react'
 * import type { ActorRefFrom } from 'xstate'
 *
 * export function ResendIn() {
 *   // The login frame's machine runs once e-mail login is used (systemId 'frame').
 *   const frame = useKitActor().system.get('frame') as ActorRefFrom<typeof frameMachine> | undefined
 *   const seconds = useSelector(frame, (s) => (s ? selectCooldownSeconds(s, Date.now()) : 0))
 *   return seconds > 0 ? <p>Resend in {seconds} s</p> : null
 * }
 * ```
 */
export function selectCooldownSeconds(snapshot: { context: FrameContext }, now: number): number {
  const until = snapshot.context.cooldownUntil
  return until === undefined ? 0 : Math.max(0, Math.ceil((until - now) / 1000))
}

type FrameSnapshotLike = { hasTag: (tag: FrameTag) => boolean }

/** The frame's status for the views: loading (spinner), ready, or failed (the alert and "Try again"). */
export function selectFrameStatus(snapshot: FrameSnapshotLike): 'loading' | 'ready' | 'failed' {
  if (snapshot.hasTag('failed')) return 'failed'
  if (snapshot.hasTag('loading')) return 'loading'
  return 'ready'
}

/** Whether the login flow or an account action waits on the frame (a spinner). */
export const selectFrameBusy = (snapshot: FrameSnapshotLike) => snapshot.hasTag('busy')
/** Whether the embedded wallet is connected. */
export const selectFrameConnected = (snapshot: FrameSnapshotLike) => snapshot.hasTag('connected')

/**
 * Where an e-mail update stands, for its views: a code to type, a code being checked, the first mail being
 * sent, the account being read again after it, or over.
 */
export function selectUpdateEmailPhase(
  snapshot: FrameSnapshotLike,
): 'code' | 'checking' | 'sending' | 'refreshing' | 'over' {
  if (!snapshot.hasTag('updatingEmail')) return snapshot.hasTag('refreshingAccount') ? 'refreshing' : 'over'
  if (snapshot.hasTag('awaitingCode')) return 'code'
  if (snapshot.hasTag('checkingCode')) return 'checking'
  return 'sending'
}

/**
 * The view the embedded-wallet flow calls for, if any: the `view` in the active states' `meta`. The frame
 * shown for a signing request comes first; the kit pushes the view when it changes.
 *
 * @example
 * ```tsx
 * import { useSelector } from '@xstate/react'
 * import { type frameMachine, selectFrameView } from 'walletstate/machines'
 * import { useKitActor } from 'walletstate/react'
 * import type { ActorRefFrom } from 'xstate'
 *
 * export function FrameStep() {
 *   const frame = useKitActor().system.get('frame') as ActorRefFrom<typeof frameMachine> | undefined
 *   const view = useSelector(frame, (s) => (s ? selectFrameView(s) : undefined)) // 'EmailVerifyOtp'
 *   return <p>{view ?? 'No login in progress'}</p>
 * }
 * ```
 */
export function selectFrameView(snapshot: {
  getMeta: () => Record<string, FrameStateMeta | undefined>
}): ViewName | undefined {
  const views = Object.values(snapshot.getMeta()).flatMap((meta) => (meta?.view ? [meta.view] : []))
  return views.includes('ApproveTransaction') ? 'ApproveTransaction' : views.at(-1)
}

/**
 * `frameMachine`'s type by name: the declarations of what runs it name it instead of repeating its whole type
 * (what keeps the package's .d.ts files small).
 */
export interface FrameMachine extends FrameMachineType {}
type FrameMachineType = typeof frameMachine
