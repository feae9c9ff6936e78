import type { Mail } from './accounts.ts'

/** Escapes text for HTML bodies and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
}

/** Headers of the small server-rendered pages: no scripts at all, inline styles only. */
export const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'",
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
}

/**
 * The frame page's headers. No `frame-ancestors`: the page must load in any parent so that it can tell a
 * parent whose origin is not allowed (`frame.originNotAllowed`); the origin check is the frame's first act.
 */
export const FRAME_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'",
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
}

const STYLE = `
  :root { color-scheme: dark; --bg: #101017; --fg: #ecebf3; --muted: #9a98ad; --card: #1b1b26; --line: #2c2b3a;
    --accent: #8b7bff; --accent-fg: #fff; --link: #b7a8ff; --error: #ff8a8a; }
  :root[data-theme='light'] { color-scheme: light; --bg: #f6f6fa; --fg: #16151f; --muted: #5d5b6e; --card: #ffffff;
    --line: #d9d7e6; --accent: #5b45e0; --link: #4b36c9; --error: #b3261e; }
  * { box-sizing: border-box; }
  body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.5 system-ui, sans-serif; }
  main { max-width: 720px; margin: 0 auto; padding: 24px 16px; }
  h1 { font-size: 20px; margin: 0 0 12px; }
  a { color: var(--link); }
  code, pre { font: 13px/1.4 ui-monospace, monospace; overflow-wrap: anywhere; white-space: pre-wrap; }
  .card { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 16px; margin: 12px 0; }
  .muted { color: var(--muted); }
  label { display: block; margin: 12px 0 4px; }
  input { width: 100%; padding: 10px 12px; border-radius: 8px; border: 1px solid var(--line); background: var(--bg);
    color: var(--fg); font: inherit; }
  button { margin-top: 16px; padding: 10px 18px; border-radius: 999px; border: 0; background: var(--accent);
    color: var(--accent-fg); font: inherit; font-weight: 600; cursor: pointer; }
  .error { color: var(--error); }
  .code { font-size: 22px; letter-spacing: 4px; font-weight: 700; }
`

/** The app's theme, where a page is opened for it (the social sign-in: the frame adds `theme`). */
export type PageTheme = 'dark' | 'light'

function page(title: string, body: string, head = '', theme: PageTheme = 'dark'): string {
  return `<!doctype html>
<html lang="en" data-theme="${theme}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="icon" href="data:,">${head}<style>${STYLE}</style></head>
<body><main>${body}</main></body>
</html>`
}

