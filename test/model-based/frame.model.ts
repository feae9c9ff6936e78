import type { AnyActorRef, EventFromLogic, InputFrom, SnapshotFrom } from 'xstate'
import { createActor, fromCallback } from 'xstate'
import { ALERTS } from '../../src/errors/base'
import type { FrameUser } from '../../src/frame/protocol'
import {
  type FrameRequestInput,
  frameMachine,
  frameRequestMachine,
  selectFrameStatus,
  selectFrameView,
  smartAccountEnabled,
} from '../../src/machines/frame'
import { createModel } from '../../src/testing'

/**
 * The frame machine's model. Its slots are the machine's own do-nothing defaults: no transport answers, so
 * every answer of the frame is an event of the path. The login flow's answers are the machine's internal
 * `frame.authDone` / `frame.authFailed` (what a reply of the right id turns into), so paths do not depend on
 * request ids; a few replies and timeouts with ids cover the bookkeeping that turns one into the other.
 */
export const frameModelMachine = frameMachine

type Machine = typeof frameModelMachine
export type FrameModelSnapshot = SnapshotFrom<Machine>
type Event = EventFromLogic<Machine>

const ALICE = 'alice@example.com'
const ADDRESS = '0x00000000000000000000000000000000000a11ce'
const USER: FrameUser = {
  email: ALICE,
  address: ADDRESS,
  chainId: 1,
  accounts: [{ address: ADDRESS, type: 'smartAccount' }],
  preferredAccountType: 'smartAccount',
}
/** The same account after a switch to its EOA. */
const EOA_USER: FrameUser = {
  ...USER,
  accounts: [{ address: ADDRESS, type: 'eoa' }],
  preferredAccountType: 'eoa',
}
const error = { name: 'FrameReplyError', message: 'Invalid one-time code' }
/** A code the model types; it must never be found in a snapshot. */
export const MODEL_OTP = '918273'

const done = (command: string, result?: unknown) =>
  ({ type: 'frame.authDone', command, result }) as unknown as Event

