import * as v from 'valibot'
import {
  type ActorRefFrom,
  assertEvent,
  assign,
  cancel,
  emit,
  enqueueActions,
  fromCallback,
  sendTo,
  setup,
  stateIn,
} from 'xstate'
import {
  EMAIL_LOGIN_COOLDOWN_MS,
  FARCASTER_RELOAD_DELAY_MS,
  FRAME_LOAD_TIMEOUT_MS,
  FRAME_READY_DELAY_MS,
  FRAME_REQUEST_TIMEOUT_MS,
  FRAME_SIGN_OUT_TIMEOUT_MS,
  SDK_VERSION,
} from '../constants'
import type { KitAlert } from '../errors/base'
import {
  ActionNotAllowedError,
  AuthInitError,
  EmailThrottledError,
  type FrameErrorInfo,
  FrameLoadError,
  FrameOriginNotAllowedError,
  FrameReplyError,
  FrameRequestAbortedError,
  FrameTimeoutError,
  frameErrorInfo,
  InvalidEmailError,
  InvalidOtpError,
  RpcNotAllowedError,
  replyError,
} from '../errors/frame'
import {
  type AccountTypeSchema,
  type CommandPayload,
  CommandPayloads,
  CommandResults,
  type FrameCommand,
  type FrameUser,
  SAFE_RPC_METHODS,
  type SocialProviderSchema,
} from '../frame/protocol'
import type { FrameInbound, FrameTransportCommand, FrameTransportInput } from '../frame/transport'
import type { ViewName } from '../views'

/**
 * The embedded wallet's login frame, kit side (SPEC §4 "Login frame", §5, §8, §9).
 *
 * Two regions run side by side:
 * - `lifecycle`: `active` (the transport, i.e. the hidden iframe, lives here) → `loading` → on `frame.ready`
 *   → `settling` (the SPEC's further 500 ms) → `ready`; no ready within 20 s, or the frame refusing this
 *   page's origin, is `failed` with an alert (retry recreates the iframe). `ready` has two regions: `auth`,
 *   the e-mail, social and Farcaster logins and the connected account, and `approval`, whether the frame
 *   must be shown for the visitor to confirm a signing request.
 * - `cooldown`: the e-mail login throttle (SPEC §5): a deadline on the actor system's clock (a SimulatedClock
 *   in tests, so they set the time), one timer to it, and the seconds left read off the clock when needed.
 *
 * Every request gets an id and stays in `pending` (the inspector shows it) until its reply with that id, its
 * timeout (SPEC §9; RPC requests have none: they wait for the visitor) or its abort. Replies are bookkept in
 * `ready` and handed to the login flow as `frame.authDone` / `frame.authFailed`; RPC results leave as emitted
 * `embedded.rpcResult` / `embedded.rpcError` events. All I/O is in actor slots: `transport`, `persistence`,
 * `socialPopup`.
 */

export type AccountType = v.InferOutput<typeof AccountTypeSchema>
export type SocialProvider = v.InferOutput<typeof SocialProviderSchema>
/** How the visitor logged in besides e-mail (SPEC §3 "connected social"). */
export type SocialLogin = SocialProvider | 'farcaster'

/**
 * Per-command timeouts. SPEC §9 names sign-in, device, OTP, social and redirect-URI (30 s) and sign-out (3 s).
 * Ours: every other command that the frame answers by itself gets the same 30 s, so nothing waits forever;
 * `rpcRequest` and `connectFarcaster` get none, since they wait for the visitor.
 */
export const FRAME_COMMAND_TIMEOUTS: Partial<Record<FrameCommand, number>> = {
  connectEmail: FRAME_REQUEST_TIMEOUT_MS,
  connectDevice: FRAME_REQUEST_TIMEOUT_MS,
  connectOtp: FRAME_REQUEST_TIMEOUT_MS,
  getSocialRedirectUri: FRAME_REQUEST_TIMEOUT_MS,
  connectSocial: FRAME_REQUEST_TIMEOUT_MS,
  signOut: FRAME_SIGN_OUT_TIMEOUT_MS,
  switchNetwork: FRAME_REQUEST_TIMEOUT_MS,
  getFarcasterUri: FRAME_REQUEST_TIMEOUT_MS,
  getUser: FRAME_REQUEST_TIMEOUT_MS,
  isConnected: FRAME_REQUEST_TIMEOUT_MS,
  getChainId: FRAME_REQUEST_TIMEOUT_MS,
  initSmartAccount: FRAME_REQUEST_TIMEOUT_MS,
  setPreferredAccount: FRAME_REQUEST_TIMEOUT_MS,
  updateEmail: FRAME_REQUEST_TIMEOUT_MS,
  updateEmailPrimaryOtp: FRAME_REQUEST_TIMEOUT_MS,
  updateEmailSecondaryOtp: FRAME_REQUEST_TIMEOUT_MS,
  syncTheme: FRAME_REQUEST_TIMEOUT_MS,
  syncDappData: FRAME_REQUEST_TIMEOUT_MS,
  reload: FRAME_REQUEST_TIMEOUT_MS,
  rejectRpcRequests: FRAME_REQUEST_TIMEOUT_MS,
}

/** Who waits for a reply: the login flow, an RPC caller, or no one (theme and app data sync). */
export type RequestOwner = 'auth' | 'rpc' | 'background'

/** A request sent and not yet answered. Holds no payload: codes and e-mails never sit in a snapshot. */
export interface PendingRequest {
  id: string
  command: FrameCommand
  owner: RequestOwner
  /** RPC requests: the method and the caller's correlation key. */
  method?: string
  ref?: string
  /** When it times out, in ms after it was sent; none for requests that wait for the visitor. */
  timeoutMs?: number
}

/** What the kit read from storage at start. */
export interface FrameRestored {
  /** The e-mail login flag: the session is checked once the frame is ready. */
  loggedIn: boolean
  email?: string
  social?: SocialLogin
  /** What is left of the e-mail login cooldown, from the stored last login time. */
  cooldownMs?: number
}

export interface FrameInput {
  /** `endpoints.frame`. */
  endpoint: string
  projectId: string
  /** The active network's chain id, as the frame knows it (a number on eip155). */
  chainId: string | number
  /** Decides the default account type (SPEC §4). */
  namespace?: 'eip155' | 'solana'
  enableLogger?: boolean
  /** The kit's version in the frame's address; SDK_VERSION by default. */
  version?: string
  /** Sent to the frame once it is ready. */
  theme?: CommandPayload<'syncTheme'>
  dappData?: CommandPayload<'syncDappData'>
  restored?: FrameRestored
}

export interface FrameApproval {
  requestId: string
  method: string
}

