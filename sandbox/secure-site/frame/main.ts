/*
 * The login frame ("secure site") page: the other side of the kit's frame protocol (src/frame/protocol.ts).
 * It runs on the secure site's own origin inside the kit's hidden iframe. It answers only its parent window,
 * and only when the parent's origin and every page around it (`location.ancestorOrigins`) are on the project's
 * allowed origins; everything that needs a secret (codes, sessions, wallet keys) happens on its own server,
 * which it reaches same-origin with a session token kept in this origin's storage. Signing calls wait for the
 * visitor's Approve or Decline, shown in this page with the checked origin that asks (never the name the app
 * gives itself); Approve works only while the page is fully visible (nothing over it, no transparency).
 *
 * It serves two chains: the site's EVM chain and, when the site has one, its Solana chain (`switchNetwork` with
 * the Solana CAIP-2 id). Users, `switchNetwork` and `getChainId` answer for the current one; on Solana the user's
 * address is the account's base58 Solana address (an EOA, SPEC §4), and `rpcRequest` takes
 * `solana_signMessage`, `solana_signTransaction` and `solana_signAndSendTransaction` (params `[{ ... }]`).
 */
import * as v from 'valibot'
import {
  type CommandPayload,
  CommandPayloads,
  FRAME_PROTOCOL_VERSION,
  type FrameEvent,
  type FrameReply,
  type FrameUser,
  SAFE_RPC_METHODS,
  SIGNING_METHODS,
} from '../../../src/frame/protocol.ts'
import {
  type AccountView,
  type ApiAnswer,
  ApiAnswers,
  type ApiBody,
  ApiErrorSchema,
  type ApiPath,
  EVM_BATCH_METHODS,
  EVM_BATCH_READ_METHODS,
  EVM_PERMISSION_METHODS,
  evmChainNumber,
  SOLANA_SIGNING_METHODS,
  solanaChainId,
} from '../shared.ts'
import { createFrameHandler, type FrameCommands, FrameError } from './handler.ts'

/** How long connectDevice and connectFarcaster wait for the visitor (the server's sign-in lifetime). */
const VISITOR_WAIT_MS = 10 * 60_000
const POLL_MS = 700
const API_TIMEOUT_MS = 40_000

const params = new URLSearchParams(location.search)
const projectId = params.get('projectId') ?? ''
const sdkVersion = params.get('version') ?? ''
const logging = params.get('enableLogger') === 'true'

function log(...args: unknown[]): void {
  if (logging) console.info('[secure-site]', ...args)
}

// --- storage of this origin (never the app's) ------------------------------------------------------------

/** Storage may be unavailable (blocked third-party storage): fall back to memory for this page's life. */
function store(area: 'local' | 'session') {
  const memory = new Map<string, string>()
  const backend = (): Storage | undefined => {
    try {
      return area === 'local' ? window.localStorage : window.sessionStorage
    } catch {
      return undefined
    }
  }
  return {
    get(key: string): string | undefined {
      try {
        return backend()?.getItem(key) ?? memory.get(key)
      } catch {
        return memory.get(key)
      }
    },
    set(key: string, value: string | undefined): void {
      if (value === undefined) memory.delete(key)
      else memory.set(key, value)
      try {
        if (value === undefined) backend()?.removeItem(key)
        else backend()?.setItem(key, value)
      } catch {
        // memory keeps it for this page's life
      }
    },
  }
}
const local = store('local')
const session = store('session')
const key = (name: string) => `walletstate-secure:${projectId}:${name}`

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24))
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

const deviceId = (() => {
  const existing = local.get('walletstate-secure:device')
  if (existing && /^[\w-]{16,128}$/.test(existing)) return existing
  const created = randomId()
  local.set('walletstate-secure:device', created)
  return created
})()

let sessionToken = local.get(key('session'))
function setSession(token: string | undefined): void {
  sessionToken = token
  local.set(key('session'), token)
}

// --- state -----------------------------------------------------------------------------------------------

