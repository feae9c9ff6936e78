/*
 * The injected dev wallets' approve/reject prompt (the EIP-6963 wallet and the Wallet Standard Solana one). It
 * lives in an open shadow root (the host page's CSS cannot reach it, and people and Playwright can) and is a
 * modal <dialog>: showModal() puts it in the top layer, above the host page's own modal, and makes the rest of
 * the page inert while it asks. Each wallet has its own prompter, named after it.
 */

export interface PromptLine {
  label: string
  value: string
}

export interface PromptRequest {
  /** What is asked, e.g. "Signature request". */
  title: string
  /** One sentence on who asks for what. */
  intro: string
  lines: PromptLine[]
  /** A long text the person should read before approving (the message, the typed data). */
  detail?: { label: string; text: string }
}

export interface Prompter {
  /** Shows the prompt and resolves true on Approve, false on Reject or Escape. Prompts queue up. */
  ask(request: PromptRequest): Promise<boolean>
  /** How many prompts are shown or waiting. */
  readonly pending: number
}

const STYLE = `
:host { all: initial; }
dialog {
  box-sizing: border-box; width: min(380px, calc(100vw - 24px)); max-height: calc(100vh - 24px);
  margin: 12px 12px auto auto; padding: 0; overflow: auto;
  border: 1px solid #3a3656; border-radius: 16px; background: #17151f; color: #ecebf3;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; box-shadow: 0 18px 60px rgb(0 0 0 / 0.55);
}
dialog::backdrop { background: rgb(8 7 14 / 0.45); }
.body { padding: 16px 18px 18px; }
header { display: flex; align-items: center; gap: 10px; padding: 12px 18px; border-bottom: 1px solid #2b2840;
  font-weight: 600; }
header img { width: 28px; height: 28px; }
h2 { margin: 0 0 6px; font-size: 17px; }
p { margin: 0 0 12px; color: #c4c1d6; overflow-wrap: anywhere; }
dl { display: grid; grid-template-columns: auto 1fr; gap: 4px 12px; margin: 0 0 12px; }
dt { color: #9d99b5; }
dd { margin: 0; overflow-wrap: anywhere; font-family: ui-monospace, monospace; font-size: 13px; }
pre { margin: 0 0 14px; padding: 10px; max-height: 220px; overflow: auto; white-space: pre-wrap;
  overflow-wrap: anywhere; background: #0f0e15; border-radius: 10px; font-size: 13px; }
pre:focus-visible, button:focus-visible { outline: 2px solid #9f8cff; outline-offset: 2px; }
.actions { display: flex; gap: 10px; }
button { flex: 1; min-height: 40px; border-radius: 12px; border: 1px solid #3a3656; font: inherit;
  font-weight: 600; cursor: pointer; }
.reject { background: #24212f; color: #ecebf3; }
.approve { background: #7c5cff; border-color: #7c5cff; color: #fff; }
`

/** Creates the prompt UI lazily: nothing is added to the host page until the first prompt. */
export function createPrompter(options: { name: string; icon: string }): Prompter {
  let shadow: ShadowRoot | undefined
  let host: HTMLElement | undefined
  let tail: Promise<unknown> = Promise.resolve()
  let pending = 0

  function mount(): ShadowRoot {
    if (!host || !shadow) {
      host = document.createElement('div')
      host.setAttribute('data-walletstate-dev-wallet', '')
      shadow = host.attachShadow({ mode: 'open' })
      const sheet = new CSSStyleSheet()
      sheet.replaceSync(STYLE)
      shadow.adoptedStyleSheets = [sheet]
    }
    // The host app may have re-rendered <body>; the prompt must still be in the document to show.
    if (!host.isConnected) (document.body ?? document.documentElement).append(host)
    return shadow
  }

  function show(request: PromptRequest): Promise<boolean> {
    const root = mount()
    const el = <K extends keyof HTMLElementTagNameMap>(tag: K, text?: string) => {
      const node = document.createElement(tag)
      if (text !== undefined) node.textContent = text
      return node
    }

    const dialog = el('dialog')
    dialog.setAttribute('aria-label', options.name)
    dialog.setAttribute('aria-describedby', 'wsdw-title wsdw-intro')

    const header = el('header')
    const icon = el('img')
    icon.src = options.icon
    icon.alt = ''
    header.append(icon, el('span', options.name))

    const body = el('div')
    body.className = 'body'
    const title = el('h2', request.title)
    title.id = 'wsdw-title'
    const intro = el('p', request.intro)
    intro.id = 'wsdw-intro'
    body.append(title, intro)
    if (request.lines.length > 0) {
      const list = el('dl')
      for (const line of request.lines) list.append(el('dt', line.label), el('dd', line.value))
      body.append(list)
    }
    if (request.detail) {
      const detail = el('pre', request.detail.text)
      detail.tabIndex = 0
      detail.setAttribute('aria-label', request.detail.label)
      body.append(detail)
    }
    const actions = el('div')
    actions.className = 'actions'
    const reject = el('button', 'Reject')
    reject.type = 'button'
    reject.className = 'reject'
    const approve = el('button', 'Approve')
    approve.type = 'button'
    approve.className = 'approve'
    actions.append(reject, approve)
    body.append(actions)
    dialog.append(header, body)
    root.append(dialog)

    return new Promise<boolean>((resolve) => {
      let answered = false
      const answer = (approved: boolean) => {
        if (answered) return
        answered = true
        if (dialog.open) dialog.close()
        dialog.remove()
        resolve(approved)
      }
      approve.addEventListener('click', () => answer(true))
      reject.addEventListener('click', () => answer(false))
      // Escape is a refusal, as in any wallet; a dialog closed some other way is one too.
      dialog.addEventListener('cancel', (event) => {
        event.preventDefault()
        answer(false)
      })
      dialog.addEventListener('close', () => answer(false))
      dialog.showModal()
      // Focus starts on Reject so a stray Enter never approves.
      reject.focus()
    })
  }

  return {
    ask(request) {
      pending += 1
      const run = tail
        .then(() => show(request))
        .finally(() => {
          pending -= 1
        })
      tail = run.catch(() => undefined)
      return run
    },
    get pending() {
      return pending
    },
  }
}