export interface FrameContext {
  endpoint: string
  projectId: string
  chainId: string | number
  namespace: 'eip155' | 'solana'
  enableLogger: boolean
  version: string
  theme: CommandPayload<'syncTheme'> | undefined
  dappData: CommandPayload<'syncDappData'> | undefined
  /** A stored login to check once the frame is ready; cleared once checked. */
  restoring: boolean
  /** The protocol version the frame announced. */
  frameVersion: number | undefined
  /** The next request id's number (ids are `r1`, `r2`, ...). */
  nextRequest: number
  pending: PendingRequest[]
  user: FrameUser | undefined
  /** The e-mail of the login (typed, or restored). */
  email: string | undefined
  /** The new e-mail of an update in progress. */
  newEmail: string | undefined
  social: SocialLogin | undefined
  /** Where the social popup is sent (SPEC §4: the redirect URI). */
  socialUri: string | undefined
  /** The Farcaster sign-in URI the ConnectingFarcaster view shows as a QR code. */
  farcasterUrl: string | undefined
  /** SPEC §4: smart account by default on eip155, EOA on solana; the user's own once connected. */
  accountType: AccountType
  /** The last error of the login flow or an account action, for the view to show. */
  error: FrameErrorInfo | undefined
  /** Set when the frame failed (SPEC §8 alerts). */
  alert: KitAlert | undefined
  /** The signing request the frame is shown for. */
  approval: FrameApproval | undefined
  /** When the e-mail login cooldown ends, on the actor system's clock; a new login is refused before. */
  cooldownUntil: number | undefined
}

export interface FrameRpcRequest {
  /** The caller's key, echoed in the `embedded.rpcResult` / `embedded.rpcError` it gets back. */
  ref: string
  method: string
  params?: unknown[]
  chainId?: string | number
}

export type FrameMachineEvent =
  /** From the transport: a reply, or an event of the frame. */
  | FrameInbound
  /** From the views and the kit. */
  | { type: 'frame.retry' }
  | { type: 'frame.connectEmail'; email: string }
  | { type: 'frame.submitOtp'; otp: string }
  | { type: 'frame.resendCode' }
  | { type: 'frame.cancel' }
  | { type: 'frame.connectSocial'; provider: SocialProvider }
  | { type: 'frame.connectFarcaster' }
  | { type: 'frame.signOut' }
  | { type: 'frame.switchNetwork'; chainId: string | number }
  | { type: 'frame.setAccountType'; accountType: AccountType }
  | { type: 'frame.updateEmail'; email: string }
  | ({ type: 'frame.rpc' } & FrameRpcRequest)
  /** SPEC §7: abort the open signing requests; read-only ones go on. */
  | { type: 'frame.rejectRpcRequests' }
  /** The ApproveTransaction view's container, for the frame to be shown over. */
  | { type: 'frame.showIn'; container: Element }
  | { type: 'frame.syncTheme'; theme: CommandPayload<'syncTheme'> }
  /** From the `socialPopup` slot. */
  | { type: 'frame.socialCallback'; uri: string }
  | { type: 'frame.socialCancelled'; reason: 'closed' | 'blocked' }
  /** Internal. */
  | { type: 'frame.timeout'; id: string }
  | { type: 'frame.authDone'; command: FrameCommand; result: unknown }
  | { type: 'frame.authFailed'; command: FrameCommand; error: FrameErrorInfo }
  | { type: 'frame.emailSent' }
  | { type: 'frame.cooldownOver' }
  | { type: 'frame.approvalCleared' }

/** What the machine tells whoever listens (`actor.on(type, fn)`): the kit, and the embedded-wallet provider. */
export type FrameEmitted =
  | { type: 'embedded.connected'; user: FrameUser; social: SocialLogin | undefined; reconnected: boolean }
  | { type: 'embedded.userUpdated'; user: FrameUser }
  | { type: 'embedded.disconnected' }
  | { type: 'embedded.rpcResult'; ref: string; result: unknown }
  | { type: 'embedded.rpcError'; ref: string; error: FrameErrorInfo }
  | { type: 'embedded.approvalNeeded'; requestId: string; method: string }
  | { type: 'embedded.approvalSettled'; requestId: string }
  | { type: 'embedded.failed'; error: FrameErrorInfo; alert: KitAlert }

/** What the persistence slot stores (SPEC §3); nothing secret. The slot stamps the time itself. */
export type FramePersistRequest =
  /** An e-mail code was sent: store now as the last login time (the cooldown survives a reload). */
  | { type: 'persist.emailSent' }
  /** Logged in: the e-mail login flag, the e-mail and the connected social. */
  | { type: 'persist.connected'; email: string | undefined; social: SocialLogin | undefined }
  | { type: 'persist.email'; email: string }
  | { type: 'persist.disconnected' }

export type SocialPopupCommand = { type: 'popup.navigate'; uri: string }
export interface SocialPopupInput {
  provider: SocialProvider
  /** The frame endpoint: the popup's result must come from its origin. */
  endpoint: string
}
export type SocialPopupEvent = Extract<
  FrameMachineEvent,
  { type: 'frame.socialCallback' | 'frame.socialCancelled' }
>

export type FrameTag = 'loading' | 'busy' | 'failed' | 'connected' | 'showFrame' | 'coolingDown'

interface RequestParams {
  command: FrameCommand
  payload: unknown
  owner: RequestOwner
  method?: string
  ref?: string
}

const timerId = (id: string) => `timeout.${id}`
const isSafeMethod = (method: string | undefined) =>
  method !== undefined && (SAFE_RPC_METHODS as readonly string[]).includes(method)
const parses = (schema: v.GenericSchema, value: unknown) => v.safeParse(schema, value).success
const badReply = (command: FrameCommand) =>
  frameErrorInfo(
    new FrameReplyError(undefined, { details: `The frame answered ${command} with an unexpected result.` }),
  )
const auth = (command: FrameCommand, payload: unknown = {}): RequestParams => ({
  command,
  payload,
  owner: 'auth',
})

/**
 * Now, on the actor system's clock: a SimulatedClock's time in tests, the page's time otherwise. A deadline
 * read against a clock, not a chain of one-second timers, stays right in a background tab whose timers the
 * browser throttles.
 */
function clockNow(system: unknown): number {
  const clock = (system as { _clock?: { now?: () => number } } | undefined)?._clock
  return typeof clock?.now === 'function' ? clock.now() : Date.now()
}

const AUTH_IDLE = '#frame.lifecycle.active.ready.auth.idle'
/** The popup closed (or never opened) before the provider sent the visitor back. Ignored once connecting. */
const socialCancelled = [
  { guard: 'popupBlocked', target: AUTH_IDLE, actions: ['endFlow', 'setPopupBlocked'] },
  { target: AUTH_IDLE, actions: ['endFlow', 'clearError'] },
] as const