/** A one-message page (link results, errors, "return to the app"). */
export function messagePage(title: string, text: string, kind: 'ok' | 'error' = 'ok'): string {
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1><p class="${kind === 'error' ? 'error' : ''}" role="${kind === 'error' ? 'alert' : 'status'}">${escapeHtml(text)}</p>`,
  )
}

export function indexPage(origin: string): string {
  return page(
    'Walletstate secure site (sandbox)',
    `<h1>Walletstate secure site (sandbox)</h1>
<p>The login frame the kit loads in its hidden iframe lives at <code>${escapeHtml(origin)}/frame</code>.</p>
<p><a href="/mailbox">Open the mailbox</a>: every e-mail this site sends (one-time codes, device links) lands there.</p>`,
  )
}

/** The mailbox for people: every mail, newest first, refreshed every few seconds. */
export function mailboxPage(mails: Mail[]): string {
  const items = mails
    .map(
      (mail) => `<article class="card">
  <div class="muted">To <a href="/mailbox?to=${encodeURIComponent(mail.to)}">${escapeHtml(mail.to)}</a> · <time datetime="${escapeHtml(mail.at)}">${escapeHtml(mail.at)}</time></div>
  <h2>${escapeHtml(mail.subject)}</h2>
  ${mail.code ? `<p>Code: <span class="code">${escapeHtml(mail.code)}</span></p>` : ''}
  ${mail.link ? `<p><a href="${escapeHtml(mail.link)}" target="_blank" rel="noopener">Open the link</a></p>` : ''}
  <pre>${escapeHtml(mail.text)}</pre>
</article>`,
    )
    .join('\n')
  return page(
    'Mailbox',
    `<h1>Mailbox</h1>
<p class="muted">Mail sent by the secure site, newest first. Per address as JSON: <code>/mailbox?to=ADDRESS</code>.</p>
${items || '<p class="muted">No mail yet.</p>'}`,
    '<meta http-equiv="refresh" content="3">',
  )
}

const PROVIDER_NAMES: Record<string, string> = {
  google: 'Google',
  github: 'GitHub',
  apple: 'Apple',
  facebook: 'Facebook',
  x: 'X',
  discord: 'Discord',
}

export function providerName(provider: string): string {
  return PROVIDER_NAMES[provider] ?? provider
}

/** The social stand-in: "Sign in as" an e-mail, then Continue redirects back to the app. */
export function socialPage(
  provider: string,
  state: string,
  error?: string,
  email = '',
  theme: PageTheme = 'dark',
): string {
  const name = providerName(provider)
  return page(
    `Sign in with ${name} (sandbox)`,
    `<h1>Sign in with ${escapeHtml(name)}</h1>
<p class="muted">Sandbox stand-in for ${escapeHtml(name)}: whoever you name here is who the app will see.</p>
<form method="post" action="/social/${encodeURIComponent(provider)}" class="card">
  <input type="hidden" name="state" value="${escapeHtml(state)}">
  <input type="hidden" name="theme" value="${theme}">
  <p>Sign in as</p>
  <label for="email">Email</label>
  <input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(email)}">
  ${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
  <button type="submit">Continue</button>
</form>`,
    '',
    theme,
  )
}

/** The Farcaster stand-in: "Sign in as" a username, then Continue; the frame is polling meanwhile. */
export function farcasterPage(channel: string, error?: string, userName = ''): string {
  return page(
    'Sign in with Farcaster (sandbox)',
    `<h1>Sign in with Farcaster</h1>
<p class="muted">Sandbox stand-in for the Farcaster app: whoever you name here is who the app will see.</p>
<form method="post" action="/farcaster" class="card">
  <input type="hidden" name="channel" value="${escapeHtml(channel)}">
  <p>Sign in as</p>
  <label for="username">Username</label>
  <input id="username" name="username" autocomplete="username" required value="${escapeHtml(userName)}">
  ${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
  <button type="submit">Continue</button>
</form>`,
  )
}

/** The login frame page; its script is the bundle the server built from `frame/main.ts`. */
export function framePage(scriptPath: string): string {
  return `<!doctype html>
<html lang="en" data-theme="dark">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Walletstate secure site</title><link rel="icon" href="data:,">
<style>
  :root { color-scheme: dark; --bg: #141420; --fg: #ecebf3; --muted: #9a98ad; --line: #2c2b3a; --accent: #8b7bff;
    --accent-fg: #12101f; --decline: #2a2937; }
  :root[data-theme='light'] { color-scheme: light; --bg: #ffffff; --fg: #16151f; --muted: #5d5b6e; --line: #e3e1ee;
    --accent: #5b45e0; --accent-fg: #fff; --decline: #eeedf5; }
  * { box-sizing: border-box; }
  html, body { margin: 0; height: 100%; }
  body { background: var(--bg); color: var(--fg); font: 15px/1.5 system-ui, sans-serif; }
  #status { padding: 12px 16px; color: var(--muted); font-size: 13px; }
  #approval { padding: 20px; display: flex; flex-direction: column; gap: 12px; height: 100%; }
  #approval[hidden] { display: none; }
  #approval h1 { font-size: 18px; margin: 0; }
  #approval .from { color: var(--muted); font-size: 13px; overflow-wrap: anywhere; }
  #approval .covered { margin: 0; color: var(--muted); font-size: 13px; }
  /* Its place is kept while hidden: the buttons never move under the visitor's pointer when it comes and goes. */
  #approval .covered[hidden] { display: block; visibility: hidden; }
  dl { margin: 0; display: grid; gap: 6px; overflow: auto; flex: 1; min-height: 40px; }
  dt { color: var(--muted); font-size: 12px; }
  dd { margin: 0 0 6px; font: 13px/1.4 ui-monospace, monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
  .buttons { display: flex; gap: 12px; }
  .buttons button { flex: 1; padding: 12px; border-radius: 999px; border: 0; font: inherit; font-weight: 600; cursor: pointer; }
  #approve { background: var(--accent); color: var(--accent-fg); }
  #decline { background: var(--decline); color: var(--fg); }
  button:disabled { opacity: 0.6; cursor: progress; }
</style>
</head>
<body>
<p id="status" role="status">Loading…</p>
<section id="approval" role="dialog" aria-labelledby="approval-title" hidden>
  <h1 id="approval-title"></h1>
  <p class="from" id="approval-from"></p>
  <dl id="approval-details"></dl>
  <p class="covered" id="approval-covered" role="status" hidden>Approve works once this window is fully visible, with nothing in front of it.</p>
  <div class="buttons">
    <button type="button" id="decline">Decline</button>
    <button type="button" id="approve">Approve</button>
  </div>
</section>
<script type="module" src="${escapeHtml(scriptPath)}"></script>
</body>
</html>`
}
