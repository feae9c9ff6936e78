import type { SignClient } from '@walletconnect/sign-client'

/*
 * Session lifetime on the WalletConnect wallet page (SPEC §4 "Extending a session resets its expiry", §7
 * wc_sessionExtend, wc_sessionPing). WalletConnect's client answers an app's extension and pings by itself; this
 * page says so in its status log, and offers what a test of the app's side needs:
 * - `?sessionExpiry=SECONDS` (5 to 3600): sessions this wallet approves expire after that long instead of the
 *   library's 7 days (the settlement carries the short expiry, and the wallet keeps it for itself too), so the app
 *   has to extend them in time. An extension then gives the library's full lifetime, as the protocol says.
 * - "Answer pings" (a switch, `?pings=off` to start with it off): off, the wallet ignores the app's pings, as a
 *   wallet that stopped answering would.
 * Both reach into the client's engine: the library has no option for either (a sandbox wallet only).
 */

type Client = InstanceType<typeof SignClient>

/** The engine's own steps this page wraps (not in the library's public types). */
interface EngineSteps {
  sendApproveSession(params: {
    sessionTopic: string
    sessionSettleRequest: { expiry: number }
    [key: string]: unknown
  }): Promise<void>
  setExpiry(topic: string, expiry: number): Promise<void>
  onSessionPingRequest(topic: string, payload: unknown): Promise<void>
}

const EXPIRY_MIN_S = 5
const EXPIRY_MAX_S = 3_600

/** `?sessionExpiry=` as whole seconds within bounds, or undefined (the library's lifetime). */
export function sessionExpiryOf(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value)) return undefined
  const seconds = Number(value)
  return seconds >= EXPIRY_MIN_S && seconds <= EXPIRY_MAX_S ? seconds : undefined
}

export function setUpLifetime(client: Client, params: URLSearchParams, status: (text: string) => void): void {
  const engine = (client as unknown as { engine: EngineSteps }).engine
  const expirySeconds = sessionExpiryOf(params.get('sessionExpiry'))

  if (expirySeconds !== undefined) {
    /** Sessions being approved, with the expiry (epoch s) they settle with. */
    const short = new Map<string, number>()
    const sendApproveSession = engine.sendApproveSession
    engine.sendApproveSession = (approval) => {
      const expiry = Math.floor(Date.now() / 1000) + expirySeconds
      short.set(approval.sessionTopic, expiry)
      return sendApproveSession({
        ...approval,
        sessionSettleRequest: { ...approval.sessionSettleRequest, expiry },
      })
    }
    // The approval ends by setting the wallet's own expiry: the short one, once.
    const setExpiry = engine.setExpiry
    engine.setExpiry = (topic, expiry) => {
      const own = short.get(topic)
      short.delete(topic)
      return setExpiry(topic, own ?? expiry)
    }
  }

  let answering = params.get('pings') !== 'off'
  const onSessionPingRequest = engine.onSessionPingRequest
  engine.onSessionPingRequest = (topic, payload) => {
    if (answering) return onSessionPingRequest(topic, payload)
    status('Ignored a ping from the app (answering pings is off)')
    return Promise.resolve()
  }
  client.on('session_ping', () => status('Answered a ping from the app'))
  client.on('session_extend', () => status('The app extended the session'))

  // The switch, and what this page does to sessions' lifetimes.
  const section = document.createElement('section')
  section.setAttribute('aria-labelledby', 'lifetime-heading')
  const heading = document.createElement('h2')
  heading.id = 'lifetime-heading'
  heading.textContent = 'Session lifetime'
  const note = document.createElement('p')
  note.className = 'muted'
  note.textContent =
    expirySeconds === undefined
      ? 'Sessions approved here last as long as WalletConnect says (7 days), and each extension as long.'
      : `Sessions approved here expire after ${expirySeconds} s unless the app extends them.`
  const label = document.createElement('label')
  const checkbox = document.createElement('input')
  checkbox.type = 'checkbox'
  checkbox.checked = answering
  checkbox.style.flex = '0'
  checkbox.style.minHeight = 'auto'
  checkbox.addEventListener('change', () => {
    answering = checkbox.checked
    status(answering ? 'Answering pings again' : 'Stopped answering pings')
  })
  label.append(checkbox, ' Answer pings')
  section.append(heading, note, label)
  const sessions = document.querySelector('section[aria-labelledby="sessions-heading"]')
  sessions?.before(section)
  if (expirySeconds !== undefined) status(`Sessions approved here expire after ${expirySeconds} s`)
  if (!answering) status('Not answering pings')
}
