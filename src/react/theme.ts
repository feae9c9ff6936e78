import type { KitThemeVariables, ThemeMode } from '../config'
import {
  HEADER_TEXT_MS,
  MODAL_HEIGHT_MS,
  MODAL_SHAKE_MS,
  TOAST_RESHOW_MS,
  VIEW_TRANSITION_MS,
} from '../constants'

/**
 * The theme contract: CSS variables scoped to the kit's root (`[data-walletstate]`), a dark and a light set
 * chosen by `data-theme`, and host overrides through `themeVariables`. Override values are sanitised before
 * they are written: a value that could close the declaration or load something is dropped.
 */
const THEMES: Record<ThemeMode, Record<string, string>> = {
  dark: {
    '--ws-background': '#141618',
    '--ws-surface': '#1e2124',
    '--ws-surface-hover': '#2a2e33',
    '--ws-foreground': '#f2f4f5',
    '--ws-muted': '#a3aab1',
    '--ws-border': '#33383d',
    '--ws-accent': '#5ea0ff',
    '--ws-accent-contrast': '#0b1220',
    '--ws-error': '#ff7a7a',
    '--ws-success': '#4fd18b',
    '--ws-overlay': 'rgba(0, 0, 0, 0.6)',
  },
  light: {
    '--ws-background': '#ffffff',
    '--ws-surface': '#f3f5f7',
    '--ws-surface-hover': '#e7ebef',
    '--ws-foreground': '#15181b',
    '--ws-muted': '#5b636b',
    '--ws-border': '#d9dee3',
    '--ws-accent': '#1f5fd1',
    '--ws-accent-contrast': '#ffffff',
    '--ws-error': '#c42b2b',
    '--ws-success': '#157a45',
    '--ws-overlay': 'rgba(20, 24, 27, 0.45)',
  },
}

const ALLOWED_OVERRIDES = new Set<keyof KitThemeVariables>([
  '--ws-accent',
  '--ws-accent-contrast',
  '--ws-font-family',
  '--ws-radius',
  '--ws-z-index',
  '--ws-background',
  '--ws-foreground',
])