export const frameEvents: Event[] = [
  { type: 'frame.ready', payload: { version: 1 } },
  { type: 'frame.originNotAllowed', payload: { origin: 'https://app.example' } },
  { type: 'frame.retry' },
  { type: 'frame.connectEmail', email: ALICE },
  { type: 'frame.connectEmail', email: 'not-an-email' },
  { type: 'frame.submitOtp', otp: MODEL_OTP },
  { type: 'frame.submitOtp', otp: '12' },
  { type: 'frame.resendCode' },
  { type: 'frame.cancel' },
  { type: 'frame.connectSocial', provider: 'google' },
  { type: 'frame.socialCallback', uri: 'https://secure.example/social/callback?code=1' },
  { type: 'frame.socialCancelled', reason: 'closed' },
  { type: 'frame.socialCancelled', reason: 'blocked' },
  { type: 'frame.connectFarcaster' },
  { type: 'frame.signOut' },
  { type: 'frame.switchNetwork', chainId: 10 },
  { type: 'frame.setAccountType', accountType: 'eoa' },
  { type: 'frame.updateEmail', email: 'bob@example.com' },
  { type: 'frame.updateEmail', email: 'bob' },
  { type: 'frame.rpc', ref: 'sign', method: 'personal_sign', params: ['0x00', ADDRESS] },
  { type: 'frame.rpc', ref: 'read', method: 'eth_getBalance', params: [ADDRESS, 'latest'] },
  { type: 'frame.rpc', ref: 'bad', method: '' },
  { type: 'frame.rejectRpcRequests' },
  { type: 'frame.syncTheme', theme: { themeMode: 'light' } },
  { type: 'frame.showIn', container: {} as Element },
  // The frame shows itself for the signing request: its id is the fourth request of the shortest login
  // (connectEmail, getUser, initSmartAccount, then the call).
  { type: 'frame.approvalNeeded', payload: { requestId: 'r4', method: 'personal_sign' } },
  { type: 'frame.approvalSettled', payload: { requestId: 'r4', approved: true } },
  // The signing request's actor reports its answer, of each kind (and one for a request never sent).
  { type: 'frame.rpcSettled', id: 'r4', reply: { ok: true, result: '0x5' } },
  { type: 'frame.rpcSettled', id: 'r4', reply: { ok: false, error: { message: '', code: 4001 } } },
  { type: 'frame.rpcSettled', id: 'r99', reply: { ok: true } },
  // What replies turn into.
  done('isConnected', { isConnected: true }),
  done('isConnected', { isConnected: false }),
  done('connectEmail', { action: 'VERIFY_DEVICE' }),
  done('connectEmail', { action: 'VERIFY_OTP' }),
  done('connectEmail', { action: 'CONNECT' }),
  done('connectEmail', { action: 'SOMETHING_ELSE' }),
  done('connectDevice'),
  done('connectOtp'),
  done('getSocialRedirectUri', { uri: 'https://id.example/authorize?provider=google' }),
  done('getSocialRedirectUri', { uri: 'javascript:alert(1)' }),
  done('connectSocial'),
  done('getFarcasterUri', { url: 'https://farcaster.example/~/siwf?channel=1' }),
  done('getFarcasterUri', {}),
  done('connectFarcaster'),
  done('reload'),
  done('getUser', USER),
  done('getUser', { address: 'not an address' }),
  done('switchNetwork', { chainId: 10 }),
  // Issue 17: a Solana chain answered with an EVM address is not the protocol's answer (refused, the user stays).
  done('switchNetwork', { chainId: 'solana:Hq4dzz54z5Mz3UNbSXtqh2tF4zCBtKZx', address: ADDRESS }),
  done('setPreferredAccount'),
  done('updateEmail', { action: 'VERIFY_PRIMARY_OTP' }),
  done('updateEmail', { action: 'VERIFY_SECONDARY_OTP' }),
  done('updateEmail', { action: 'NOPE' }),
  done('updateEmailPrimaryOtp'),
  done('updateEmailSecondaryOtp'),
  done('signOut'),
  { type: 'frame.authFailed', command: 'connectOtp', error } as Event,
  // From an EOA, the frame refusing the smart account (SPEC §8 'This application might not support Smart Accounts').
  done('getUser', EOA_USER),
  { type: 'frame.setAccountType', accountType: 'smartAccount' },
  {
    type: 'frame.authFailed',
    command: 'setPreferredAccount',
    error: { name: 'FrameReplyError', message: 'No' },
  } as Event,
  // SPEC §4 smart-account setup: answered, answered badly, refused (SPEC §8: the network has none).
  done('initSmartAccount', { address: ADDRESS, isDeployed: false }),
  done('initSmartAccount', {}),
  {
    type: 'frame.authFailed',
    command: 'initSmartAccount',
    error: { name: 'FrameReplyError', message: 'Smart accounts are not enabled' },
  } as Event,
]

/** The command the login step's request actor waits on, if one runs. */
function loginRequest(snapshot: FrameModelSnapshot): string | undefined {
  const child = (snapshot.children as Record<string, AnyActorRef | undefined>).request
  return child?.getSnapshot().context.command
}

/**
 * State identity: the state, and of the context what the invariants speak of and what decides where the
 * machine can go. Ids, chains, addresses and timestamps are the unit tests' business.
 */
export function serializeFrame(snapshot: FrameModelSnapshot): string {
  const { rpc, user, alert, approval, restoring, cooldownUntil, socialUri, farcasterUrl } = snapshot.context
  return JSON.stringify({
    value: snapshot.value,
    user: user !== undefined,
    alert: alert?.code ?? null,
    approval: approval !== undefined,
    auth: loginRequest(snapshot) ?? null,
    signing: rpc.some((r) => r.method === 'personal_sign'),
    reading: rpc.some((r) => r.method !== 'personal_sign'),
    restoring,
    eoa: snapshot.context.accountType === 'eoa',
    applied: snapshot.context.accountTypeApplied,
    smartAccountHere: smartAccountEnabled(snapshot.context),
    cooling: cooldownUntil !== undefined,
    flow: [socialUri !== undefined, farcasterUrl !== undefined],
  })
}

