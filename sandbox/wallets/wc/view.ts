import type { Fact } from './wallet.ts'

/*
 * The wallet page's DOM: small builders, no state. main.ts decides what is shown from the machine's snapshot and
 * rebuilds a part only when what it shows changed, so focus and a half-done click survive unrelated updates.
 */

const STATUS_LINES_KEPT = 50

export function byId<T extends HTMLElement>(id: string): T {
  const node = document.getElementById(id)
  if (!node) throw new Error(`#${id} is missing from the page`)
  return node as T
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string) {
  const node = document.createElement(tag)
  if (text !== undefined) node.textContent = text
  if (className) node.className = className
  return node
}

function button(text: string, onClick: () => void, className?: string): HTMLButtonElement {
  const node = el('button', text, className)
  node.type = 'button'
  node.addEventListener('click', onClick)
  return node
}

function factList(facts: Fact[]): HTMLDListElement {
  const list = el('dl')
  for (const { label, value } of facts) list.append(el('dt', label), el('dd', value))
  return list
}

/** Appends a line to the status log (`role="log"`), keeping the last few. */
export function logLine(log: HTMLElement, text: string): void {
  const line = el('li', text)
  log.append(line)
  while (log.children.length > STATUS_LINES_KEPT) log.firstElementChild?.remove()
  line.scrollIntoView({ block: 'nearest' })
}

/** Shows `text` in an alert element, or hides it. */
export function setAlert(node: HTMLElement, text: string | undefined): void {
  node.textContent = text ?? ''
  node.hidden = text === undefined
}

/** One proposal, sign-in or request the person decides on. */
export interface Card {
  /** The region's name: "Session proposal", "Signature request", … */
  heading: string
  facts: Fact[]
  note?: string
  detail?: { label: string; text: string }
  /** A failure of the last decision (the library's), shown with the card. */
  error?: string
  /** Approve and Reject are off while the decision is being carried out. */
  busy: boolean
  /** How many more wait behind this one. */
  more: number
  onApprove(): void
  onReject(): void
}

/** Fills the pending section with one card (or hides it). */
export function renderCard(section: HTMLElement, card: Card | undefined): void {
  section.replaceChildren()
  section.hidden = card === undefined
  if (!card) return
  const heading = el('h2', card.heading)
  heading.id = 'pending-heading'
  section.append(heading, factList(card.facts))
  if (card.note) section.append(el('p', card.note, 'note'))
  if (card.detail) {
    const detail = el('pre', card.detail.text)
    detail.tabIndex = 0
    detail.setAttribute('aria-label', card.detail.label)
    section.append(detail)
  }
  if (card.error) {
    const error = el('p', card.error, 'error')
    error.setAttribute('role', 'alert')
    section.append(error)
  }
  const reject = button('Reject', card.onReject)
  const approve = button('Approve', card.onApprove, 'primary')
  reject.disabled = card.busy
  approve.disabled = card.busy
  section.setAttribute('aria-busy', String(card.busy))
  const actions = el('div', undefined, 'actions')
  actions.append(reject, approve)
  section.append(actions)
  if (card.more > 0) section.append(el('p', `${card.more} more waiting`, 'muted'))
}

/** One session as the list shows it. */
export interface SessionRow {
  topic: string
  peer: string
  url: string
  expiry: number
  state: 'settling' | 'active' | 'disconnecting'
  error?: string
  onDisconnect(): void
}

/** `3f9a1c…e07b`: enough of a topic to tell sessions apart. */
export const shortTopic = (topic: string) => `${topic.slice(0, 6)}…${topic.slice(-4)}`

/** `2025-01-31 14:05 UTC`: the same on every machine. */
const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`

const STATE_TEXT: Record<SessionRow['state'], string> = {
  settling: 'Settling…',
  active: 'Active',
  disconnecting: 'Disconnecting…',
}

export function renderSessions(list: HTMLUListElement, empty: HTMLElement, rows: SessionRow[]): void {
  list.replaceChildren()
  empty.hidden = rows.length > 0
  for (const row of rows) {
    const item = el('li')
    item.dataset.topic = row.topic
    item.dataset.state = row.state
    const text = el('div')
    const name = el('p', row.peer)
    const facts = el('p', undefined, 'muted facts')
    facts.id = `session-${row.topic}`
    const topic = el('code', shortTopic(row.topic))
    topic.title = row.topic
    const expiry = el('time', `expires ${utc(row.expiry)}`)
    expiry.dateTime = new Date(row.expiry).toISOString()
    facts.append(`${STATE_TEXT[row.state]} · topic `, topic, ' · ', expiry)
    text.append(name, el('p', row.url, 'muted'), facts)
    if (row.error) {
      const error = el('p', row.error, 'error')
      error.setAttribute('role', 'alert')
      text.append(error)
    }
    const disconnect = button('Disconnect', row.onDisconnect)
    // One button per session: its name says which (the label starts with the visible text).
    disconnect.setAttribute('aria-label', `Disconnect ${row.peer}`)
    disconnect.setAttribute('aria-describedby', facts.id)
    disconnect.disabled = row.state === 'disconnecting'
    item.append(text, disconnect)
    list.append(item)
  }
}