/** A CSS value with nothing that could end the declaration, open a block or fetch a resource. */
export function isSafeCssValue(value: string): boolean {
  return value.length <= 200 && !/[;{}<>\\]|url\s*\(|expression\s*\(|@import|\/\*/i.test(value)
}

/**
 * The inline style of the kit's root: the theme's variables, then the host's accepted overrides.
 *
 * @example
 * themeStyle('dark', { '--ws-accent': '#ff0' })
 */
export function themeStyle(mode: ThemeMode, overrides: KitThemeVariables): Record<string, string> {
  const style: Record<string, string> = { ...THEMES[mode] }
  for (const [key, value] of Object.entries(overrides)) {
    if (!ALLOWED_OVERRIDES.has(key as keyof KitThemeVariables)) continue
    if (typeof value !== 'string' || !isSafeCssValue(value)) continue
    style[key] = value
  }
  return style
}

/** The kit's stylesheet, scoped to its root so the host page is untouched. */
export const KIT_CSS = `
[data-walletstate] {
  --ws-font-family: ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  --ws-radius: 16px;
  --ws-z-index: 2147483000;
  --ws-duration-header: ${HEADER_TEXT_MS}ms;
  --ws-duration-height: ${MODAL_HEIGHT_MS}ms;
  --ws-duration-view: ${VIEW_TRANSITION_MS}ms;
  --ws-duration-shake: ${MODAL_SHAKE_MS}ms;
  --ws-duration-toast: ${TOAST_RESHOW_MS}ms;
  font-family: var(--ws-font-family);
  color: var(--ws-foreground);
}
[data-walletstate] *, [data-walletstate] *::before, [data-walletstate] *::after { box-sizing: border-box; }
[data-walletstate] .ws-overlay {
  position: fixed; inset: 0; z-index: var(--ws-z-index); background: var(--ws-overlay);
  display: flex; align-items: center; justify-content: center; padding: 16px;
  animation: ws-backdrop var(--ws-duration-view) ease-out;
}
[data-walletstate] .ws-dialog {
  width: 100%; max-width: 380px; max-height: calc(100vh - 32px); overflow: hidden;
  background: var(--ws-background); color: var(--ws-foreground); border: 1px solid var(--ws-border);
  border-radius: var(--ws-radius); box-shadow: 0 12px 48px rgba(0, 0, 0, 0.35); outline: none;
  display: flex; flex-direction: column;
  /* Opening moves the dialog in but never hides it: its content is legible in the first frame (issue 14). */
  animation: ws-pop var(--ws-duration-view) ease-out;
}
[data-walletstate] .ws-dialog[data-shaking] { animation: ws-shake var(--ws-duration-shake) ease-in-out; }
[data-walletstate] .ws-header {
  display: grid; grid-template-columns: 40px 1fr 40px; align-items: center; padding: 12px 12px 4px;
}
[data-walletstate] .ws-title {
  margin: 0; font-size: 16px; font-weight: 600; text-align: center;
}
[data-walletstate] .ws-title[data-direction] { animation: ws-fade var(--ws-duration-header) ease-out; }
[data-walletstate] .ws-icon-button {
  width: 36px; height: 36px; border-radius: 10px; border: none; background: transparent;
  color: var(--ws-foreground); font-size: 18px; cursor: pointer; display: grid; place-items: center;
}
[data-walletstate] .ws-icon-button:hover { background: var(--ws-surface-hover); }
[data-walletstate] :focus-visible { outline: 2px solid var(--ws-accent); outline-offset: 2px; }
[data-walletstate] .ws-body {
  overflow: hidden auto; transition: height var(--ws-duration-height) ease-out;
}
[data-walletstate] .ws-view { padding: 8px 16px 16px; }
[data-walletstate] .ws-view[data-direction="next"] { animation: ws-in-next var(--ws-duration-view) ease-out; }
[data-walletstate] .ws-view[data-direction="prev"] { animation: ws-in-prev var(--ws-duration-view) ease-out; }
[data-walletstate] .ws-list { list-style: none; margin: 0; padding: 0; display: grid; gap: 8px; }
[data-walletstate] .ws-item {
  width: 100%; display: flex; align-items: center; gap: 12px; padding: 12px; border-radius: 12px;
  border: 1px solid transparent; background: var(--ws-surface); color: inherit; font: inherit;
  text-align: left; cursor: pointer;
}
[data-walletstate] .ws-item:hover:not(:disabled, [aria-disabled="true"]) { background: var(--ws-surface-hover); }
[data-walletstate] .ws-item:is(:disabled, [aria-disabled="true"]) { cursor: default; opacity: 0.7; }
[data-walletstate] .ws-muted { color: var(--ws-muted); font-size: 14px; line-height: 1.45; }
[data-walletstate] .ws-badge {
  margin-left: auto; font-size: 12px; padding: 2px 8px; border-radius: 999px;
  background: var(--ws-surface-hover); color: var(--ws-muted);
}
[data-walletstate] .ws-primary {
  width: 100%; padding: 12px; border-radius: 12px; border: none; cursor: pointer; font: inherit;
  font-weight: 600; background: var(--ws-accent); color: var(--ws-accent-contrast);
}
[data-walletstate] .ws-link {
  background: none; border: none; padding: 8px 0; color: var(--ws-accent); font: inherit; cursor: pointer;
}
[data-walletstate] .ws-alert {
  margin: 0 16px 8px; padding: 10px 12px; border-radius: 12px; border: 1px solid var(--ws-error);
  color: var(--ws-foreground); font-size: 14px; display: flex; gap: 8px; align-items: flex-start;
}
[data-walletstate] .ws-alert strong { display: block; color: var(--ws-error); }
[data-walletstate] .ws-loading { display: grid; place-items: center; gap: 12px; padding: 32px 16px; }
[data-walletstate] .ws-spinner {
  width: 28px; height: 28px; border-radius: 50%; border: 3px solid var(--ws-border);
  border-top-color: var(--ws-accent); animation: ws-spin 0.8s linear infinite;
}
[data-walletstate] .ws-toast {
  position: fixed; left: 50%; bottom: 24px; transform: translateX(-50%); z-index: calc(var(--ws-z-index) + 1);
  padding: 10px 16px; border-radius: 999px; background: var(--ws-surface); border: 1px solid var(--ws-border);
  color: var(--ws-foreground); font-size: 14px; animation: ws-fade var(--ws-duration-toast) ease-out;
}
[data-walletstate] .ws-toast[data-variant="error"] { border-color: var(--ws-error); }
[data-walletstate] .ws-toast[data-variant="success"] { border-color: var(--ws-success); }
[data-walletstate] .ws-wallet-fallback {
  display: inline-grid; place-items: center; background: var(--ws-surface-hover); color: var(--ws-muted);
  font-weight: 600;
}
[data-walletstate] .ws-center { display: grid; justify-items: center; gap: 12px; text-align: center; padding: 8px 0; }
[data-walletstate] .ws-error-text { color: var(--ws-error); font-size: 14px; margin: 0; }
[data-walletstate] .ws-qr { width: 100%; max-width: 280px; aspect-ratio: 1; background: #fff; border-radius: 16px; padding: 12px; }
[data-walletstate] .ws-qr img { width: 100%; height: 100%; display: block; }
[data-walletstate] .ws-qr-placeholder { display: grid; place-items: center; background: var(--ws-surface); }
[data-walletstate] .ws-row { display: flex; gap: 8px; width: 100%; }
[data-walletstate] .ws-secondary {
  flex: 1; padding: 10px 12px; border-radius: 12px; border: 1px solid var(--ws-border); background: var(--ws-surface);
  color: var(--ws-foreground); font: inherit; cursor: pointer; text-align: center; text-decoration: none;
}
[data-walletstate] .ws-address { font-size: 20px; font-weight: 600; margin: 0; }
[data-walletstate] .ws-balance { font-size: 16px; color: var(--ws-muted); margin: 0; }
[data-walletstate] .ws-form { display: grid; gap: 8px; margin: 0; }
[data-walletstate] .ws-label { font-size: 14px; font-weight: 600; padding: 0; }
[data-walletstate] .ws-input {
  width: 100%; min-width: 0; padding: 11px 12px; border-radius: 12px; border: 1px solid var(--ws-border);
  background: var(--ws-surface); color: var(--ws-foreground); font: inherit;
}
[data-walletstate] .ws-input[aria-invalid="true"] { border-color: var(--ws-error); }
[data-walletstate] .ws-fit { width: auto; flex: none; display: inline-flex; align-items: center; gap: 8px; }
[data-walletstate] :is(.ws-primary, .ws-secondary, .ws-link):disabled { opacity: 0.55; cursor: default; }
[data-walletstate] .ws-divider { border: none; border-top: 1px solid var(--ws-border); margin: 16px 0; }
[data-walletstate] .ws-notice { display: grid; gap: 8px; margin-top: 8px; }
[data-walletstate] .ws-status { display: flex; align-items: center; justify-content: center; gap: 8px; margin: 8px 0 0; }
[data-walletstate] .ws-form + .ws-error-text { margin-top: 8px; }
[data-walletstate] .ws-spinner-small { width: 16px; height: 16px; border-width: 2px; flex: none; }
[data-walletstate] .ws-socials { list-style: none; margin: 0; padding: 0; display: grid; gap: 8px; grid-template-columns: repeat(auto-fill, minmax(104px, 1fr)); }
[data-walletstate] .ws-social { padding: 10px; gap: 8px; }
[data-walletstate] .ws-social-glyph { width: 24px; height: 24px; border-radius: 6px; flex: none; }
@keyframes ws-fade { from { opacity: 0; } }
@keyframes ws-backdrop { from { background-color: transparent; } }
@keyframes ws-pop { from { transform: translateY(8px) scale(0.98); } }
@keyframes ws-in-next { from { opacity: 0; transform: translateX(16px); } }
@keyframes ws-in-prev { from { opacity: 0; transform: translateX(-16px); } }
@keyframes ws-spin { to { transform: rotate(360deg); } }
@keyframes ws-shake {
  10%, 90% { transform: translateX(-2px); } 20%, 80% { transform: translateX(4px); }
  30%, 50%, 70% { transform: translateX(-6px); } 40%, 60% { transform: translateX(6px); }
}
@media (max-width: 430px) {
  [data-walletstate] .ws-overlay { align-items: flex-end; padding: 0; }
  [data-walletstate] .ws-dialog { max-width: none; border-radius: var(--ws-radius) var(--ws-radius) 0 0; }
}
@media (prefers-reduced-motion: reduce) {
  [data-walletstate] *, [data-walletstate] *::before, [data-walletstate] *::after {
    animation-duration: 1ms !important; transition-duration: 1ms !important;
  }
}
`
