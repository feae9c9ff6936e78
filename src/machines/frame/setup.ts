import * as v from 'valibot'
import {
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
  DEFAULT_ACCOUNT_TYPES,
  EMAIL_LOGIN_COOLDOWN_MS,
  FARCASTER_RELOAD_DELAY_MS,
  FRAME_LOAD_TIMEOUT_MS,
  FRAME_READY_DELAY_MS,
} from '../../constants'
import {
  ActionNotAllowedError,
  AuthInitError,
  EmailThrottledError,
  FrameLoadError,
  FrameOriginNotAllowedError,
  FrameReplyError,
  FrameRequestAbortedError,
  frameErrorInfo,
  InvalidEmailError,
  InvalidOtpError,
  InvalidSignatureError,
  InvalidTransactionHashError,
  RpcNotAllowedError,
  replyError,
  SmartAccountUnsupportedError,
} from '../../errors/frame'
import {
  type CommandPayload,
  CommandPayloads,
  CommandResults,
  type FrameCommand,
  isSolanaFrameUser,
  malformedRpcResult,
  SAFE_RPC_METHODS,
} from '../../frame/protocol'
import type { FrameInbound, FrameTransportCommand, FrameTransportInput } from '../../frame/transport'
import { frameNetworkId, smartAccountEnabled } from './networks'
import { type FrameRequestMachine, frameRequestMachine } from './requests'
import type {
  AccountType,
  FrameContext,
  FrameEmitted,
  FrameInput,
  FrameMachineEvent,
  FramePersistRequest,
  FrameRpcRequest,
  FrameStateMeta,
  FrameTag,
  SocialPopupCommand,
  SocialPopupEvent,
  SocialPopupInput,
} from './types'

/**
 * The frame machine's `setup`: its types, slots, guards and actions. The root (`../frame.ts`) builds the
 * machine from it, and the login flows in this folder their state configs (`frameSetup.createStateConfig`),
 * so every part shares the root's types.
 */

const isSafeMethod = (method: string) => (SAFE_RPC_METHODS as readonly string[]).includes(method)
const parses = (schema: v.GenericSchema, value: unknown) => v.safeParse(schema, value).success
const badReply = (command: FrameCommand) =>
  frameErrorInfo(
    new FrameReplyError(undefined, { details: `The frame answered ${command} with an unexpected result.` }),
  )

/** SPEC §4: smart account on eip155, EOA elsewhere; `preferred` is the config's type for eip155. */
export function defaultAccountType(
  namespace: 'eip155' | 'solana',
  preferred: AccountType = DEFAULT_ACCOUNT_TYPES.eip155,
): AccountType {
  return namespace === 'eip155' ? preferred : DEFAULT_ACCOUNT_TYPES.solana
}

const withNetwork = (networks: readonly string[], id: string, enabled: boolean): string[] =>
  enabled ? [...new Set([...networks, id])] : networks.filter((n) => n !== id)

function rpcPayload(event: FrameRpcRequest) {
  return {
    method: event.method,
    ...(event.params === undefined ? {} : { params: event.params }),
    ...(event.chainId === undefined ? {} : { chainId: event.chainId }),
  }
}

/** The part of `enqueueActions`' queue the helpers below use. */
interface Queue {
  assign(assigner: (args: { context: FrameContext }) => Partial<FrameContext>): void
  sendTo(to: NonNullable<FrameContext['transport']>, event: FrameTransportCommand): void
  stopChild(actor: FrameContext['rpc'][number]['actor']): void
  raise(event: FrameMachineEvent): void
  emit(event: FrameEmitted): void
}

/** A command no one waits for (theme, app data, rejecting open requests): posted, its reply ignored. */
interface Background {
  command: FrameCommand
  payload: unknown
}

/** Posts commands no one waits for, with fresh ids. */
function enqueuePosts(enqueue: Queue, context: FrameContext, posts: Background[]) {
  if (posts.length === 0 || !context.transport) return
  posts.forEach(({ command, payload }, offset) => {
    enqueue.sendTo(context.transport!, {
      type: 'transport.post',
      request: { id: `r${context.requestCount + 1 + offset}`, type: command, payload },
    })
  })
  enqueue.assign(({ context: now }) => ({ requestCount: now.requestCount + posts.length }))
}

