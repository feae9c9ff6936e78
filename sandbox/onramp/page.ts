import { readFileSync } from 'node:fs'
import { escapeHtml } from '../secure-site/pages.ts'
import type { OnrampOrder } from './orders.ts'
import {
  ONRAMP_NETWORK_DISPLAY_NAME,
  ONRAMP_SOLANA_NETWORK,
  ONRAMP_SOLANA_NETWORK_DISPLAY_NAME,
  providerOf,
} from './pricing.ts'

/**
 * The partner page's HTML (server-rendered; every value escaped), its stylesheet and its script (`page.js`,
 * served as it is). No inline script or style: the CSP allows this origin's own files only.
 */

/** The page's headers: own scripts and styles only, no framing, no referrer. */
export const PARTNER_PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
}

/** The script, read once: it posts the buyer's choice to this server and shows the outcome. */
export const PARTNER_SCRIPT = readFileSync(new URL('./page.js', import.meta.url), 'utf8')

export const PARTNER_STYLE = `
:root { color-scheme: light; --bg: #f4f5f8; --fg: #14151a; --muted: #5b5e6b; --card: #fff; --line: #dcdfe6;
  --accent: #1652f0; --accent-fg: #fff; --error: #b3261e; --ok: #0b7a3e; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.5 system-ui, sans-serif; }
main { max-width: 480px; margin: 0 auto; padding: 24px 16px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 0 0 8px; }
.muted { color: var(--muted); margin: 0 0 16px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 16px; margin: 12px 0; }
dl { display: grid; grid-template-columns: auto 1fr; gap: 6px 16px; margin: 0; }
dt { color: var(--muted); }
dd { margin: 0; text-align: right; overflow-wrap: anywhere; }
code { font: 13px/1.4 ui-monospace, monospace; }
label { display: block; margin: 12px 0 4px; font-weight: 500; }
input { width: 100%; padding: 10px 12px; border-radius: 8px; border: 1px solid var(--line); font: inherit; }
.row { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.actions { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 16px; }
button { padding: 10px 18px; border-radius: 999px; border: 1px solid var(--line); background: var(--card);
  color: var(--fg); font: inherit; font-weight: 600; cursor: pointer; }
button[type='submit'] { background: var(--accent); color: var(--accent-fg); border-color: var(--accent); flex: 1 0 100%; }
button:disabled { opacity: 0.6; cursor: progress; }
.error { color: var(--error); }
.ok { color: var(--ok); font-weight: 600; }
[hidden] { display: none !important; }
`

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/partner.css"></head>
<body><main>${body}</main><script src="/partner.js" defer></script></body>
</html>`
}

/** A page that only says something (an unknown order, a malformed id, the partner's index). */
export function partnerMessagePage(title: string, text: string, kind: 'ok' | 'error' = 'ok'): string {
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1><p class="${kind === 'error' ? 'error' : ''}" role="${kind === 'error' ? 'alert' : 'status'}">${escapeHtml(text)}</p>`,
  )
}

function paymentFields(order: OnrampOrder): string {
  if (order.paymentMethod === 'ach_bank_account') {
    return `<h2>Bank account</h2>
  <label for="account-holder">Account holder</label>
  <input id="account-holder" name="accountHolder" autocomplete="name" required maxlength="100" value="Sandbox Buyer">
  <div class="row">
    <div><label for="routing-number">Routing number</label>
    <input id="routing-number" name="routingNumber" inputmode="numeric" required pattern="[0-9]{9}" value="110000000"></div>
    <div><label for="account-number">Account number</label>
    <input id="account-number" name="accountNumber" inputmode="numeric" required pattern="[0-9]{4,17}" value="000123456789"></div>
  </div>`
  }
  return `<h2>Card</h2>
  <label for="card-number">Card number</label>
  <input id="card-number" name="cardNumber" inputmode="numeric" autocomplete="cc-number" required maxlength="23" value="4242 4242 4242 4242">
  <div class="row">
    <div><label for="card-expiry">Expiry (MM/YY)</label>
    <input id="card-expiry" name="expiry" autocomplete="cc-exp" required maxlength="5" value="12/34"></div>
    <div><label for="card-cvc">CVC</label>
    <input id="card-cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required maxlength="4" value="123"></div>
  </div>
  <label for="card-name">Name on card</label>
  <input id="card-name" name="name" autocomplete="cc-name" required maxlength="100" value="Sandbox Buyer">`
}