/** The part of `enqueueActions`' queue the request helpers use. */
interface RequestQueue {
  assign(assigner: (args: { context: FrameContext }) => Partial<FrameContext>): void
  sendTo(to: 'transport', event: FrameTransportCommand): void
  raise(event: FrameMachineEvent, options?: { delay?: number; id?: string }): void
  emit(event: FrameEmitted): void
}

/**
 * Sends requests with fresh ids, tracks them and arms their timeouts. Several in one action get consecutive
 * ids; the context updates are functions so they apply to the context as it is by then.
 */
function enqueueRequests(enqueue: RequestQueue, context: FrameContext, requests: RequestParams[]) {
  requests.forEach((params, offset) => {
    const id = `r${context.nextRequest + offset}`
    const timeoutMs = params.owner === 'rpc' ? undefined : FRAME_COMMAND_TIMEOUTS[params.command]
    const entry: PendingRequest = {
      id,
      command: params.command,
      owner: params.owner,
      ...(params.method === undefined ? {} : { method: params.method }),
      ...(params.ref === undefined ? {} : { ref: params.ref }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    }
    enqueue.assign(({ context: now }) => ({
      nextRequest: now.nextRequest + 1,
      pending: [...now.pending, entry],
    }))
    enqueue.sendTo('transport', {
      type: 'transport.post',
      request: { id, type: params.command, payload: params.payload },
    })
    if (timeoutMs !== undefined)
      enqueue.raise({ type: 'frame.timeout', id }, { delay: timeoutMs, id: timerId(id) })
  })
}

/** Fails open RPC requests with 'Request was aborted': all of them, or the signing ones only. */
function enqueueAbort(enqueue: RequestQueue, context: FrameContext, all: boolean) {
  const aborted = context.pending.filter((r) => r.owner === 'rpc' && (all || !isSafeMethod(r.method)))
  if (aborted.length === 0) return
  const ids = new Set(aborted.map((r) => r.id))
  enqueue.assign(({ context: now }) => ({ pending: now.pending.filter((r) => !ids.has(r.id)) }))
  for (const request of aborted) {
    enqueue.emit({
      type: 'embedded.rpcError',
      ref: request.ref ?? request.id,
      error: frameErrorInfo(new FrameRequestAbortedError()),
    })
  }
  if (context.approval && ids.has(context.approval.requestId))
    enqueue.raise({ type: 'frame.approvalCleared' })
}

export const frameMachine = setup({
  types: {
    context: {} as FrameContext,
    events: {} as FrameMachineEvent,
    input: {} as FrameInput,
    emitted: {} as FrameEmitted,
    tags: {} as FrameTag,
  },
  actors: {
    transport: fromCallback<FrameTransportCommand, FrameTransportInput, FrameInbound>(() => () => {}),
    persistence: fromCallback<FramePersistRequest>(() => () => {}),
    socialPopup: fromCallback<SocialPopupCommand, SocialPopupInput, SocialPopupEvent>(() => () => {}),
  },
  delays: {
    loadTimeout: FRAME_LOAD_TIMEOUT_MS,
    readyDelay: FRAME_READY_DELAY_MS,
    farcasterReload: FARCASTER_RELOAD_DELAY_MS,
  },
  guards: {
    restoring: ({ context }) => context.restoring,
    hasCooldown: ({ context }) => context.cooldownUntil !== undefined,
    coolingDown: stateIn('#frame.cooldown.cooling'),
    isPendingReply: ({ context, event }) => {
      assertEvent(event, 'frame.reply')
      return context.pending.some((request) => request.id === event.id)
    },
    isPendingTimeout: ({ context, event }) => {
      assertEvent(event, 'frame.timeout')
      return context.pending.some((request) => request.id === event.id)
    },
    invalidEmail: ({ event }) => {
      assertEvent(event, ['frame.connectEmail', 'frame.updateEmail'])
      return !parses(CommandPayloads.connectEmail, { email: event.email })
    },
    invalidOtp: ({ event }) => {
      assertEvent(event, 'frame.submitOtp')
      return !parses(CommandPayloads.connectOtp, { otp: event.otp })
    },
    invalidRpc: ({ event }) => {
      assertEvent(event, 'frame.rpc')
      return !parses(CommandPayloads.rpcRequest, rpcPayload(event))
    },
    /** The reply answers `command` with a result of the shape the kit reads, and `check` holds for it. */
    result: (
      { event },
      params: { command: FrameCommand; check?: (result: Record<string, unknown>) => boolean },
    ) => {
      if (event.type !== 'frame.authDone' || event.command !== params.command) return false
      const schema = CommandResults[params.command as keyof typeof CommandResults] as
        | v.GenericSchema
        | undefined
      const parsed = schema
        ? v.safeParse(schema, event.result)
        : { success: true as const, output: event.result }
      if (!parsed.success) return false
      return params.check ? params.check((parsed.output ?? {}) as Record<string, unknown>) : true
    },
    /** The reply answers `command`, whatever it carries. */
    answers: ({ event }, params: { command: FrameCommand }) =>
      event.type === 'frame.authDone' && event.command === params.command,
    /** An approval is only for a signing request this kit sent and still waits on. */
    approvalForPending: ({ context, event }) => {
      assertEvent(event, 'frame.approvalNeeded')
      return context.pending.some((r) => r.owner === 'rpc' && r.id === event.payload.requestId)
    },
    approvalMatches: ({ context, event }) => {
      assertEvent(event, 'frame.approvalSettled')
      return context.approval?.requestId === event.payload.requestId
    },
    popupBlocked: ({ event }) => {
      assertEvent(event, 'frame.socialCancelled')
      return event.reason === 'blocked'
    },
  },
  actions: {
    /** Sends a command with a fresh id, tracks it, and arms its timeout. */
    request: enqueueActions(({ context, enqueue }, params: RequestParams) => {
      enqueueRequests(enqueue, context, [params])
    }),
    /** A reply to a tracked request: untracked, then handed to whoever waits for it. */
    settleReply: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'frame.reply')
      const request = context.pending.find((r) => r.id === event.id)
      if (!request) return
      enqueue.cancel(timerId(request.id))
      enqueue.assign({ pending: context.pending.filter((r) => r.id !== request.id) })
      const { payload } = event
      if (request.owner === 'rpc') {
        const ref = request.ref ?? request.id
        if (payload.ok) enqueue.emit({ type: 'embedded.rpcResult', ref, result: payload.result })
        else
          enqueue.emit({ type: 'embedded.rpcError', ref, error: frameErrorInfo(replyError(payload.error)) })
        if (context.approval?.requestId === request.id) enqueue.raise({ type: 'frame.approvalCleared' })
      } else if (request.owner === 'auth') {
        enqueue.raise(
          payload.ok
            ? { type: 'frame.authDone', command: request.command, result: payload.result }
            : {
                type: 'frame.authFailed',
                command: request.command,
                error: frameErrorInfo(replyError(payload.error)),
              },
        )
      }
    }),
    settleTimeout: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'frame.timeout')
      const request = context.pending.find((r) => r.id === event.id)
      if (!request) return
      enqueue.assign({ pending: context.pending.filter((r) => r.id !== request.id) })
      if (request.owner === 'auth') {
        enqueue.raise({
          type: 'frame.authFailed',
          command: request.command,
          error: frameErrorInfo(
            new FrameTimeoutError({ details: `${request.command} got no answer in time.` }),
          ),
        })
      }
    }),
    /** The login flow left the step that waited: its reply, if it ever comes, is for no one. */
    forgetAuthRequests: enqueueActions(({ context, enqueue }) => {
      const forgotten = context.pending.filter((r) => r.owner === 'auth')
      if (forgotten.length === 0) return
      for (const request of forgotten) enqueue.cancel(timerId(request.id))
      enqueue.assign({ pending: context.pending.filter((r) => r.owner !== 'auth') })
    }),
    /** Fails open RPC requests with 'Request was aborted': every one, or only the signing ones (SPEC §7). */
    abortRpcRequests: enqueueActions(({ context, enqueue }, params: { all: boolean }) => {
      enqueueAbort(enqueue, context, params.all)
    }),
    /** Leaving `ready`: nothing the frame owes will arrive any more. */
    dropAllRequests: enqueueActions(({ context, enqueue }) => {
      for (const request of context.pending) {
        enqueue.cancel(timerId(request.id))
        if (request.owner === 'rpc') {
          enqueue.emit({
            type: 'embedded.rpcError',
            ref: request.ref ?? request.id,
            error: frameErrorInfo(new FrameRequestAbortedError()),
          })
        }
      }
      enqueue.assign({ pending: [] })
    }),
    syncOnReady: enqueueActions(({ context, enqueue }) => {
      const requests: RequestParams[] = []
      if (context.dappData)
        requests.push({ command: 'syncDappData', payload: context.dappData, owner: 'background' })
      if (context.theme) requests.push({ command: 'syncTheme', payload: context.theme, owner: 'background' })
      enqueueRequests(enqueue, context, requests)
    }),
    setTheme: assign(({ event }) => {
      assertEvent(event, 'frame.syncTheme')
      return { theme: event.theme }
    }),
    setChainId: assign(({ event }) => {
      assertEvent(event, 'frame.switchNetwork')
      return { chainId: event.chainId }
    }),
    setFrameVersion: assign(({ event }) => {
      assertEvent(event, 'frame.ready')
      return { frameVersion: event.payload.version }
    }),
    setLoadError: assign(() => {
      const error = new FrameLoadError({
        details: `The frame did not announce itself within ${FRAME_LOAD_TIMEOUT_MS} ms.`,
      })
      return { error: frameErrorInfo(error), alert: error.alert }
    }),
    setOriginError: assign(({ event }) => {
      assertEvent(event, 'frame.originNotAllowed')
      const error = new FrameOriginNotAllowedError({ origin: event.payload.origin })
      return { error: frameErrorInfo(error), alert: error.alert }
    }),
    emitFailed: emit(({ context }) => ({
      type: 'embedded.failed' as const,
      error: context.error ?? frameErrorInfo(new FrameLoadError()),
      alert: context.alert ?? new FrameLoadError().alert,
    })),
    /** The frame is gone: so is the session it held (the stored login is checked again on retry). */
    loseSession: enqueueActions(({ context, enqueue }) => {
      enqueue.assign({
        user: undefined,
        approval: undefined,
        socialUri: undefined,
        farcasterUrl: undefined,
        newEmail: undefined,
        restoring: context.restoring || context.user !== undefined,
      })
      if (context.user) enqueue.emit({ type: 'embedded.disconnected' })
    }),
    /** Retrying starts over: a fresh iframe, a fresh login (a stored one is checked again). */
    resetForRetry: assign({ error: undefined, alert: undefined, frameVersion: undefined }),
    setError: assign(({ event }) => {
      assertEvent(event, 'frame.authFailed')
      return { error: event.error }
    }),
    setBadReply: assign(({ event }) => {
      assertEvent(event, 'frame.authDone')
      return { error: badReply(event.command) }
    }),
    clearError: assign({ error: undefined }),
    setInvalidEmail: assign({ error: () => frameErrorInfo(new InvalidEmailError()) }),
    setInvalidOtp: assign({ error: () => frameErrorInfo(new InvalidOtpError()) }),
    /** SPEC §5: 'Please try again after {n} seconds', n the seconds left rounded up. */
    setThrottled: assign(({ context, system }) => {
      const left = (context.cooldownUntil ?? 0) - clockNow(system)
      return { error: frameErrorInfo(new EmailThrottledError(Math.max(1, Math.ceil(left / 1000)))) }
    }),
    setPopupBlocked: assign({ error: () => frameErrorInfo(new AuthInitError()) }),
    startEmail: assign(({ event }) => {
      assertEvent(event, 'frame.connectEmail')
      const email = v.parse(CommandPayloads.connectEmail, { email: event.email }).email
      return { email, social: undefined, error: undefined }
    }),
    startSocial: assign(({ event }) => {
      assertEvent(event, 'frame.connectSocial')
      return { social: event.provider, email: undefined, socialUri: undefined, error: undefined }
    }),
    startFarcaster: assign({
      social: 'farcaster' as const,
      email: undefined,
      farcasterUrl: undefined,
      error: undefined,
    }),
    startUpdate: assign(({ event }) => {
      assertEvent(event, 'frame.updateEmail')
      const email = v.parse(CommandPayloads.updateEmail, { email: event.email }).email
      return { newEmail: email, error: undefined }
    }),
    endFlow: assign({ socialUri: undefined, farcasterUrl: undefined, newEmail: undefined }),
    /** An e-mail with a code went out: the cooldown starts (SPEC §5) and its start is stored. */
    emailSent: enqueueActions(({ enqueue }) => {
      enqueue.raise({ type: 'frame.emailSent' })
      enqueue.sendTo('persistence', { type: 'persist.emailSent' } satisfies FramePersistRequest)
    }),
    startCooldown: assign(({ system }) => ({ cooldownUntil: clockNow(system) + EMAIL_LOGIN_COOLDOWN_MS })),
    /** One timer to the deadline (a chain of short ones would drift in a throttled background tab). */
    armCooldown: enqueueActions(({ context, system, enqueue }) => {
      const left = Math.max(0, (context.cooldownUntil ?? 0) - clockNow(system))
      enqueue.raise({ type: 'frame.cooldownOver' }, { id: 'cooldown', delay: left })
    }),
    disarmCooldown: cancel('cooldown'),
    endCooldown: assign({ cooldownUntil: undefined }),
    setSocialUri: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'frame.authDone')
      const { uri } = v.parse(CommandResults.getSocialRedirectUri, event.result)
      enqueue.assign({ socialUri: uri })
      enqueue.sendTo('socialPopup', { type: 'popup.navigate', uri } satisfies SocialPopupCommand)
    }),
    setFarcasterUrl: assign(({ event }) => {
      assertEvent(event, 'frame.authDone')
      return { farcasterUrl: v.parse(CommandResults.getFarcasterUri, event.result).url }
    }),
    setUser: assign(({ context, event }) => {
      assertEvent(event, 'frame.authDone')
      const user = v.parse(CommandResults.getUser, event.result)
      return {
        user,
        accountType: user.preferredAccountType,
        email: user.email ?? context.email,
        error: undefined,
        socialUri: undefined,
        farcasterUrl: undefined,
        newEmail: undefined,
      }
    }),
    /** The stored login is gone (the frame says no session): nothing is restored any more. */
    forgetLogin: enqueueActions(({ enqueue }) => {
      enqueue.assign({ restoring: false, email: undefined, social: undefined })
      enqueue.sendTo('persistence', { type: 'persist.disconnected' } satisfies FramePersistRequest)
    }),
    stopRestoring: assign({ restoring: false }),
    onConnected: enqueueActions(({ context, enqueue }) => {
      enqueue.sendTo('persistence', {
        type: 'persist.connected',
        email: context.email,
        social: context.social,
      } satisfies FramePersistRequest)
      if (context.user) {
        enqueue.emit({
          type: 'embedded.connected',
          user: context.user,
          social: context.social,
          reconnected: context.restoring,
        })
      }
      enqueue.assign({ restoring: false })
    }),
    emitUserUpdated: emit(({ context }) => ({ type: 'embedded.userUpdated' as const, user: context.user! })),
    persistNewEmail: enqueueActions(({ context, enqueue }) => {
      if (!context.newEmail) return
      enqueue.assign({ email: context.newEmail, newEmail: undefined })
      enqueue.sendTo('persistence', {
        type: 'persist.email',
        email: context.newEmail,
      } satisfies FramePersistRequest)
    }),
    signedOut: enqueueActions(({ context, enqueue }) => {
      enqueue.assign({
        user: undefined,
        email: undefined,
        social: undefined,
        newEmail: undefined,
        accountType: defaultAccountType(context.namespace),
      })
      enqueue.sendTo('persistence', { type: 'persist.disconnected' } satisfies FramePersistRequest)
      enqueue.emit({ type: 'embedded.disconnected' })
    }),
    requestRpc: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'frame.rpc')
      enqueueRequests(enqueue, context, [
        {
          command: 'rpcRequest',
          payload: rpcPayload(event),
          owner: 'rpc',
          method: event.method,
          ref: event.ref,
        },
      ])
    }),
    refuseRpc: emit(({ event }) => {
      assertEvent(event, 'frame.rpc')
      return {
        type: 'embedded.rpcError' as const,
        ref: event.ref,
        error: frameErrorInfo(new RpcNotAllowedError({ details: `${String(event.method).slice(0, 100)}` })),
      }
    }),
    refuseSignedOut: emit(({ event }) => {
      assertEvent(event, 'frame.rpc')
      return {
        type: 'embedded.rpcError' as const,
        ref: event.ref,
        error: frameErrorInfo(
          new ActionNotAllowedError({ details: 'The embedded wallet is not connected.' }),
        ),
      }
    }),
    rejectRpcRequests: enqueueActions(({ context, enqueue }) => {
      enqueueAbort(enqueue, context, false)
      enqueueRequests(enqueue, context, [{ command: 'rejectRpcRequests', payload: {}, owner: 'background' }])
    }),
    setApproval: assign(({ event }) => {
      assertEvent(event, 'frame.approvalNeeded')
      return { approval: { requestId: event.payload.requestId, method: event.payload.method } }
    }),
    emitApprovalNeeded: emit(({ context }) => ({
      type: 'embedded.approvalNeeded' as const,
      requestId: context.approval?.requestId ?? '',
      method: context.approval?.method ?? '',
    })),
    endApproval: enqueueActions(({ context, enqueue }) => {
      if (context.approval)
        enqueue.emit({ type: 'embedded.approvalSettled', requestId: context.approval.requestId })
      enqueue.assign({ approval: undefined })
    }),
    showTransport: sendTo('transport', ({ event }) => {
      assertEvent(event, 'frame.showIn')
      return { type: 'transport.show', container: event.container } satisfies FrameTransportCommand
    }),
    hideTransport: sendTo('transport', { type: 'transport.hide' } satisfies FrameTransportCommand),
  },
}).createMachine({
  id: 'frame',
  type: 'parallel',
  context: ({ input, self }) => {
    const namespace = input.namespace ?? 'eip155'
    const restored = input.restored
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
      nextRequest: 1,
      pending: [],
      user: undefined,
      email: restored?.loggedIn ? restored.email : undefined,
      newEmail: undefined,
      social: restored?.loggedIn ? restored.social : undefined,
      socialUri: undefined,
      farcasterUrl: undefined,
      accountType: defaultAccountType(namespace),
      error: undefined,
      alert: undefined,
      approval: undefined,
      cooldownUntil: restoredCooldown(restored, self.system),
    }
  },
  invoke: { id: 'persistence', src: 'persistence' },
  states: {
    lifecycle: {
      initial: 'active',
      states: {
        active: {
          invoke: {
            id: 'transport',
            src: 'transport',
            input: ({ context }) => ({
              endpoint: context.endpoint,
              projectId: context.projectId,
              chainId: context.chainId,
              version: context.version,
              enableLogger: context.enableLogger,
            }),
          },
          on: {
            'frame.originNotAllowed': { target: 'failed', actions: 'setOriginError' },
          },
          initial: 'loading',
          states: {
            loading: {
              tags: 'loading',
              on: {
                'frame.ready': { target: 'settling', actions: 'setFrameVersion' },
                'frame.rpc': { actions: 'refuseSignedOut' },
                'frame.switchNetwork': { actions: 'setChainId' },
                'frame.syncTheme': { actions: 'setTheme' },
              },
              after: { loadTimeout: { target: '#frame.lifecycle.failed', actions: 'setLoadError' } },
            },
            settling: {
              tags: 'loading',
              on: {
                'frame.rpc': { actions: 'refuseSignedOut' },
                'frame.switchNetwork': { actions: 'setChainId' },
                'frame.syncTheme': { actions: 'setTheme' },
              },
              after: { readyDelay: 'ready' },
            },
            ready: {
              type: 'parallel',
              entry: 'syncOnReady',
              exit: 'dropAllRequests',
              // Only events no state inside handles: both regions reach these, and XState runs a transition
              // found twice once.
              on: {
                'frame.reply': { guard: 'isPendingReply', actions: 'settleReply' },
                'frame.timeout': { guard: 'isPendingTimeout', actions: 'settleTimeout' },
                'frame.rejectRpcRequests': { actions: 'rejectRpcRequests' },
                'frame.syncTheme': {
                  actions: [
                    'setTheme',
                    {
                      type: 'request',
                      params: ({ event }) => ({
                        command: 'syncTheme',
                        payload: event.theme,
                        owner: 'background',
                      }),
                    },
                  ],
                },
              },
              states: {
                auth: {
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
                      entry: { type: 'request', params: auth('isConnected') },
                      exit: 'forgetAuthRequests',
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
                          { guard: 'invalidEmail', actions: 'setInvalidEmail' },
                          { guard: 'coolingDown', actions: 'setThrottled' },
                          { target: 'email', actions: 'startEmail' },
                        ],
                        'frame.connectSocial': { target: 'social', actions: 'startSocial' },
                        'frame.connectFarcaster': { target: 'farcaster', actions: 'startFarcaster' },
                      },
                    },
                    email: {
                      on: { 'frame.cancel': { target: 'idle', actions: ['endFlow', 'clearError'] } },
                      initial: 'submitting',
                      states: {
                        submitting: {
                          tags: 'busy',
                          entry: {
                            type: 'request',
                            params: ({ context }) => auth('connectEmail', { email: context.email }),
                          },
                          exit: 'forgetAuthRequests',
                          on: {
                            'frame.authDone': [
                              {
                                guard: emailAction('VERIFY_DEVICE'),
                                target: 'device',
                                actions: 'emailSent',
                              },
                              { guard: emailAction('VERIFY_OTP'), target: 'otp', actions: 'emailSent' },
                              {
                                guard: emailAction('CONNECT'),
                                target: '#frame.lifecycle.active.ready.auth.fetchingUser',
                              },
                              { guard: answers('connectEmail'), target: AUTH_IDLE, actions: 'setBadReply' },
                            ],
                            'frame.authFailed': {
                              target: AUTH_IDLE,
                              actions: 'setError',
                            },
                          },
                        },
                        /** EmailVerifyDevice: the frame waits for the visitor to approve this device by e-mail. */
                        device: {
                          entry: { type: 'request', params: auth('connectDevice') },
                          exit: 'forgetAuthRequests',
                          on: {
                            'frame.resendCode': [
                              { guard: 'coolingDown', actions: 'setThrottled' },
                              { target: 'resendingDevice', actions: 'clearError' },
                            ],
                            'frame.authDone': {
                              guard: answers('connectDevice'),
                              target: 'otp',
                              actions: 'clearError',
                            },
                            'frame.authFailed': {
                              target: AUTH_IDLE,
                              actions: 'setError',
                            },
                          },
                        },
                        /** EmailVerifyOtp: waiting for the code; a wrong one's error stays until the next try. */
                        otp: {
                          on: {
                            'frame.submitOtp': submitCode('connectOtp', 'submittingOtp'),
                            'frame.resendCode': [
                              { guard: 'coolingDown', actions: 'setThrottled' },
                              { target: 'resendingOtp', actions: 'clearError' },
                            ],
                          },
                        },
                        /** A new mail is asked for from the code view; the view stays, an error returns to it. */
                        resendingOtp: resending('otp'),
                        /** The same from the device view. */
                        resendingDevice: resending('device'),
                        submittingOtp: {
                          tags: 'busy',
                          exit: 'forgetAuthRequests',
                          on: {
                            'frame.authDone': {
                              guard: answers('connectOtp'),
                              target: '#frame.lifecycle.active.ready.auth.fetchingUser',
                            },
                            'frame.authFailed': { target: 'otp', actions: 'setError' },
                          },
                        },
                      },
                    },
                    social: {
                      exit: 'endFlow',
                      invoke: {
                        id: 'socialPopup',
                        src: 'socialPopup',
                        input: ({ context }) => ({
                          provider: context.social as SocialProvider,
                          endpoint: context.endpoint,
                        }),
                      },
                      on: { 'frame.cancel': { target: 'idle', actions: ['endFlow', 'clearError'] } },
                      initial: 'requestingUri',
                      states: {
                        requestingUri: {
                          tags: 'busy',
                          entry: {
                            type: 'request',
                            params: ({ context }) =>
                              auth('getSocialRedirectUri', { provider: context.social }),
                          },
                          exit: 'forgetAuthRequests',
                          on: {
                            'frame.socialCancelled': socialCancelled,
                            'frame.authDone': [
                              {
                                guard: { type: 'result', params: { command: 'getSocialRedirectUri' } },
                                target: 'awaitingCallback',
                                actions: 'setSocialUri',
                              },
                              {
                                guard: answers('getSocialRedirectUri'),
                                target: AUTH_IDLE,
                                actions: 'setBadReply',
                              },
                            ],
                            'frame.authFailed': {
                              target: AUTH_IDLE,
                              actions: 'setError',
                            },
                          },
                        },
                        /** The visitor is at the provider, in the popup. */
                        awaitingCallback: {
                          on: {
                            'frame.socialCancelled': socialCancelled,
                            'frame.socialCallback': {
                              target: 'connecting',
                              actions: {
                                type: 'request',
                                params: ({ event }) => auth('connectSocial', { uri: event.uri }),
                              },
                            },
                          },
                        },
                        connecting: {
                          tags: 'busy',
                          exit: 'forgetAuthRequests',
                          on: {
                            'frame.authDone': {
                              guard: answers('connectSocial'),
                              target: '#frame.lifecycle.active.ready.auth.fetchingUser',
                            },
                            'frame.authFailed': {
                              target: AUTH_IDLE,
                              actions: 'setError',
                            },
                          },
                        },
                      },
                    },
                    farcaster: {
                      exit: 'endFlow',
                      on: { 'frame.cancel': { target: 'idle', actions: ['endFlow', 'clearError'] } },
                      initial: 'requestingUri',
                      states: {
                        requestingUri: {
                          tags: 'busy',
                          entry: { type: 'request', params: auth('getFarcasterUri') },
                          exit: 'forgetAuthRequests',
                          on: {
                            'frame.authDone': [
                              {
                                guard: { type: 'result', params: { command: 'getFarcasterUri' } },
                                target: 'showingUri',
                                actions: 'setFarcasterUrl',
                              },
                              {
                                guard: answers('getFarcasterUri'),
                                target: AUTH_IDLE,
                                actions: 'setBadReply',
                              },
                            ],
                            'frame.authFailed': {
                              target: AUTH_IDLE,
                              actions: 'setError',
                            },
                          },
                        },
                        /** The QR code is up; the wait on the login starts a moment later (SPEC §9). */
                        showingUri: {
                          after: { farcasterReload: 'connecting' },
                        },
                        /** Waits for the visitor's Farcaster app: no timeout. */
                        connecting: {
                          entry: { type: 'request', params: auth('connectFarcaster') },
                          exit: 'forgetAuthRequests',
                          on: {
                            'frame.authDone': {
                              guard: answers('connectFarcaster'),
                              target: '#frame.lifecycle.active.ready.auth.fetchingUser',
                            },
                            'frame.authFailed': {
                              target: AUTH_IDLE,
                              actions: 'setError',
                            },
                          },
                        },
                      },
                    },
                    fetchingUser: {
                      tags: 'busy',
                      entry: {
                        type: 'request',
                        params: ({ context }) => auth('getUser', { chainId: context.chainId }),
                      },
                      exit: 'forgetAuthRequests',
                      on: {
                        'frame.authDone': [
                          {
                            guard: { type: 'result', params: { command: 'getUser' } },
                            target: 'connected',
                            actions: 'setUser',
                          },
                          {
                            guard: answers('getUser'),
                            target: 'idle',
                            actions: ['setBadReply', 'endFlow', 'stopRestoring'],
                          },
                        ],
                        'frame.authFailed': {
                          target: 'idle',
                          actions: ['setError', 'endFlow', 'stopRestoring'],
                        },
                      },
                    },
                    connected: {
                      tags: 'connected',
                      entry: 'onConnected',
                      exit: { type: 'abortRpcRequests', params: { all: true } },
                      on: {
                        'frame.signOut': 'signingOut',
                        'frame.rpc': [
                          { guard: 'invalidRpc', actions: 'refuseRpc' },
                          { actions: 'requestRpc' },
                        ],
                      },
                      initial: 'idle',
                      states: {
                        idle: {
                          entry: 'endFlow',
                          on: {
                            'frame.switchNetwork': {
                              target: 'switchingNetwork',
                              actions: [
                                'setChainId',
                                {
                                  type: 'request',
                                  params: ({ event }) => auth('switchNetwork', { chainId: event.chainId }),
                                },
                              ],
                            },
                            'frame.setAccountType': {
                              target: 'settingAccountType',
                              actions: {
                                type: 'request',
                                params: ({ event }) =>
                                  auth('setPreferredAccount', { type: event.accountType }),
                              },
                            },
                            'frame.updateEmail': [
                              { guard: 'invalidEmail', actions: 'setInvalidEmail' },
                              { guard: 'coolingDown', actions: 'setThrottled' },
                              { target: 'updateEmail', actions: 'startUpdate' },
                            ],
                          },
                        },
                        switchingNetwork: {
                          tags: 'busy',
                          exit: 'forgetAuthRequests',
                          on: {
                            'frame.authDone': {
                              guard: answers('switchNetwork'),
                              target: 'refreshingUser',
                              actions: 'clearError',
                            },
                            'frame.authFailed': { target: 'idle', actions: 'setError' },
                          },
                        },
                        settingAccountType: {
                          tags: 'busy',
                          exit: 'forgetAuthRequests',
                          on: {
                            'frame.authDone': {
                              guard: answers('setPreferredAccount'),
                              target: 'refreshingUser',
                              actions: 'clearError',
                            },
                            'frame.authFailed': { target: 'idle', actions: 'setError' },
                          },
                        },
                        /** After a change the frame's user is the truth (address, chain, account type). */
                        refreshingUser: {
                          tags: 'busy',
                          entry: {
                            type: 'request',
                            params: ({ context }) => auth('getUser', { chainId: context.chainId }),
                          },
                          exit: 'forgetAuthRequests',
                          on: {
                            'frame.authDone': [
                              {
                                guard: { type: 'result', params: { command: 'getUser' } },
                                target: 'idle',
                                actions: ['setUser', 'emitUserUpdated'],
                              },
                              { guard: answers('getUser'), target: 'idle', actions: 'setBadReply' },
                            ],
                            'frame.authFailed': { target: 'idle', actions: 'setError' },
                          },
                        },
                        updateEmail: {
                          on: { 'frame.cancel': { target: 'idle', actions: ['endFlow', 'clearError'] } },
                          initial: 'submitting',
                          states: {
                            /** UpdateEmailWallet. */
                            submitting: {
                              tags: 'busy',
                              entry: {
                                type: 'request',
                                params: ({ context }) => auth('updateEmail', { email: context.newEmail }),
                              },
                              exit: 'forgetAuthRequests',
                              on: {
                                'frame.authDone': [
                                  {
                                    guard: updateAction('VERIFY_PRIMARY_OTP'),
                                    target: 'primaryOtp',
                                    actions: 'emailSent',
                                  },
                                  {
                                    guard: updateAction('VERIFY_SECONDARY_OTP'),
                                    target: 'secondaryOtp',
                                    actions: 'emailSent',
                                  },
                                  {
                                    guard: answers('updateEmail'),
                                    target: '#frame.lifecycle.active.ready.auth.connected.idle',
                                    actions: ['setBadReply', 'endFlow'],
                                  },
                                ],
                                'frame.authFailed': {
                                  target: '#frame.lifecycle.active.ready.auth.connected.idle',
                                  actions: ['setError', 'endFlow'],
                                },
                              },
                            },
                            /** UpdateEmailPrimaryOtp: the code sent to the current address. */
                            primaryOtp: {
                              on: {
                                'frame.submitOtp': submitCode('updateEmailPrimaryOtp', 'submittingPrimary'),
                              },
                            },
                            submittingPrimary: {
                              tags: 'busy',
                              exit: 'forgetAuthRequests',
                              on: {
                                'frame.authDone': {
                                  guard: answers('updateEmailPrimaryOtp'),
                                  target: 'secondaryOtp',
                                },
                                'frame.authFailed': { target: 'primaryOtp', actions: 'setError' },
                              },
                            },
                            /** UpdateEmailSecondaryOtp: the code sent to the new address. */
                            secondaryOtp: {
                              on: {
                                'frame.submitOtp': submitCode(
                                  'updateEmailSecondaryOtp',
                                  'submittingSecondary',
                                ),
                              },
                            },
                            submittingSecondary: {
                              tags: 'busy',
                              exit: 'forgetAuthRequests',
                              on: {
                                'frame.authDone': {
                                  guard: answers('updateEmailSecondaryOtp'),
                                  target: '#frame.lifecycle.active.ready.auth.connected.refreshingUser',
                                  actions: 'persistNewEmail',
                                },
                                'frame.authFailed': { target: 'secondaryOtp', actions: 'setError' },
                              },
                            },
                          },
                        },
                      },
                    },
                    /** Signed out locally whatever the frame answers, within 3 s at most (SPEC §9). */
                    signingOut: {
                      tags: 'busy',
                      entry: { type: 'request', params: auth('signOut') },
                      exit: 'forgetAuthRequests',
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
                      exit: 'endApproval',
                      on: {
                        'frame.showIn': { actions: 'showTransport' },
                        'frame.approvalSettled': {
                          guard: 'approvalMatches',
                          target: 'hidden',
                          actions: 'hideTransport',
                        },
                        'frame.approvalCleared': { target: 'hidden', actions: 'hideTransport' },
                      },
                    },
                  },
                },
              },
            },
          },
        },
        failed: {
          tags: 'failed',
          entry: ['loseSession', 'emitFailed'],
          on: {
            'frame.retry': { target: 'active', actions: 'resetForRetry' },
            'frame.rpc': { actions: 'refuseSignedOut' },
            'frame.switchNetwork': { actions: 'setChainId' },
            'frame.syncTheme': { actions: 'setTheme' },
          },
        },
      },
    },
    /** SPEC §5: after an e-mail with a code, a new one waits 30 s. Counts down by the second. */
    // Restarts are transitions of the region's own states: one from the region node with `reenter` would have
    // the parallel root as its domain and restart the lifecycle too.
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