/**
 * Which open RPC requests a cancel may fail (SPEC §7: safe methods are not aborted). `all` (the frame is gone):
 * every one. Otherwise (`frame.rejectRpcRequests`) only the signing requests the visitor has not settled: one
 * already approved runs to its end, and the one on the approval screen is the frame's to answer — it answers
 * 'Request was aborted', or the result when the visitor's Approve crossed the cancel (issue 13: never report an
 * approved transaction as declined).
 * @internal
 */
export function cancellableRpc(context: Pick<FrameContext, 'rpc' | 'approval'>, all: boolean) {
  if (all) return context.rpc
  return context.rpc.filter(
    (r) => !isSafeMethod(r.method) && !r.approved && r.id !== context.approval?.requestId,
  )
}

/** Fails open RPC requests with 'Request was aborted': all of them, or the cancellable ones (see above). */
function enqueueAbort(enqueue: Queue, context: FrameContext, all: boolean) {
  const aborted = cancellableRpc(context, all)
  // The approval screen closes whether its request is aborted here or answered by the frame.
  if (!all && context.approval) enqueue.raise({ type: 'frame.approvalCleared' })
  if (aborted.length === 0) return
  const ids = new Set(aborted.map((r) => r.id))
  enqueue.assign(({ context: now }) => ({ rpc: now.rpc.filter((r) => !ids.has(r.id)) }))
  for (const request of aborted) {
    enqueue.stopChild(request.actor)
    enqueue.emit({
      type: 'embedded.rpcError',
      ref: request.ref,
      error: frameErrorInfo(new FrameRequestAbortedError()),
    })
  }
  if (context.approval && ids.has(context.approval.requestId))
    enqueue.raise({ type: 'frame.approvalCleared' })
}

// The loading toast after a social or Farcaster login, while the account's data is read (the incumbent's words).
export const LOADING_USER_TOAST = 'Loading user data'

