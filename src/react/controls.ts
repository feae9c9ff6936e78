/*
 * Rules the views' controls share: which take focus as a view appears, and the e-mail fields' attributes.
 */

/** What can take focus in a view (the first of these takes it when the view appears). */
export const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

let viewFocusing = false

/**
 * Focuses `target` for a view that just appeared (its first control, or the view itself). The focus events this
 * fires are the view's own, not the visitor's: {@link isViewFocus} tells them apart (the login frame loads on
 * the visitor's intent, and a view focusing a social button as it opens shows none).
 */
export function focusForView(target: HTMLElement): void {
  viewFocusing = true
  try {
    target.focus()
  } finally {
    viewFocusing = false
  }
}

/** True while a view moves focus into itself ({@link focusForView}): focus events then are not the visitor's. */
export const isViewFocus = () => viewFocusing

/**
 * The e-mail fields' attributes. A text field with the e-mail keyboard and autofill rather than
 * `type="email"`: Chromium gives each page with an e-mail field its own extra script context (about 80 KiB of
 * heap, issue 14), and the kit checks addresses itself (the frame's 'Invalid email'), so the browser's own
 * check is off anyway (`noValidate`).
 */
export const EMAIL_FIELD = {
  type: 'text',
  name: 'email',
  autoComplete: 'email',
  inputMode: 'email',
  autoCapitalize: 'none',
  autoCorrect: 'off',
  spellCheck: false,
} as const