/**
 * A view waiting for a one-time code (e-mail login, and both steps of an e-mail update): a malformed code is
 * refused here; a well-formed one is sent to the frame as `command` while the flow waits in `submitting`.
 */
function submitCode(
  command: 'connectOtp' | 'updateEmailPrimaryOtp' | 'updateEmailSecondaryOtp',
  submitting: string,
) {
  return [
    { guard: 'invalidOtp' as const, actions: 'setInvalidOtp' as const },
    {
      target: submitting,
      actions: [
        'clearError' as const,
        {
          type: 'request' as const,
          params: ({ event }: { event: { otp: string } }) => auth(command, { otp: event.otp.trim() }),
        },
      ],
    },
  ]
}

/**
 * Asking the frame for another mail (SPEC §4 e-mail login): its answer leads on as a first submit does, but a
 * failure keeps the visitor on the view they were on, with the error.
 */
function resending(from: 'otp' | 'device') {
  return {
    tags: 'busy' as const,
    entry: {
      type: 'request' as const,
      params: ({ context }: { context: FrameContext }) => auth('connectEmail', { email: context.email }),
    },
    exit: 'forgetAuthRequests' as const,
    on: {
      'frame.authDone': [
        { guard: emailAction('VERIFY_DEVICE'), target: 'device', actions: 'emailSent' as const },
        { guard: emailAction('VERIFY_OTP'), target: 'otp', actions: 'emailSent' as const },
        { guard: emailAction('CONNECT'), target: '#frame.lifecycle.active.ready.auth.fetchingUser' },
        { guard: answers('connectEmail'), target: from, actions: 'setBadReply' as const },
      ],
      'frame.authFailed': { target: from, actions: 'setError' as const },
    },
  }
}