/** What an order that is no longer pending says instead of the form. */
function outcome(order: OnrampOrder): string {
  switch (order.status) {
    case 'confirmed':
      return `<p class="ok" role="status">Purchase complete: ${escapeHtml(order.purchaseAmount)} ${escapeHtml(order.purchaseCurrency)} sent.</p>
<p>Transaction <code>${escapeHtml(order.txHash ?? '')}</code></p>`
    case 'failed':
      return '<p class="error" role="alert">This purchase failed. You can close this window.</p>'
    case 'delivering':
      return '<p role="status">This purchase is being completed. You can close this window.</p>'
    default:
      return ''
  }
}

/**
 * The order's page: the provider, the order (amount, currency, token, network, destination), the payment method's
 * fields (a fake card or bank account, filled in) and the buttons "Complete purchase", "Complete later" (paid
 * now, delivered a few seconds later), "Fail purchase" and "Cancel". An order no longer pending shows its outcome
 * instead of the form.
 */
export function orderPage(order: OnrampOrder): string {
  const provider = providerOf(order.provider)
  const pay = `${order.paymentTotal} ${order.paymentCurrency}`
  const summary = `<section class="card" aria-labelledby="order-title">
  <h2 id="order-title">Your order</h2>
  <dl>
    <dt>You pay</dt><dd data-field="total">${escapeHtml(pay)}</dd>
    <dt>Fee (${escapeHtml(provider.feePercent.toFixed(1))} %)</dt><dd data-field="fee">${escapeHtml(`${order.fee} ${order.paymentCurrency}`)}</dd>
    <dt>You receive</dt><dd data-field="amount">${escapeHtml(`${order.purchaseAmount} ${order.purchaseCurrency}`)}</dd>
    <dt>Token</dt><dd data-field="token">${escapeHtml(order.purchaseCurrency)}${order.tokenAddress ? ` <code>${escapeHtml(order.tokenAddress)}</code>` : ' (native)'}</dd>
    <dt>Network</dt><dd data-field="network">${escapeHtml(order.network === ONRAMP_SOLANA_NETWORK ? ONRAMP_SOLANA_NETWORK_DISPLAY_NAME : ONRAMP_NETWORK_DISPLAY_NAME)}</dd>
    <dt>To wallet</dt><dd data-field="address"><code>${escapeHtml(order.address)}</code></dd>
    <dt>Customer</dt><dd data-field="customer">${escapeHtml(order.partnerUserId)}</dd>
  </dl>
</section>`
  const form =
    order.status === 'pending'
      ? `<form id="pay" class="card" method="post" data-order="${escapeHtml(order.id)}" data-method="${escapeHtml(order.paymentMethod)}">
  ${paymentFields(order)}
  <p id="message" role="status" aria-live="polite"></p>
  <p id="error" class="error" role="alert"></p>
  <noscript><p class="error">This page needs JavaScript.</p></noscript>
  <div class="actions">
    <button type="submit" id="complete">Complete purchase</button>
    <button type="button" id="later">Complete later</button>
    <button type="button" id="fail">Fail purchase</button>
    <button type="button" id="cancel">Cancel</button>
  </div>
</form>`
      : `<section class="card">${outcome(order)}</section>`
  return page(
    `Buy ${order.purchaseCurrency} with ${provider.name}`,
    `<h1>Buy with ${escapeHtml(provider.name)}</h1>
<p class="muted">Sandbox stand-in for ${escapeHtml(provider.name)}: no money moves; the tokens are real on the sandbox chain.</p>
${summary}
${form}`,
  )
}
