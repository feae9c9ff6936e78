import { type KitThemeVariables, type ThemeMode, themeVariablesProblems } from './config'
import { ConfigError } from './errors/base'
import type { KitEvent } from './machines/kit/types'

/** What the setters need of the kit: its running actor (`createActor(kit).start()`, or `useKitActor()`). */
interface KitReceiver {
  send(event: KitEvent): void
}

/**
 * Sets the theme mode at run time: the modal shows it at once and the login frame is told (`syncTheme`).
 * Throws `ConfigError` for anything but `'dark'` or `'light'`, as the config does.
 *
 * @example
 * setThemeMode(kitActor, 'light')
 */
export function setThemeMode(kit: KitReceiver, themeMode: ThemeMode): void {
  if (themeMode !== 'dark' && themeMode !== 'light')
    throw new ConfigError('Invalid theme', { details: "themeMode: must be 'dark' or 'light'" })
  kit.send({ type: 'kit.setThemeMode', themeMode })
}

/**
 * Sets theme variables at run time, merged into the current ones (a variable set to `undefined` goes back to
 * the theme's own value); the login frame is told (`syncTheme`). Throws `ConfigError` naming each variable the
 * config would refuse (an unknown name, a value that could escape its declaration); then nothing is written.
 *
 * @example
 * setThemeVariables(kitActor, { '--ws-accent': '#e8590c' })
 */
export function setThemeVariables(kit: KitReceiver, themeVariables: KitThemeVariables): void {
  const problems = themeVariablesProblems(themeVariables)
  if (problems.length > 0) throw new ConfigError('Invalid theme', { details: problems.join('; ') })
  kit.send({ type: 'kit.setThemeVariables', themeVariables })
}