function answers(command: FrameCommand) {
  return { type: 'answers' as const, params: { command } }
}

function emailAction(action: 'VERIFY_DEVICE' | 'VERIFY_OTP' | 'CONNECT') {
  return {
    type: 'result' as const,
    params: { command: 'connectEmail' as const, check: (r: Record<string, unknown>) => r.action === action },
  }
}

function updateAction(action: 'VERIFY_PRIMARY_OTP' | 'VERIFY_SECONDARY_OTP') {
  return {
    type: 'result' as const,
    params: { command: 'updateEmail' as const, check: (r: Record<string, unknown>) => r.action === action },
  }
}

function rpcPayload(event: FrameRpcRequest) {
  return {
    method: event.method,
    ...(event.params === undefined ? {} : { params: event.params }),
    ...(event.chainId === undefined ? {} : { chainId: event.chainId }),
  }
}

function restoredCooldown(restored: FrameRestored | undefined, system: unknown): number | undefined {
  const left = Math.min(EMAIL_LOGIN_COOLDOWN_MS, restored?.cooldownMs ?? 0)
  return left > 0 ? clockNow(system) + left : undefined
}

/**
 * Whole seconds left of the e-mail login cooldown, for a "resend in n s" label; 0 when a login may go.
 *
 * @example
 * const seconds = useSelector(frame, (s) => selectCooldownSeconds(s, Date.now()))
 */
