import { isSafeCssValue, type KitThemeVariables, THEME_VARIABLE_NAMES, type ThemeMode } from '../config'
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
 * they are written: a value that could close the declaration or load something is dropped. Both sets keep
 * WCAG AA for text on every surface (`--ws-muted` on `--ws-surface-hover` included) and 3:1 for the focus ring
 * (`--ws-accent`) and the form fields' borders (`--ws-border-strong`) against the dialog; test/e2e/theme.test.ts
 * checks them from computed styles.
 */
const THEMES: Record<ThemeMode, Record<string, string>> = {
  dark: {
    '--ws-background': '#141618',
    '--ws-surface': '#1e2124',
    '--ws-surface-hover': '#2a2e33',
    '--ws-foreground': '#f2f4f5',
    '--ws-muted': '#a3aab1',
    '--ws-border': '#33383d',
    '--ws-border-strong': '#666e76',
    '--ws-accent': '#5ea0ff',
    '--ws-accent-contrast': '#0b1220',
    '--ws-error': '#ff7a7a',
    '--ws-success': '#4fd18b',
    '--ws-overlay': 'rgba(0, 0, 0, 0.6)',
    '--ws-shadow': '0 12px 48px rgba(0, 0, 0, 0.45)',
  },
  light: {
    '--ws-background': '#ffffff',
    '--ws-surface': '#f3f5f7',
    '--ws-surface-hover': '#e7ebef',
    '--ws-foreground': '#15181b',
    '--ws-muted': '#5b636b',
    '--ws-border': '#dde2e7',
    '--ws-border-strong': '#8c959f',
    '--ws-accent': '#1f5fd1',
    '--ws-accent-contrast': '#ffffff',
    '--ws-error': '#c42b2b',
    '--ws-success': '#157a45',
    '--ws-overlay': 'rgba(20, 24, 27, 0.45)',
    '--ws-shadow': '0 12px 40px rgba(20, 24, 27, 0.18)',
  },
}

/** SPEC §2's durations, for kit.css's animations. */
const DURATIONS: Record<string, string> = {
  '--ws-duration-header': `${HEADER_TEXT_MS}ms`,
  '--ws-duration-height': `${MODAL_HEIGHT_MS}ms`,
  '--ws-duration-view': `${VIEW_TRANSITION_MS}ms`,
  '--ws-duration-shake': `${MODAL_SHAKE_MS}ms`,
  '--ws-duration-toast': `${TOAST_RESHOW_MS}ms`,
}

export { isSafeCssValue }

/**
 * The inline style of the kit's root: the theme's variables, then the host's accepted overrides.
 *
 * @example
 * ```tsx
 * import { themeStyle } from 'walletstate/react'
 *
 * // The kit's look on a host element of your own (a page that matches the modal).
 * export const Panel = () => <section style={themeStyle('dark', { '--ws-accent': '#e8590c' })}>…</section>
 * ```
 */
export function themeStyle(mode: ThemeMode, overrides: KitThemeVariables): Record<string, string> {
  const style: Record<string, string> = { ...DURATIONS, ...THEMES[mode] }
  for (const [key, value] of Object.entries(overrides)) {
    if (!THEME_VARIABLE_NAMES.has(key)) continue
    if (typeof value !== 'string' || !isSafeCssValue(value)) continue
    style[key] = value
  }
  return style
}