export const frameInputs = {
  fresh: { endpoint: 'https://secure.example', projectId: 'p1', chainId: 1 },
  restored: {
    endpoint: 'https://secure.example',
    projectId: 'p1',
    chainId: 1,
    restored: { loggedIn: true, email: ALICE, cooldownMs: 12_000 },
  },
} satisfies Record<string, InputFrom<Machine>>

/**
 * A first visit explores the whole machine. A stored login (with a cooldown left) differs only until the
 * stored login is checked, so its exploration stops there. Every state of the model's abstraction is kept
 * (`reachable`, with the snapshot first found for it) for checking the invariant beyond the covering paths.
 */
export const frameModel = (name: keyof typeof frameInputs) =>
  createModel(frameModelMachine, {
    events: frameEvents,
    input: frameInputs[name],
    serializeState: serializeFrame,
    keepReachable: true,
    ...(name === 'restored'
      ? { stopWhen: (snapshot: FrameModelSnapshot) => !snapshot.context.restoring }
      : {}),
  })

const READY = (auth: unknown) => ({ lifecycle: { active: { ready: { auth } } } })

/** Login steps that wait on the frame: each has exactly one request of the login flow pending. */
const WAITING: unknown[] = [
  'reconnecting',
  { email: 'submitting' },
  { email: 'device' },
  { email: 'submittingOtp' },
  { email: 'resendingOtp' },
  { email: 'resendingDevice' },
  { social: 'requestingUri' },
  { social: 'connecting' },
  { farcaster: 'requestingUri' },
  { farcaster: 'connecting' },
  'fetchingUser',
  'applyingAccountType',
  { connected: 'settingUpSmartAccount' },
  { connected: 'switchingNetwork' },
  { connected: 'settingAccountType' },
  { connected: 'refreshingUser' },
  { connected: { updateEmail: 'submitting' } },
  { connected: { updateEmail: 'submittingPrimary' } },
  { connected: { updateEmail: 'submittingSecondary' } },
  'signingOut',
  'reloadingFrame',
]
/** Those the visitor sees a spinner for (the others wait on the visitor: an e-mail link, the Farcaster app). */
const SPINNING = WAITING.filter(
  (step) =>
    // Nor is the smart account's setup: the account is usable meanwhile.
    !['{"email":"device"}', '{"farcaster":"connecting"}', '{"connected":"settingUpSmartAccount"}'].includes(
      JSON.stringify(step),
    ),
)

