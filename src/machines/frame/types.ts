import type * as v from 'valibot'
import type { ActorRef, AnyActorRef, Snapshot } from 'xstate'
import type { KitAlert } from '../../errors/base'
import type { FrameErrorInfo } from '../../errors/frame'
import type {
  AccountTypeSchema,
  CommandPayload,
  FrameCommand,
  FrameReply,
  FrameUser,
  SocialProviderSchema,
} from '../../frame/protocol'
import type { FrameInbound, FrameTransportCommand } from '../../frame/transport'
import type { ViewName } from '../../views'

/** The frame machine's types, shared by the root (`../frame.ts`) and its parts in this folder. */

export type AccountType = v.InferOutput<typeof AccountTypeSchema>
export type SocialProvider = v.InferOutput<typeof SocialProviderSchema>
/** How the visitor logged in besides e-mail (SPEC §3 "connected social"). */
export type SocialLogin = SocialProvider | 'farcaster'

/** What the kit read from storage at start. */
export interface FrameRestored {
  /** The e-mail login flag: the session is checked once the frame is ready. */
  loggedIn: boolean
  email?: string
  social?: SocialLogin
  /** What is left of the e-mail login cooldown, from the stored last login time. */
  cooldownMs?: number
  /** The stored smart-account-enabled networks (SPEC §3), when any were stored. */
  smartAccountNetworks?: string[]
}

export interface FrameInput {
  /** `endpoints.frame`. */
  endpoint: string
  projectId: string
  /** The active network's chain id, as the frame knows it (a number on eip155). */
  chainId: string | number
  /** Decides the default account type (SPEC §4). */
  namespace?: 'eip155' | 'solana'
  /**
   * The account type a fresh login gets on eip155 (the config's `preferredAccountTypes`; SPEC §4's smart
   * account when unset). A restored login keeps the type the frame remembers (the visitor's last choice).
   */
  preferredAccountType?: AccountType
  /**
   * The eip155 networks (CAIP-2 ids) where the smart account is expected before the frame says (the stored
   * list, else the config's eip155 networks); the frame's answers then add or remove the current one.
   */
  smartAccountNetworks?: readonly string[]
  enableLogger?: boolean
  /** The kit's version in the frame's address; SDK_VERSION by default. */
  version?: string
  /** Sent to the frame once it is ready. */
  theme?: CommandPayload<'syncTheme'>
  dappData?: CommandPayload<'syncDappData'>
  restored?: FrameRestored
  /**
   * The clock the e-mail login cooldown is read against (SPEC §5); `Date.now` by default. Tests pass a
   * controlled one, e.g. a SimulatedClock's `now`, the same clock the actor system's timers run on.
   */
  now?: () => number
}

/** Where the frame starts: the network's chain id as the frame knows it, and its namespace. */
export const frameNetwork = (network: {
  id: string | number
  chainNamespace: string
}): Pick<FrameInput, 'chainId' | 'namespace'> => ({
  chainId: network.chainNamespace === 'eip155' ? Number(network.id) : String(network.id),
  namespace: network.chainNamespace as FrameInput['namespace'],
})

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
  /** The clock (the input's `now`). */
  now: () => number
  /** The transport (the hidden iframe) while the frame is active; requests are posted through it. */
  transport: FrameTransportRef | undefined
  /** How many requests were sent: the last one's id is `r{n}`. */
  requestCount: number
  /** The RPC requests open now, one spawned request actor each (SPEC §7). */
  rpc: OpenRpcRequest[]
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
  /** The type a fresh login gets on eip155 (the input's `preferredAccountType`). */
  preferredAccountType: AccountType
  /** Whether this login was already given the preferred type (asked once, never in a loop). */
  accountTypeApplied: boolean
  /** SPEC §3 "smart-account-enabled networks": CAIP-2 ids of the eip155 networks with a smart account. */
  smartAccountNetworks: readonly string[]
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
  /** From the request actors. */
  | { type: 'frame.rpcSettled'; id: string; reply: FrameReply['payload'] }
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
  /** The frame refused an RPC method for this session (4200, 'Requested RPC call is not allowed'). */
  | { type: 'embedded.rpcNotAllowed'; method: string }
  /**
   * The visitor's action was refused: a one-time code (malformed, or wrong by the frame's word) or an e-mail
   * address. The kit shakes the modal (SPEC §2 modal shake).
   */
  | { type: 'embedded.refused'; reason: 'code' | 'email' }
  /** SPEC §2 loading toast: a social or Farcaster login's account data read, then done. */
  | { type: 'toast.show'; variant: 'loading'; message: string }
  | { type: 'toast.hide'; message: string }

/** What the persistence slot stores (SPEC §3); nothing secret. The slot stamps the time itself. */
export type FramePersistRequest =
  /** An e-mail code was sent: store now as the last login time (the cooldown survives a reload). */
  | { type: 'persist.emailSent' }
  /** Logged in: the e-mail login flag, the e-mail and the connected social. */
  | { type: 'persist.connected'; email: string | undefined; social: SocialLogin | undefined }
  | { type: 'persist.email'; email: string }
  | { type: 'persist.disconnected' }
  /** SPEC §3: the smart-account-enabled networks changed (the frame set one up, or refused it). */
  | { type: 'persist.smartAccountNetworks'; networks: string[] }

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

export type FrameTag =
  | 'loading'
  | 'busy'
  | 'failed'
  | 'connected'
  | 'showFrame'
  | 'coolingDown'
  /** An e-mail with a code is being asked for (the login's first mail, an update's first). */
  | 'sendingCode'
  /** A typed code is with the frame. */
  | 'checkingCode'
  /** A view waits for the visitor to type a code. */
  | 'awaitingCode'
  /** The account changes (account type, network) and its user is read again. */
  | 'refreshingAccount'
  /** An e-mail update is under way. */
  | 'updatingEmail'
  /** The e-mail login waits for the visitor to approve this device from the mail. */
  | 'awaitingDevice'
  /** The social login: the popup opens (the redirect URI is asked for), or the visitor is at the provider. */
  | 'openingPopup'
  | 'atProvider'
  /** The Farcaster login: its whole flow, and the wait for the visitor's Farcaster app. */
  | 'farcaster'
  | 'awaitingApp'
  /** A login went through; the account is being read (or, social, the callback is with the frame). */
  | 'signingIn'

/** The transport slot's actor: takes posts (with whom to give the reply to), and shows or hides the frame. */
export type FrameTransportRef = ActorRef<Snapshot<unknown>, FrameTransportCommand>

/** Who waits for a reply: the login flow (one request per step, invoked) or an RPC caller (one per call). */
export type RequestOwner = 'auth' | 'rpc'

/** An RPC request sent and not yet answered. Holds no params: nothing a visitor signs sits in a snapshot. */
export interface OpenRpcRequest {
  /** The request id, also the request actor's id. */
  id: string
  method: string
  /** The caller's key, echoed in `embedded.rpcResult` / `embedded.rpcError`. */
  ref: string
  actor: AnyActorRef
  /**
   * The visitor approved it in the frame (`frame.approvalSettled`, approved): it runs to its end, and
   * `frame.rejectRpcRequests` no longer cancels it — a transaction may already be on its way (issue 13).
   */
  approved: boolean
}

/** What a state of the frame machine says of itself: the view the kit shows while it is active. */
export interface FrameStateMeta {
  view?: ViewName
}