export const frameSetup = setup({
  types: {
    context: {} as FrameContext,
    events: {} as FrameMachineEvent,
    input: {} as FrameInput,
    emitted: {} as FrameEmitted,
    tags: {} as FrameTag,
    meta: {} as FrameStateMeta,
  },
  actors: {
    transport: fromCallback<FrameTransportCommand, FrameTransportInput, FrameInbound>(() => () => {}),
    persistence: fromCallback<FramePersistRequest>(() => () => {}),
    socialPopup: fromCallback<SocialPopupCommand, SocialPopupInput, SocialPopupEvent>(() => () => {}),
    frameRequest: frameRequestMachine as FrameRequestMachine,
  },
  delays: {
    loadTimeout: FRAME_LOAD_TIMEOUT_MS,
    readyDelay: FRAME_READY_DELAY_MS,
    farcasterReload: FARCASTER_RELOAD_DELAY_MS,
  },
  guards: {
    restoring: ({ context }) => context.restoring,
    /**
     * The frame refused (not a timeout) to switch the account to its smart account: there are two types, so
     * from an EOA the switch asked was to the smart account (SPEC §8).
     */
    smartAccountRefused: ({ context, event }) =>
      event.type === 'frame.authFailed' &&
      event.command === 'setPreferredAccount' &&
      context.accountType === 'eoa' &&
      event.error.name !== 'FrameTimeoutError',
    /**
     * A fresh login (not a restored one) whose user has another type than the config's: the frame is asked
     * once for the config's type (SPEC §4's default), the smart account only where the network has one.
     */
    otherAccountTypePreferred: ({ context, event }) => {
      if (context.restoring || context.accountTypeApplied || event.type !== 'frame.authDone') return false
      const user = v.safeParse(CommandResults.getUser, event.result)
      if (!user.success || isSolanaFrameUser(user.output)) return false
      const wanted = context.preferredAccountType
      return (
        user.output.preferredAccountType !== wanted &&
        (wanted === 'eoa' || smartAccountEnabled({ ...context, chainId: user.output.chainId }))
      )
    },
    /** The connected account is the smart account (on eip155): the frame sets it up (SPEC §4 smart-account setup). */
    onSmartAccount: ({ context }) =>
      context.user !== undefined &&
      !isSolanaFrameUser(context.user) &&
      context.user.preferredAccountType === 'smartAccount',
    /** SPEC §8: the smart account is asked for on a network without one: refused before the frame is asked. */
    smartAccountUnavailable: ({ context, event }) =>
      event.type === 'frame.setAccountType' &&
      event.accountType === 'smartAccount' &&
      !smartAccountEnabled(context),
    /** The frame refused (not a timeout) to set up the smart account on this network. */
    smartAccountSetupRefused: ({ event }) =>
      event.type === 'frame.authFailed' &&
      event.command === 'initSmartAccount' &&
      event.error.name !== 'FrameTimeoutError',
    hasCooldown: ({ context }) => context.cooldownUntil !== undefined,
    coolingDown: stateIn('#frame.cooldown.cooling'),
    /** The settled RPC request is one still open (not aborted meanwhile). */
    isOpenRpc: ({ context, event }) => {
      assertEvent(event, 'frame.rpcSettled')
      return context.rpc.some((request) => request.id === event.id)
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
      return context.rpc.some((r) => r.id === event.payload.requestId)
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
    /** A login step asks the frame: the request it invokes takes the next id. */
    countRequest: assign({ requestCount: ({ context }) => context.requestCount + 1 }),
    /** An RPC request's answer: handed to its caller. */
    settleRpc: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'frame.rpcSettled')
      const request = context.rpc.find((r) => r.id === event.id)!
      enqueue.assign({ rpc: context.rpc.filter((r) => r.id !== event.id) })
      enqueue.stopChild(request.actor)
      const { reply } = event
      // SPEC §5: a hash or signature that is not one is an error, never handed on as the answer.
      const malformed = reply.ok ? malformedRpcResult(request.method, reply.result) : undefined
      if (malformed) {
        const details = `The frame answered ${request.method.slice(0, 100)} with no ${malformed === 'hash' ? 'transaction hash' : 'signature'}.`
        const error =
          malformed === 'hash'
            ? new InvalidTransactionHashError({ details })
            : new InvalidSignatureError({ details })
        enqueue.emit({ type: 'embedded.rpcError', ref: request.ref, error: frameErrorInfo(error) })
      } else if (reply.ok)
        enqueue.emit({ type: 'embedded.rpcResult', ref: request.ref, result: reply.result })
      else {
        const error = replyError(reply.error)
        enqueue.emit({ type: 'embedded.rpcError', ref: request.ref, error: frameErrorInfo(error) })
        // 4200: the wallet does not allow the method (SPEC §8 'Requested RPC call is not allowed').
        if (reply.error.code === 4200)
          enqueue.emit({ type: 'embedded.rpcNotAllowed', method: request.method })
      }
      if (context.approval?.requestId === request.id) enqueue.raise({ type: 'frame.approvalCleared' })
    }),
    /** Fails open RPC requests with 'Request was aborted': every one, or only the signing ones (SPEC §7). */
    abortRpcRequests: enqueueActions(({ context, enqueue }, params: { all: boolean }) => {
      enqueueAbort(enqueue, context, params.all)
    }),
    /** The app data and theme, once the frame is ready; no one waits for their replies. */
    syncOnReady: enqueueActions(({ context, enqueue }) => {
      const requests: Background[] = []
      if (context.dappData) requests.push({ command: 'syncDappData', payload: context.dappData })
      if (context.theme) requests.push({ command: 'syncTheme', payload: context.theme })
      enqueuePosts(enqueue, context, requests)
    }),
    syncTheme: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'frame.syncTheme')
      enqueue.assign({ theme: event.theme })
      enqueuePosts(enqueue, context, [{ command: 'syncTheme', payload: event.theme }])
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
    /**
     * SPEC §2 toasts, `loading`: a social or Farcaster login is done in the frame and the account's data is read
     * (the kit's toast shows it, role=status).
     */
    showLoadingUser: emit({ type: 'toast.show', variant: 'loading', message: LOADING_USER_TOAST } as const),
    /** The account's data came, or did not: its loading toast goes (a toast that replaced it stays). */
    hideLoadingUser: emit({ type: 'toast.hide', message: LOADING_USER_TOAST } as const),
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
    setSmartAccountUnsupported: assign(({ event }) => {
      assertEvent(event, 'frame.authFailed')
      return { error: frameErrorInfo(new SmartAccountUnsupportedError({ details: event.error.message })) }
    }),
    /** SPEC §8 'This application might not support Smart Accounts', without the frame being asked. */
    refuseSmartAccount: assign({ error: () => frameErrorInfo(new SmartAccountUnsupportedError()) }),
    markAccountTypeApplied: assign({ accountTypeApplied: true }),
    dropUser: assign({ user: undefined }),
    /** The frame set up the smart account here: the network has one, and whether it is deployed is known. */
    setSmartAccountReady: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'frame.authDone')
      const { isDeployed } = v.parse(CommandResults.initSmartAccount, event.result)
      const networks = withNetwork(context.smartAccountNetworks, frameNetworkId(context.chainId), true)
      enqueue.assign({
        smartAccountNetworks: networks,
        ...(context.user && isDeployed !== undefined
          ? { user: { ...context.user, smartAccountDeployed: isDeployed } }
          : {}),
      })
      if (networks.length !== context.smartAccountNetworks.length)
        enqueue.sendTo('persistence', {
          type: 'persist.smartAccountNetworks',
          networks,
        } satisfies FramePersistRequest)
    }),
    /** The frame refused the smart account here: the network has none (SPEC §8). */
    markNoSmartAccount: enqueueActions(({ context, enqueue }) => {
      const networks = withNetwork(context.smartAccountNetworks, frameNetworkId(context.chainId), false)
      if (networks.length === context.smartAccountNetworks.length) return
      enqueue.assign({ smartAccountNetworks: networks })
      enqueue.sendTo('persistence', {
        type: 'persist.smartAccountNetworks',
        networks,
      } satisfies FramePersistRequest)
    }),
    setInvalidEmail: assign({ error: () => frameErrorInfo(new InvalidEmailError()) }),
    setInvalidOtp: assign({ error: () => frameErrorInfo(new InvalidOtpError()) }),
    /** The visitor's code or address was refused: the kit shakes the modal (SPEC §2). */
    emitRefused: emit((_, reason: 'code' | 'email') => ({ type: 'embedded.refused' as const, reason })),
    /** SPEC §5: 'Please try again after {n} seconds', n the seconds left rounded up. */
    setThrottled: assign(({ context }) => {
      const left = (context.cooldownUntil ?? 0) - context.now()
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
    startCooldown: assign(({ context }) => ({ cooldownUntil: context.now() + EMAIL_LOGIN_COOLDOWN_MS })),
    /** One timer to the deadline (a chain of short ones would drift in a throttled background tab). */
    armCooldown: enqueueActions(({ context, enqueue }) => {
      const left = Math.max(0, (context.cooldownUntil ?? 0) - context.now())
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
        accountType: defaultAccountType(context.namespace, context.preferredAccountType),
        accountTypeApplied: false,
      })
      enqueue.sendTo('persistence', { type: 'persist.disconnected' } satisfies FramePersistRequest)
      enqueue.emit({ type: 'embedded.disconnected' })
    }),
    /** One request actor per RPC call, spawned next to the others that are open. */
    requestRpc: assign(({ context, event, spawn }) => {
      assertEvent(event, 'frame.rpc')
      const id = `r${context.requestCount + 1}`
      const actor = spawn('frameRequest', {
        id,
        input: {
          transport: context.transport,
          id,
          command: 'rpcRequest',
          payload: rpcPayload(event),
          owner: 'rpc',
        },
      })
      return {
        requestCount: context.requestCount + 1,
        rpc: [...context.rpc, { id, method: event.method, ref: event.ref, actor, approved: false }],
      }
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
      enqueuePosts(enqueue, context, [{ command: 'rejectRpcRequests', payload: {} }])
    }),
    /** The visitor approved the request in the frame: from now on it finishes with the frame's answer. */
    markApproved: assign(({ context, event }) => {
      assertEvent(event, 'frame.approvalSettled')
      if (!event.payload.approved) return {}
      return {
        rpc: context.rpc.map((r) => (r.id === event.payload.requestId ? { ...r, approved: true } : r)),
      }
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
    showTransport: sendTo(
      ({ context }) => context.transport!,
      ({ event }) => {
        assertEvent(event, 'frame.showIn')
        return { type: 'transport.show', container: event.container } satisfies FrameTransportCommand
      },
    ),
    hideTransport: sendTo(({ context }) => context.transport!, {
      type: 'transport.hide',
    } satisfies FrameTransportCommand),
  },
})

export type { CommandPayload }