export function selectCooldownSeconds(snapshot: { context: FrameContext }, now: number): number {
  const until = snapshot.context.cooldownUntil
  return until === undefined ? 0 : Math.max(0, Math.ceil((until - now) / 1000))
}

/** SPEC §4: smart account on eip155, EOA elsewhere. */
export function defaultAccountType(namespace: 'eip155' | 'solana'): AccountType {
  return namespace === 'eip155' ? 'smartAccount' : 'eoa'
}

export type FrameActorRef = ActorRefFrom<typeof frameMachine>
type FrameSnapshotLike = {
  matches: (value: never) => boolean
  hasTag: (tag: FrameTag) => boolean
}

/** The frame's status for the views: loading (spinner), ready, or failed (the alert and "Try again"). */
export function selectFrameStatus(snapshot: FrameSnapshotLike): 'loading' | 'ready' | 'failed' {
  if (snapshot.hasTag('failed')) return 'failed'
  if (snapshot.hasTag('loading')) return 'loading'
  return 'ready'
}

/**
 * The view the embedded-wallet flow calls for, if any: the kit pushes it when it changes.
 *
 * @example
 * const view = useSelector(frame, selectFrameView) // 'EmailVerifyOtp'
 */
export function selectFrameView(snapshot: { matches: (value: object) => boolean }): ViewName | undefined {
  const ready = (auth: unknown) => ({ lifecycle: { active: { ready: { auth } } } })
  if (snapshot.matches({ lifecycle: { active: { ready: { approval: 'shown' } } } }))
    return 'ApproveTransaction'
  if (snapshot.matches(ready({ email: 'device' })) || snapshot.matches(ready({ email: 'resendingDevice' })))
    return 'EmailVerifyDevice'
  if (
    snapshot.matches(ready({ email: 'otp' })) ||
    snapshot.matches(ready({ email: 'submittingOtp' })) ||
    snapshot.matches(ready({ email: 'resendingOtp' }))
  )
    return 'EmailVerifyOtp'
  if (snapshot.matches(ready('social'))) return 'ConnectingSocial'
  if (snapshot.matches(ready('farcaster'))) return 'ConnectingFarcaster'
  const update = (step: string) => ready({ connected: { updateEmail: step } })
  if (snapshot.matches(update('submitting'))) return 'UpdateEmailWallet'
  if (snapshot.matches(update('primaryOtp')) || snapshot.matches(update('submittingPrimary')))
    return 'UpdateEmailPrimaryOtp'
  if (snapshot.matches(update('secondaryOtp')) || snapshot.matches(update('submittingSecondary')))
    return 'UpdateEmailSecondaryOtp'
  return undefined
}

export { frameRpc } from '../frame/rpc'
