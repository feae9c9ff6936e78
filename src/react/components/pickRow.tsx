/*
 * A list row to pick from, whose button is named by one word (a token's symbol, a provider's name) while the row
 * shows more (a name, a balance, a quote). The more sits beside the button, not inside it, and describes it
 * (`aria-describedby`): the button's visible text is then all of its accessible name, so a voice-control user
 * says what they see (WCAG 2.5.3, Label in Name). The button's click area, hover and focus ring still cover the
 * whole row.
 *
 * The row (`ws-pick-row`, positioned) holds the button (`ws-pick`), whose `::after` stretches over the row.
 */
const PICK_ROW_CSS = `
[data-walletstate] .ws-pick-row { position: relative; }
[data-walletstate] .ws-pick { justify-self: start; max-width: 100%; padding: 0; border: 0; background: none; color: inherit; font: inherit; text-align: start; cursor: pointer; }
[data-walletstate] .ws-pick::after { content: ''; position: absolute; inset: 0; border-radius: 12px; }
[data-walletstate] .ws-pick:disabled { cursor: default; color: var(--ws-muted); }
[data-walletstate] .ws-pick:focus-visible { outline: none; }
[data-walletstate] .ws-pick:focus-visible::after { outline: 2px solid var(--ws-accent); outline-offset: 2px; }
[data-walletstate] .ws-pick-row:has(.ws-pick:hover:enabled) { background: var(--ws-surface-hover); }
[data-walletstate] .ws-pick-row:has(.ws-pick:disabled) { background: var(--ws-surface); }
`

/** Renders the pick rows' styles; a view with pick rows puts it in its root. */
export function PickRowStyle() {
  return <style>{PICK_ROW_CSS}</style>
}
