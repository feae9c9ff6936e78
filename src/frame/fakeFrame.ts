import * as v from 'valibot'
import { fromCallback } from 'xstate'
import type { SocialPopupCommand, SocialPopupEvent, SocialPopupInput } from '../machines/frame'
import {
  CommandPayloads,
  FRAME_PROTOCOL_VERSION,
  type FrameCommand,
  type FrameReply,
  type FrameRequest,
  type FrameUser,
  SAFE_RPC_METHODS,
} from './protocol'
import {
  type FrameInbound,
  type FrameTransportCommand,
  type FrameTransportInput,
  replyRouter,
} from './transport'

/**
 * An in-memory login frame for machine tests and UI work without the sandbox: the frame side of the protocol
 * with its own rules (accounts, devices, one-time codes, sessions, signing that waits for the visitor). It
 * answers as a frame would, not as a test wants: a test drives the visitor's side (`approveDevice`,
 * `approve`, `decline`, reading the mailbox) and can make commands go unanswered (`silent`).
 */
export interface FakeFrameAccount {
  email: string
  /** Devices this account already trusts skip the e-mail device check. */
  trustedDevice: boolean
}

type Reply = FrameReply['payload']

const ok = (result?: unknown): Reply => (result === undefined ? { ok: true } : { ok: true, result })
const fail = (message: string, code?: number): Reply => ({
  ok: false,
  error: code === undefined ? { message } : { message, code },
})

/** A deterministic address per login, so tests can expect one. */
function addressOf(login: string, type: 'eoa' | 'smartAccount'): `0x${string}` {
  return `0x${hashOf(`${type}:${login}`).toString(16).padStart(8, '0').repeat(5)}`
}