let parentOrigin = ''
/** The top-level page's origin, when the parent is itself framed (checked like the parent). */
let topOrigin: string | undefined
/** The EVM chain the server serves (the only EVM one it can sign for). */
let siteChainId = 0
/** Further EVM chains the server serves, with the EOA only (no smart account there). */
let siteMoreChainIds: number[] = []
/** The Solana chain the server serves (CAIP-2), when it serves one. */
let siteSolanaChainId: string | undefined
/** The current chain: an EVM chain number, or the Solana CAIP-2 id. */
let chainId: number | string | undefined
let pendingLogin: { loginId: string } | undefined
let pendingFarcaster: { channel: string } | undefined
let dappData: CommandPayload<'syncDappData'> | undefined

// --- the server ------------------------------------------------------------------------------------------

async function api<P extends ApiPath>(
  path: P,
  body: ApiBody<P>,
  token = sessionToken,
): Promise<ApiAnswer<P>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (token) headers.authorization = `Bearer ${token}`
  let response: Response
  try {
    response = await fetch(path, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      credentials: 'omit',
      signal: AbortSignal.timeout(API_TIMEOUT_MS),
    })
  } catch {
    throw new FrameError('The secure site could not be reached')
  }
  const json: unknown = await response.json().catch(() => undefined)
  if (!response.ok) {
    const error = v.safeParse(ApiErrorSchema, json)
    if (response.status === 401 && token === sessionToken) setSession(undefined)
    throw new FrameError(
      error.success ? error.output.error : `The secure site answered HTTP ${response.status}`,
      error.success ? error.output.code : undefined,
    )
  }
  const schema = ApiAnswers[path] as v.GenericSchema<unknown, ApiAnswer<P>>
  const parsed = v.safeParse(schema, json)
  if (!parsed.success) throw new FrameError('The secure site answered in an unexpected shape')
  return parsed.output
}

function requireSession(): void {
  if (!sessionToken) throw new FrameError('Not signed in', 4100)
}

function adoptSession(token: string): void {
  const previous = sessionToken
  setSession(token)
  if (previous && previous !== token) void api('/api/signout', {}, previous).catch(() => undefined)
}

const currentChain = (): number | string => chainId ?? siteChainId

/**
 * The chain a SPEC §3 chain id names when this site serves it: the EVM chain number, or the Solana CAIP-2 id;
 * `undefined` for any other.
 */
function servedChain(requested: number | string): number | string | undefined {
  const solana = solanaChainId(requested)
  if (solana !== undefined) return solana === siteSolanaChainId ? solana : undefined
  const chain = evmChainNumber(requested)
  return chain !== undefined && (chain === siteChainId || siteMoreChainIds.includes(chain))
    ? chain
    : undefined
}

/** Whether the site has the smart-account stack on this EVM chain (its first one only). */
const smartAccountsOn = (chain: number | string): boolean => evmChainNumber(chain) === siteChainId

/** Whether a served chain (as {@link servedChain} answers it) is the Solana one. */
const onSolana = (chain: number | string): chain is string => typeof chain === 'string'

/**
 * SPEC §3 user for a chain (default the current one). On eip155 `address` is the preferred account's and both
 * accounts are listed; on Solana it is the account's Solana address, its only account (an EOA, SPEC §4).
 */