/** What must hold in every state of the frame machine. */
export function frameInvariant(snapshot: FrameModelSnapshot): void {
  const { context } = snapshot
  const fail = (message: string) => {
    throw new Error(`${message} in ${JSON.stringify(snapshot.value)}`)
  }
  if (snapshot.status !== 'active') fail(`actor ${snapshot.status}`)

  const status = selectFrameStatus(snapshot)
  const failed = snapshot.matches({ lifecycle: 'failed' })
  const ready = snapshot.matches({ lifecycle: { active: 'ready' } })
  if ((status === 'failed') !== failed) fail('failed status out of step')
  if ((status === 'ready') !== ready) fail('ready status out of step')
  if (failed) {
    if (!context.error || !context.alert) fail('failed without its error and alert')
    const codes = [ALERTS.EMBEDDED_WALLET_LOAD_FAILED.code, ALERTS.INVALID_APP_CONFIGURATION.code]
    if (!codes.includes(context.alert!.code)) fail(`alert ${context.alert!.code}`)
  } else if (context.alert) fail('an alert outside failed')

  // Requests exist only while the frame is ready.
  const login = loginRequest(snapshot)
  if (!ready && (context.rpc.length > 0 || login !== undefined))
    fail('requests pending while the frame is not ready')
  const ids = context.rpc.map((r) => r.id)
  if (new Set(ids).size !== ids.length) fail('two pending requests with one id')
  for (const request of context.rpc) {
    if ((snapshot.children as Record<string, AnyActorRef | undefined>)[request.id] !== request.actor)
      fail(`RPC request ${request.id} without its actor`)
  }

  // The login flow waits on one request at a time (its step's), exactly in the steps that wait.
  const waiting = WAITING.some((step) => snapshot.matches(READY(step) as never))
  if (waiting !== (login !== undefined)) fail(`login request pending: ${login}`)
  const spinning = SPINNING.some((step) => snapshot.matches(READY(step) as never))
  if (snapshot.hasTag('busy') !== spinning) fail('busy tag out of step')
  if (snapshot.hasTag('loading') !== (status === 'loading')) fail('loading tag out of step')

  // The account exists while connected (and while signing out, or while a fresh login's user is given the
  // config's account type), nowhere else.
  const connected = snapshot.matches(READY('connected') as never)
  const signingOut = snapshot.matches(READY('signingOut') as never)
  const applying = snapshot.matches(READY('applyingAccountType') as never)
  if (snapshot.hasTag('connected') !== connected) fail('connected tag out of step')
  if ((context.user !== undefined) !== (connected || signingOut || applying))
    fail('user out of step with the state')
  if (!connected && context.rpc.length > 0) fail('an RPC request while not connected')

  // The frame is shown only for a signing request still open.
  const shown = snapshot.matches({ lifecycle: { active: { ready: { approval: 'shown' } } } })
  if (snapshot.hasTag('showFrame') !== shown || (context.approval !== undefined) !== shown)
    fail('approval out of step')
  if (context.approval && !context.rpc.some((r) => r.id === context.approval!.requestId))
    fail('the frame is shown for no open request')
  if (shown !== (selectFrameView(snapshot) === 'ApproveTransaction'))
    fail('ApproveTransaction view out of step')

  // The cooldown.
  const cooling = snapshot.matches({ cooldown: 'cooling' })
  if (snapshot.hasTag('coolingDown') !== cooling || (context.cooldownUntil !== undefined) !== cooling)
    fail('cooldown out of step')

  // What a flow step shows exists only in that step.
  const social = (step: string) => snapshot.matches(READY({ social: step }) as never)
  if (social('awaitingCallback') && context.socialUri === undefined)
    fail('waiting for the popup without its URI')
  if (context.socialUri !== undefined && !social('awaitingCallback') && !social('connecting'))
    fail('a social redirect URI outside the social login')
  if (context.farcasterUrl !== undefined && !snapshot.matches(READY('farcaster') as never))
    fail('a Farcaster URI outside the Farcaster login')
  if (context.newEmail !== undefined && !snapshot.matches(READY({ connected: 'updateEmail' }) as never))
    fail('a new e-mail outside the update')

  // Nothing secret in a snapshot.
  if (JSON.stringify(context).includes(MODEL_OTP)) fail('a one-time code in the context')
  const request = (snapshot.children as Record<string, AnyActorRef | undefined>).request?.getSnapshot()
  if (JSON.stringify(request ?? null).includes(MODEL_OTP))
    fail("a one-time code in the request actor's snapshot")
}

/**
 * The request actor's model: one login request (with its timeout) and one RPC call (none), each answered
 * well or badly. The transport is an actor that takes the post and never answers.
 */
export const requestInputs = {
  login: { id: 'r1', command: 'connectEmail', payload: { email: ALICE }, owner: 'auth' },
  signing: { id: 'r3', command: 'rpcRequest', payload: { method: 'personal_sign' }, owner: 'rpc' },
} satisfies Record<string, Omit<FrameRequestInput, 'transport'>>

/** Without a parent to tell: what it tells the frame machine is the machine tests' business. */
const requestAlone = frameRequestMachine.provide({
  actions: { settleRpc: () => {}, authDone: () => {}, authFailed: () => {}, timedOut: () => {} },
})

export const requestModel = (name: keyof typeof requestInputs) =>
  createModel(requestAlone, {
    events: [
      {
        type: 'frame.reply',
        id: requestInputs[name].id,
        payload: { ok: true, result: { action: 'VERIFY_OTP' } },
      },
      { type: 'frame.reply', id: requestInputs[name].id, payload: { ok: false, error: { message: '' } } },
    ],
    input: { ...requestInputs[name], transport: createActor(fromCallback(() => () => {})) },
  })