function hashOf(text: string): number {
  let hash = 0x811c9dc5
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0
  return hash
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
/** The Solana chain this fake serves (the sandbox's id). */
export const FAKE_FRAME_SOLANA_CHAIN_ID = 'solana:Hq4dzz54z5Mz3UNbSXtqh2tF4zCBtKZx'

/**
 * A deterministic Solana address per login: 44 base58 characters that decode to 32 bytes (the first one, '2'..'5',
 * keeps the number below 2^256).
 */
export function solanaAddressOf(login: string): string {
  let hash = hashOf(`solana:${login}`)
  let text = BASE58[2 + (hash % 4)]!
  for (let i = 0; i < 43; i++) {
    hash = Math.imul(hash ^ i, 0x01000193) >>> 0
    text += BASE58[hash % 58]
  }
  return text
}

const onSolana = (chainId: string | number) => typeof chainId === 'string' && chainId.startsWith('solana:')

export class FakeFrame {
  /** Every request the kit posted, in order, with the origin it was posted to. */
  readonly posted: { request: FrameRequest; targetOrigin: string }[] = []
  /** Codes "e-mailed", newest last. */
  readonly mailbox: { to: string; code: string }[] = []
  /** Commands the frame never answers (to see timeouts). */
  readonly silent = new Set<FrameCommand>()
  /** Chains without smart accounts: `initSmartAccount` and `setPreferredAccount` to one are refused there. */
  readonly noSmartAccount = new Set<string | number>()
  /** Whether the frame announces itself when loaded. */
  announce = true
  /** How many iframes were opened and how many are open now. */
  opened = 0
  open = 0
  /** What the transport was told about showing the frame. */
  shownIn: Element | undefined
  showCount = 0

  private accounts = new Map<string, FakeFrameAccount>()
  private session: {
    login: string
    email?: string
    chainId: string | number
    type: 'eoa' | 'smartAccount'
  } | null = null
  private deliver: ((message: FrameInbound) => void) | undefined
  private waiting = new Map<string, { command: FrameCommand; detail?: string }>()
  private codeCounter = 0
  private pendingLogin: { email: string; code?: string } | undefined
  private pendingUpdate: { email: string; primary?: string; secondary?: string } | undefined

  constructor(accounts: FakeFrameAccount[] = []) {
    for (const account of accounts) this.accounts.set(account.email, account)
  }

  /** Logs someone in as if a session already existed in the frame (a returning visitor). */
  signIn(email: string) {
    this.session = { login: email, email, chainId: 1, type: 'smartAccount' }
  }

  get connected() {
    return this.session !== null
  }

  /** The transport for the machine's `transport` slot. */
  transport() {
    return fromCallback<FrameTransportCommand, FrameTransportInput, FrameInbound>(
      ({ input, sendBack, receive }) => {
        const targetOrigin = new URL(input.endpoint).origin
        this.opened += 1
        this.open += 1
        let alive = true
        const router = replyRouter(sendBack)
        this.deliver = (message) => {
          if (alive) queueMicrotask(() => alive && router.deliver(message))
        }
        if (this.announce) this.deliver({ type: 'frame.ready', payload: { version: FRAME_PROTOCOL_VERSION } })
        receive((command) => {
          if (command.type === 'transport.post') {
            this.posted.push({ request: command.request, targetOrigin })
            router.expect(command.request.id, command.replyTo)
            this.handle(command.request)
          } else if (command.type === 'transport.show') {
            this.shownIn = command.container
            this.showCount += 1
          } else {
            this.shownIn = undefined
          }
        })
        return () => {
          alive = false
          this.open -= 1
        }
      },
    )
  }

  /** Sends an event as the frame (e.g. `frame.originNotAllowed`). */
  send(message: FrameInbound) {
    this.deliver?.(message)
  }

  /** The last code mailed to `to`. */
  codeFor(to: string): string | undefined {
    return this.mailbox.filter((m) => m.to === to).at(-1)?.code
  }

  /** The visitor clicks the device-approval link in the e-mail. */
  approveDevice() {
    const id = this.waitingFor('connectDevice')
    if (!id || !this.pendingLogin) return
    this.accounts.set(this.pendingLogin.email, { email: this.pendingLogin.email, trustedDevice: true })
    this.pendingLogin.code = this.mail(this.pendingLogin.email)
    this.answer(id, ok())
  }

  /** The visitor approves in the Farcaster app. */
  approveFarcaster() {
    const id = this.waitingFor('connectFarcaster')
    if (!id) return
    this.session = { login: 'farcaster:alice', chainId: 1, type: 'smartAccount' }
    this.answer(id, ok())
  }

  /**
   * The visitor approves the signing request `id` in the shown frame. The frame answers at once, or, with
   * `{ later: true }`, only when {@link finish} is called (a transaction still on its way to the chain).
   */
  approve(id: string, options: { later?: boolean } = {}) {
    const waiting = this.waiting.get(id)
    if (waiting?.command !== 'rpcRequest') return
    this.send({ type: 'frame.approvalSettled', payload: { requestId: id, approved: true } })
    if (options.later) this.approved.add(id)
    else this.answer(id, ok(`0x${'5'.repeat(130)}`))
  }

  /** An approved request held with `approve(id, { later: true })` is done: the frame answers with its result. */
  finish(id: string, result: unknown = `0x${'5'.repeat(64)}`) {
    if (!this.approved.delete(id)) return
    this.answer(id, ok(result))
  }

  /** Approved requests still running (the real frame runs them to their end, whatever the kit asks). */
  private approved = new Set<string>()

  /** The visitor declines: EIP-1193 4001, with no text of its own. */
  decline(id: string) {
    const waiting = this.waiting.get(id)
    if (waiting?.command !== 'rpcRequest') return
    this.send({ type: 'frame.approvalSettled', payload: { requestId: id, approved: false } })
    this.answer(id, fail('', 4001))
  }

  /** Ids of the requests the frame holds, waiting for the visitor. */
  get held(): string[] {
    return [...this.waiting.keys()]
  }

  user(): FrameUser | undefined {
    const s = this.session
    if (!s) return undefined
    if (onSolana(s.chainId)) {
      const address = solanaAddressOf(s.login)
      return {
        ...(s.email ? { email: s.email } : {}),
        address,
        chainId: s.chainId,
        accounts: [{ address, type: 'eoa' }],
        preferredAccountType: 'eoa',
      }
    }
    return {
      ...(s.email ? { email: s.email } : {}),
      address: addressOf(s.login, s.type),
      chainId: s.chainId,
      accounts: [
        { address: addressOf(s.login, 'eoa'), type: 'eoa' },
        { address: addressOf(s.login, 'smartAccount'), type: 'smartAccount' },
      ],
      preferredAccountType: s.type,
      smartAccountDeployed: false,
    }
  }

  private waitingFor(command: FrameCommand): string | undefined {
    for (const [id, waiting] of this.waiting) if (waiting.command === command) return id
    return undefined
  }

  private mail(to: string): string {
    this.codeCounter += 1
    const code = String(100_000 + ((this.codeCounter * 7919) % 900_000))
    this.mailbox.push({ to, code })
    return code
  }

  private answer(id: string, payload: Reply) {
    this.waiting.delete(id)
    this.deliver?.({ id, type: 'frame.reply', payload })
  }

  private hold(id: string, command: FrameCommand, detail?: string) {
    this.waiting.set(id, detail === undefined ? { command } : { command, detail })
  }

  private handle(request: FrameRequest) {
    const { id, type } = request
    if (this.silent.has(type)) return
    const payload = v.safeParse(CommandPayloads[type], request.payload ?? {})
    if (!payload.success) return this.answer(id, fail(payload.issues[0]?.message ?? 'Invalid payload'))
    const body = payload.output as Record<string, unknown>
    switch (type) {
      case 'connectEmail': {
        const email = String(body.email)
        if (this.session?.email === email) return this.answer(id, ok({ action: 'CONNECT' }))
        this.pendingLogin = { email }
        if (!this.accounts.get(email)?.trustedDevice) return this.answer(id, ok({ action: 'VERIFY_DEVICE' }))
        this.pendingLogin.code = this.mail(email)
        return this.answer(id, ok({ action: 'VERIFY_OTP' }))
      }
      case 'connectDevice':
        return this.hold(id, type)
      case 'connectOtp': {
        const login = this.pendingLogin
        if (!login?.code || body.otp !== login.code) return this.answer(id, fail('Invalid one-time code'))
        this.session = { login: login.email, email: login.email, chainId: 1, type: 'smartAccount' }
        this.pendingLogin = undefined
        return this.answer(id, ok())
      }
      case 'getSocialRedirectUri':
        return this.answer(id, ok({ uri: `https://id.example/authorize?provider=${String(body.provider)}` }))
      case 'connectSocial': {
        const provider = new URL(String(body.uri)).searchParams.get('provider')
        if (!provider) return this.answer(id, fail('The provider did not sign the visitor in'))
        this.session = { login: `${provider}:alice`, chainId: 1, type: 'smartAccount' }
        return this.answer(id, ok())
      }
      case 'getFarcasterUri':
        return this.answer(id, ok({ url: 'https://farcaster.example/~/siwf?channel=abc' }))
      case 'connectFarcaster':
        return this.hold(id, type)
      case 'getUser': {
        const user = this.user()
        if (!user) return this.answer(id, fail('Not signed in'))
        if (body.chainId !== undefined && this.session) this.session.chainId = body.chainId as string | number
        return this.answer(id, ok(this.user()))
      }
      case 'isConnected':
        return this.answer(id, ok({ isConnected: this.session !== null }))
      case 'getChainId':
        return this.answer(id, ok({ chainId: this.session?.chainId ?? 1 }))
      case 'signOut':
        this.session = null
        return this.answer(id, ok())
      case 'switchNetwork': {
        if (!this.session) return this.answer(id, fail('Not signed in'))
        const chainId = body.chainId as string | number
        // Solana: only the chain this fake serves; the answer carries the base58 address, as the secure site's.
        if (onSolana(chainId) && chainId !== FAKE_FRAME_SOLANA_CHAIN_ID)
          return this.answer(id, fail('Chain is not supported', 4902))
        this.session.chainId = chainId
        return this.answer(id, ok({ chainId, address: this.user()!.address }))
      }
      case 'setPreferredAccount':
        if (!this.session) return this.answer(id, fail('Not signed in'))
        if (body.type === 'smartAccount' && this.noSmartAccount.has(this.session.chainId))
          return this.answer(id, fail('Smart accounts are not enabled on this network'))
        this.session.type = body.type as 'eoa' | 'smartAccount'
        return this.answer(id, ok())
      case 'updateEmail': {
        if (!this.session?.email) return this.answer(id, fail('Action not allowed'))
        const code = this.mail(this.session.email)
        this.pendingUpdate = { email: String(body.email), primary: code }
        return this.answer(id, ok({ action: 'VERIFY_PRIMARY_OTP' }))
      }
      case 'updateEmailPrimaryOtp': {
        const update = this.pendingUpdate
        if (!update || body.otp !== update.primary) return this.answer(id, fail('Invalid one-time code'))
        update.secondary = this.mail(update.email)
        return this.answer(id, ok())
      }
      case 'updateEmailSecondaryOtp': {
        const update = this.pendingUpdate
        if (!update?.secondary || body.otp !== update.secondary || !this.session) {
          return this.answer(id, fail('Invalid one-time code'))
        }
        this.session.email = update.email
        this.pendingUpdate = undefined
        return this.answer(id, ok())
      }
      case 'rpcRequest': {
        if (!this.session) return this.answer(id, fail('Action not allowed', 4100))
        const method = String(body.method)
        if ((SAFE_RPC_METHODS as readonly string[]).includes(method)) {
          const user = this.user()!
          if (method === 'eth_accounts') return this.answer(id, ok([user.address]))
          if (method === 'eth_chainId') return this.answer(id, ok(`0x${Number(user.chainId).toString(16)}`))
          return this.answer(id, ok(null))
        }
        const solanaMethod = method.startsWith('solana_')
        if (
          solanaMethod !==
          onSolana(body.chainId === undefined ? this.session.chainId : (body.chainId as string))
        )
          return this.answer(id, fail(`${method} is not available on this chain`, 4200))
        if (
          [
            'personal_sign',
            'eth_signTypedData_v4',
            'eth_sendTransaction',
            'solana_signMessage',
            'solana_signTransaction',
            'solana_signAndSendTransaction',
          ].includes(method)
        ) {
          this.hold(id, type, method)
          return this.send({ type: 'frame.approvalNeeded', payload: { requestId: id, method } })
        }
        return this.answer(id, fail('Requested RPC call is not allowed', 4200))
      }
      case 'rejectRpcRequests': {
        for (const [heldId, waiting] of [...this.waiting]) {
          if (waiting.command === 'rpcRequest' && !this.approved.has(heldId))
            this.answer(heldId, fail('Request was aborted', 4001))
        }
        return this.answer(id, ok())
      }
      case 'initSmartAccount': {
        const s = this.session
        if (!s || onSolana(s.chainId)) return this.answer(id, fail('Not signed in'))
        if (this.noSmartAccount.has(s.chainId))
          return this.answer(id, fail('Smart accounts are not enabled on this network'))
        return this.answer(id, ok({ address: addressOf(s.login, 'smartAccount'), isDeployed: false }))
      }
      case 'syncTheme':
      case 'syncDappData':
        return this.answer(id, ok())
      case 'reload':
        // As the secure site's frame: it answers, reloads (dropping what it waited on) and announces itself again.
        this.answer(id, ok())
        if (this.announce)
          this.deliver?.({ type: 'frame.ready', payload: { version: FRAME_PROTOCOL_VERSION } })
        return
    }
  }
}

/**
 * A stand-in popup for the `socialPopup` slot: records where it was sent, and lets a test play the visitor
 * (finish at the provider, or close the popup).
 */
export class FakeSocialPopup {
  started: SocialPopupInput[] = []
  navigatedTo: string[] = []
  open = false
  blocked = false
  private sendBack: ((event: SocialPopupEvent) => void) | undefined

  logic() {
    return fromCallback<SocialPopupCommand, SocialPopupInput, SocialPopupEvent>(
      ({ input, sendBack, receive }) => {
        this.started.push(input)
        if (this.blocked) {
          sendBack({ type: 'frame.socialCancelled', reason: 'blocked' })
          return () => {}
        }
        this.open = true
        this.sendBack = sendBack
        receive((command) => this.navigatedTo.push(command.uri))
        return () => {
          this.open = false
          this.sendBack = undefined
        }
      },
    )
  }

  /** The provider sent the visitor back: the secure site's page posts the result URI. */
  finish() {
    const uri = this.navigatedTo.at(-1)
    if (uri) this.sendBack?.({ type: 'frame.socialCallback', uri })
  }

  close() {
    this.sendBack?.({ type: 'frame.socialCancelled', reason: 'closed' })
  }
}