function frameUser(account: AccountView, forChain?: number | string): FrameUser {
  const chain = forChain ?? currentChain()
  const solana = solanaChainId(chain)
  if (solana !== undefined && solana === siteSolanaChainId) {
    return {
      ...(account.email ? { email: account.email } : {}),
      address: account.solana,
      chainId: solana,
      accounts: [{ address: account.solana, type: 'eoa' }],
      ...(account.userName ? { userName: account.userName } : {}),
      preferredAccountType: 'eoa',
    }
  }
  const evmChain = evmChainNumber(chain)
  if (evmChain !== undefined && siteMoreChainIds.includes(evmChain)) {
    // No smart account on this chain: the EOA is the account, and the type shown; asking for the smart account
    // here is refused with SPEC §8's text (setPreferredAccount below), the account's own preference kept.
    return {
      ...(account.email ? { email: account.email } : {}),
      address: account.eoa,
      chainId: chain,
      accounts: [{ address: account.eoa, type: 'eoa' }],
      ...(account.userName ? { userName: account.userName } : {}),
      preferredAccountType: 'eoa',
    }
  }
  return {
    ...(account.email ? { email: account.email } : {}),
    address: account.preferredAccountType === 'eoa' ? account.eoa : account.smartAccount,
    chainId: chain,
    accounts: [
      { address: account.eoa, type: 'eoa' },
      { address: account.smartAccount, type: 'smartAccount' },
    ],
    ...(account.userName ? { userName: account.userName } : {}),
    preferredAccountType: account.preferredAccountType,
    smartAccountDeployed: account.smartAccountDeployed,
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

// --- approvals (the only UI this page shows) -------------------------------------------------------------

interface Approval {
  requestId: string
  method: string
  summary: ApiAnswer<'/api/sign/prepare'>['summary']
  resolve(approved: boolean): void
  reject(error: FrameError): void
}
const queued: Approval[] = []
let current: Approval | undefined
/** Signing requests still being checked by the server, not yet shown: rejectRpcRequests aborts them too. */
const preparing = new Set<{ aborted: boolean }>()

const element = <T extends HTMLElement>(id: string): T => {
  const found = document.getElementById(id)
  if (!found) throw new Error(`#${id} missing from the frame page`)
  return found as T
}

function askApproval(requestId: string, method: string, summary: Approval['summary']): Promise<boolean> {
  return new Promise((resolve, reject) => {
    queued.push({ requestId, method, summary, resolve, reject })
    showNext()
  })
}

/**
 * Approve stays inert this long after an approval screen appears, and after the page became fully visible again,
 * so a double-click (or a click meant for what was there before, or for a layer just taken off the frame) cannot
 * approve a request nobody saw. Ours: longer than a double-click's second click, short enough not to
 * be noticed.
 */
const APPROVE_INERT_MS = 500
/**
 * How often the browser may report the approval screen's visibility (IntersectionObserver v2's `delay`):
 * Chromium's least for `trackVisibility`.
 */
const VISIBILITY_DELAY_MS = 100

/**
 * Whether the approval screen is fully visible: not covered by anything, not transparent, not filtered or
 * skewed, in the page or in any page around the frame (IntersectionObserver v2 `isVisible`). A page that lays
 * the frame under a transparent layer, or makes it transparent, to have the visitor click Approve unknowingly
 * (clickjacking) never gets Approve enabled. Browsers without IntersectionObserver v2 (`isVisible` unknown)
 * cannot tell: there Approve follows the inert delay alone, as before.
 */
const tracksVisibility =
  typeof IntersectionObserverEntry !== 'undefined' && 'isVisible' in IntersectionObserverEntry.prototype
/** Since when the approval screen has been fully visible (performance.now()); `undefined` while it is not. */
let visibleSince: number | undefined = tracksVisibility ? undefined : 0
let shownAt = 0
let approveTimer: ReturnType<typeof setTimeout> | undefined

/**
 * Approve is enabled only for a request on screen, once the screen has been up and fully visible for
 * APPROVE_INERT_MS; until then it is disabled and says why, and it is looked at again when that time is up.
 */
function updateApprove(): void {
  clearTimeout(approveTimer)
  approveTimer = undefined
  const approve = element<HTMLButtonElement>('approve')
  const covered = element('approval-covered')
  if (!current) {
    approve.disabled = true
    covered.hidden = true
    return
  }
  covered.hidden = visibleSince !== undefined
  const since = visibleSince === undefined ? undefined : Math.max(visibleSince, shownAt)
  const wait = since === undefined ? undefined : since + APPROVE_INERT_MS - performance.now()
  approve.disabled = wait === undefined || wait > 0
  if (wait !== undefined && wait > 0) approveTimer = setTimeout(updateApprove, wait)
}

/** Where the approval screen was on the page at the last report (top-level viewport coordinates). */
let lastPlace = ''

function watchVisibility(): void {
  if (!tracksVisibility) return
  const observer = new IntersectionObserver(
    (entries) => {
      const last = entries.at(-1) as (IntersectionObserverEntry & { isVisible?: boolean }) | undefined
      if (!last) return
      const visible = last.isIntersecting && last.isVisible === true
      // A frame that moved on the page counts as newly shown: Chromium itself drops clicks into a frame that has
      // just moved, and a click meant for what was at that place before must not land on Approve.
      const rect = last.boundingClientRect
      const place = `${rect.x},${rect.y},${rect.width},${rect.height}`
      const moved = place !== lastPlace
      lastPlace = place
      if (!visible) visibleSince = undefined
      else if (moved || visibleSince === undefined) visibleSince = performance.now()
      updateApprove()
    },
    // `trackVisibility` and `delay` are IntersectionObserver v2 (Chromium); TypeScript's DOM types lack them.
    { threshold: [0, 1], trackVisibility: true, delay: VISIBILITY_DELAY_MS } as IntersectionObserverInit,
  )
  observer.observe(element('approval'))
}

/** Who asks, as checked (the parent's origin, and the top page's when the parent is framed itself). */
function askingOrigin(): string {
  return topOrigin && topOrigin !== parentOrigin ? `${parentOrigin} (inside ${topOrigin})` : parentOrigin
}

function showNext(): void {
  if (current) return
  current = queued.shift()
  if (!current) return
  shownAt = performance.now()
  const { summary } = current
  element('approval-title').textContent = summary.title
  const who = summary.accountType === 'smartAccount' ? 'smart account' : 'account'
  // The checked origin, never the app's own name for itself (`syncDappData` says whatever the page likes).
  element('approval-from').textContent = `${askingOrigin()} asks you to use your ${who} ${summary.from}`
  const list = element<HTMLDListElement>('approval-details')
  list.replaceChildren()
  for (const detail of summary.details) {
    const term = document.createElement('dt')
    term.textContent = detail.label
    const value = document.createElement('dd')
    value.textContent = detail.value
    list.append(term, value)
  }
  element('status').hidden = true
  element('approval').hidden = false
  updateApprove()
  element<HTMLButtonElement>('decline').focus()
  post({ type: 'frame.approvalNeeded', payload: { requestId: current.requestId, method: current.method } })
}

function settle(approved: boolean): void {
  const approval = current
  if (!approval) return
  current = undefined
  hideApproval()
  post({ type: 'frame.approvalSettled', payload: { requestId: approval.requestId, approved } })
  approval.resolve(approved)
  showNext()
}

function hideApproval(): void {
  element('approval').hidden = true
  element('status').hidden = false
  updateApprove()
}

/** rejectRpcRequests and sign-out: every signing request still waiting for the visitor ends as aborted. */
function abortApprovals(): void {
  const aborted = () => new FrameError('Request was aborted')
  for (const ticket of preparing) ticket.aborted = true
  for (const approval of queued.splice(0)) approval.reject(aborted())
  const approval = current
  if (approval) {
    current = undefined
    hideApproval()
    post({ type: 'frame.approvalSettled', payload: { requestId: approval.requestId, approved: false } })
    approval.reject(aborted())
  }
}

// --- commands --------------------------------------------------------------------------------------------

// EIP-5792: a batch is approved as a signing request is; its status and the capabilities are reads.
const SIGNING: readonly string[] = [...SIGNING_METHODS, ...EVM_BATCH_METHODS, ...EVM_PERMISSION_METHODS]
const SOLANA_SIGNING: readonly string[] = SOLANA_SIGNING_METHODS
const SAFE: readonly string[] = [...SAFE_RPC_METHODS, ...EVM_BATCH_READ_METHODS]
let reloadAfterReply = false

const handlers: FrameCommands = {
  /** Answers the chain, and when signed in the user's address on it (base58 on Solana). */
  async switchNetwork({ chainId: requested }) {
    const chain = servedChain(requested)
    if (chain === undefined) throw new FrameError('Chain is not supported', 4902)
    chainId = chain
    if (!sessionToken) return { chainId: chain }
    const signedIn = await api('/api/session', {}).catch(() => undefined)
    if (!signedIn) return { chainId: chain }
    return { chainId: chain, address: frameUser(signedIn.account, chain).address }
  },

  async connectEmail({ email }) {
    if (sessionToken) {
      const signedIn = await api('/api/session', {}).catch(() => undefined)
      if (signedIn?.account.email === email.toLowerCase()) return { action: 'CONNECT' }
    }
    const answer = await api('/api/login/email', { email, deviceId })
    pendingLogin = { loginId: answer.loginId }
    return { action: answer.action }
  },

  async connectDevice() {
    const login = pendingLogin
    if (!login) throw new FrameError('No sign-in in progress: enter your e-mail first')
    const deadline = Date.now() + VISITOR_WAIT_MS
    for (;;) {
      if (pendingLogin !== login) throw new FrameError('The sign-in was cancelled')
      const { verified } = await api('/api/login/device', { loginId: login.loginId })
      if (verified) return { action: 'VERIFY_OTP' }
      if (Date.now() > deadline) throw new FrameError('The device was not approved in time: sign in again')
      await sleep(POLL_MS)
    }
  },

  async connectOtp({ otp }) {
    const login = pendingLogin
    if (!login) throw new FrameError('No sign-in in progress: enter your e-mail first')
    const answer = await api('/api/login/otp', { loginId: login.loginId, otp })
    if (pendingLogin === login) pendingLogin = undefined
    adoptSession(answer.token)
    return frameUser(answer.account)
  },

  async getSocialRedirectUri({ provider }) {
    const dappUrl = dappData?.metadata?.url
    let returnTo = `${parentOrigin}/`
    try {
      if (dappUrl && new URL(dappUrl).origin === parentOrigin) returnTo = new URL(dappUrl).toString()
    } catch {
      // not a URL: the app's origin is where the visitor returns
    }
    const answer = await api('/api/social/start', { provider, deviceId, projectId, sdkVersion, returnTo })
    // The sign-in page opens in the app's theme.
    if (!themeMode) return answer
    const uri = new URL(answer.uri)
    uri.searchParams.set('theme', themeMode)
    return { ...answer, uri: uri.toString() }
  },

  async connectSocial({ uri }) {
    const answer = await api('/api/social/finish', { uri, deviceId })
    adoptSession(answer.token)
    return frameUser(answer.account)
  },

  async getFarcasterUri() {
    const answer = await api('/api/farcaster/start', { deviceId })
    pendingFarcaster = { channel: answer.channel }
    return { url: answer.url }
  },

  async connectFarcaster() {
    const farcaster = pendingFarcaster
    if (!farcaster) throw new FrameError('No Farcaster sign-in in progress: ask for its URI first')
    const deadline = Date.now() + VISITOR_WAIT_MS
    for (;;) {
      if (pendingFarcaster !== farcaster) throw new FrameError('The sign-in was cancelled')
      const answer = await api('/api/farcaster/poll', { channel: farcaster.channel, deviceId })
      if (answer.done) {
        pendingFarcaster = undefined
        adoptSession(answer.token)
        return frameUser(answer.account)
      }
      if (Date.now() > deadline) throw new FrameError('The Farcaster sign-in was not completed in time')
      await sleep(POLL_MS)
    }
  },

  async getUser({ chainId: requested }) {
    requireSession()
    const { account } = await api('/api/session', {})
    return frameUser(account, requested)
  },

  async signOut() {
    abortApprovals()
    pendingLogin = undefined
    pendingFarcaster = undefined
    const token = sessionToken
    setSession(undefined)
    if (token) await api('/api/signout', {}, token).catch(() => undefined)
    return undefined
  },

  async isConnected() {
    if (!sessionToken) return { isConnected: false }
    try {
      await api('/api/session', {})
      return { isConnected: true }
    } catch (error) {
      if (!sessionToken) return { isConnected: false }
      throw error
    }
  },

  async getChainId() {
    return { chainId: currentChain() }
  },

  async initSmartAccount() {
    requireSession()
    if (!smartAccountsOn(currentChain())) {
      throw new FrameError('This application might not support Smart Accounts')
    }
    const { account } = await api('/api/session', {})
    return { address: account.smartAccount, isDeployed: account.smartAccountDeployed }
  },

  async setPreferredAccount({ type }) {
    requireSession()
    if (type === 'smartAccount' && !onSolana(currentChain()) && !smartAccountsOn(currentChain())) {
      throw new FrameError('This application might not support Smart Accounts')
    }
    const { account } = await api('/api/preferred-account', { type })
    return frameUser(account)
  },

  async rpcRequest({ method, params: rpcParams, chainId: requested }, id) {
    const solanaMethod = SOLANA_SIGNING.includes(method)
    const signing = solanaMethod || SIGNING.includes(method)
    if (!signing && !SAFE.includes(method)) throw new FrameError('Requested RPC call is not allowed', 4200)
    const chain = requested === undefined ? currentChain() : servedChain(requested)
    if (chain === undefined) throw new FrameError('Chain is not supported', 4902)
    if (solanaMethod !== onSolana(chain)) {
      const where = onSolana(chain) ? chain : `eip155:${chain}`
      throw new FrameError(`${method} is not available on ${where}`, 4200)
    }
    requireSession()
    if (!signing)
      return (await api('/api/rpc', { method, params: rpcParams, chainId: chain as number })).result
    const signingMethod = method as ApiBody<'/api/sign'>['method']
    const body = { method: signingMethod, params: rpcParams ?? [], chainId: chain }
    const ticket = { aborted: false }
    preparing.add(ticket)
    let summary: Approval['summary']
    try {
      summary = (await api('/api/sign/prepare', body)).summary
    } finally {
      preparing.delete(ticket)
    }
    if (ticket.aborted) throw new FrameError('Request was aborted')
    // Once approved, a request runs to its end: a transaction may already be on its way.
    const approved = await askApproval(id, method, summary)
    if (!approved) throw new FrameError('Signature declined', 4001)
    return (await api('/api/sign', body)).result
  },

  async updateEmail({ email }) {
    requireSession()
    return api('/api/email/update', { email })
  },

  async updateEmailPrimaryOtp({ otp }) {
    requireSession()
    return api('/api/email/primary', { otp })
  },

  async updateEmailSecondaryOtp({ otp }) {
    requireSession()
    const { newEmail } = await api('/api/email/secondary', { otp })
    return { newEmail }
  },

  async syncTheme(theme) {
    applyTheme(theme)
    local.set(key('theme'), JSON.stringify(theme))
    return undefined
  },

  async syncDappData(data) {
    dappData = data
    local.set(key('dapp'), JSON.stringify(data))
    return undefined
  },

  async reload() {
    // The chain survives the reload; the session does anyway (it is in this origin's storage).
    session.set(key('chain'), String(currentChain()))
    reloadAfterReply = true
    return undefined
  },

  async rejectRpcRequests() {
    abortApprovals()
    return undefined
  },
}

const CSS_COLOR = /^(#[0-9a-fA-F]{3,8}|rgba?\([\d\s.,%]+\)|hsla?\([\d\s.,%deg]+\))$/

/** The app's theme variables this page follows (the kit's names, and AppKit's), onto its own. */
const THEME_VARIABLES: Record<string, string> = {
  '--ws-accent': '--accent',
  '--w3m-accent': '--accent',
  '--ws-accent-contrast': '--accent-fg',
  '--ws-background': '--bg',
  '--ws-foreground': '--fg',
}

/** The theme the app sent last (`syncTheme`), for the social sign-in page it opens. */
let themeMode: CommandPayload<'syncTheme'>['themeMode'] | undefined

/**
 * The app's theme, replacing the one before: the mode (the page's light and dark sets), and the colours among
 * its variables that this page follows. Only plain colour values are written; anything else is skipped.
 */
function applyTheme(theme: CommandPayload<'syncTheme'>): void {
  const root = document.documentElement
  themeMode = theme.themeMode
  root.dataset.theme = theme.themeMode
  for (const own of new Set(Object.values(THEME_VARIABLES))) root.style.removeProperty(own)
  for (const [name, value] of Object.entries(theme.themeVariables ?? {})) {
    const own = Object.hasOwn(THEME_VARIABLES, name) ? THEME_VARIABLES[name] : undefined
    if (own && CSS_COLOR.test(value.trim())) root.style.setProperty(own, value.trim())
  }
}

// --- messaging -------------------------------------------------------------------------------------------

function post(message: FrameEvent | FrameReply): void {
  window.parent.postMessage(message, parentOrigin)
}

/** A reply goes out; a reload asked for happens once its reply (or any reply after it) is posted. */
function reply(message: FrameReply): void {
  post(message)
  if (reloadAfterReply) {
    reloadAfterReply = false
    setTimeout(() => location.reload(), 50)
  }
}

// --- start -----------------------------------------------------------------------------------------------

/**
 * The origins of every page around the frame, parent first: `location.ancestorOrigins` where the browser has
 * it. Elsewhere only the parent's is known (the referrer's origin), and only when the parent is the top page:
 * a parent that is framed itself could be laid out by a page nobody checked, so the frame refuses to start.
 * `undefined` when the frame is not embedded or the origins cannot be known.
 */
function frameAncestors(): string[] | undefined {
  if (window.parent === window) return undefined
  const listed = location.ancestorOrigins
  let origins: string[]
  if (listed && listed.length > 0) {
    origins = Array.from(listed)
  } else {
    if (window.parent !== window.top || !document.referrer) return undefined
    try {
      origins = [new URL(document.referrer).origin]
    } catch {
      return undefined
    }
  }
  return origins.every((origin) => origin !== '' && origin !== 'null') ? origins : undefined
}

function restore(): void {
  try {
    const theme = local.get(key('theme'))
    if (theme) {
      const parsed = v.safeParse(CommandPayloads.syncTheme, JSON.parse(theme))
      if (parsed.success) applyTheme(parsed.output)
    }
    const dapp = local.get(key('dapp'))
    if (dapp) {
      const parsed = v.safeParse(CommandPayloads.syncDappData, JSON.parse(dapp))
      if (parsed.success) dappData = parsed.output
    }
  } catch {
    // a damaged cache is only a cache
  }
}

async function start(): Promise<void> {
  const status = element('status')
  const ancestors = frameAncestors()
  const origin = ancestors?.[0]
  if (!ancestors || !origin) {
    status.textContent = 'This is the login frame of the Walletstate kit: it only works inside an app.'
    return
  }
  parentOrigin = origin
  topOrigin = ancestors.at(-1)
  let refused: string | undefined = origin
  try {
    const check = await api('/api/origin-check', { projectId, sdkVersion, origin, ancestors })
    refused = check.allowed ? undefined : (check.refused ?? origin)
    siteChainId = check.chainId
    siteSolanaChainId = check.solanaChainId
    siteMoreChainIds = check.moreChainIds ?? []
  } catch (error) {
    log('origin check failed', error)
  }
  if (refused !== undefined) {
    status.textContent =
      refused === origin
        ? `${origin} is not on this project's allowed origins.`
        : `${origin} is framed by ${refused}, which is not on this project's allowed origins.`
    post({ type: 'frame.originNotAllowed', payload: { origin: refused } })
    return
  }
  restore()
  const saved = session.get(key('chain'))
  session.set(key('chain'), undefined)
  const initial = saved ?? params.get('chainId') ?? ''
  // A Solana chain only when it is the one served; an EVM chain as asked (requests check it against the site's).
  chainId = solanaChainId(initial) === undefined ? evmChainNumber(initial) : servedChain(initial)
  element('approve').addEventListener('click', () => {
    // The button's state is the rule; a click that reaches it while it is disabled (a script) settles nothing.
    if (!element<HTMLButtonElement>('approve').disabled) settle(true)
  })
  watchVisibility()
  element('decline').addEventListener('click', () => settle(false))
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && current) settle(false)
  })
  const onMessage = createFrameHandler({
    parentOrigin: origin,
    parent: window.parent,
    reply,
    commands: handlers,
    log,
  })
  window.addEventListener('message', onMessage)
  status.textContent = 'Secure site ready.'
  post({ type: 'frame.ready', payload: { version: FRAME_PROTOCOL_VERSION } })
  log('ready for', origin)
}

void start()
