import { useSyncExternalStore } from 'react'
import type { KitLocale } from '../config'
import type { KitActorRef } from '../machines/kit'
import { useKitActor } from './context'
import EN_JSON from './locales/en.json?raw'

type EnglishCatalog = typeof import('./locales/en.json')
/**
 * The English catalog is on the host's first-click path with the modal: read from the file's text (its non-ASCII
 * characters written as `\u` escapes stay so in the host's bundle), parsed at first use. Imported as JSON its
 * text would be printed with the characters themselves, and Chromium keeps a script holding one non-ASCII
 * character as UTF-16, twice its size (the consumer test checks the first-click scripts stay ASCII).
 */
let english: EnglishCatalog | undefined
export const en = (): EnglishCatalog => {
  english ??= JSON.parse(EN_JSON) as EnglishCatalog
  return english
}

/*
 * The kit's translations (issue 18). The catalogs are flat JSON, one per locale (src/react/locales/); English is
 * the source of truth and ships with the kit, every other catalog is its own chunk, fetched (`import()`) only
 * when its locale is chosen. While it loads, the views keep the language they showed.
 *
 * The catalogs are kept by a small store of our own (`storeFor` below): the job is to load a locale's catalog
 * once, keep showing the previous language until it has come, and tell React. @nanostores/i18n did that before
 * (the smallest maintained i18n library: 1.5 KiB), but the store below is a few lines and is ~1.1 KiB less on the
 * path of the modal's first open (measured with bench/peers' host app, gzip -9; issue 14's budgets).
 * Placeholders (`{name}`) are filled in below.
 *
 * The texts the machines and errors write in English (errors' `shortMessage`s, alerts, the machines' toasts and
 * progress lines) are already English where they come from: their English catalog (`en.machine.json`, the
 * source the other catalogs translate) is only needed to translate them, so it loads with another locale's
 * catalog, not with the kit (issue 14's first-click budget).
 */

type MachineCatalog = typeof import('./locales/en.machine.json')
type ViewsCatalog = typeof import('./locales/en.views.json')
export type MessageKey = keyof EnglishCatalog | keyof ViewsCatalog | keyof MachineCatalog
export type Catalog = Record<MessageKey, string>
export type MessageValues = Record<string, string | number>
/** Looks a text up in the catalog shown, filling in its `{placeholders}`. */
export type Translate = (key: MessageKey, values?: MessageValues) => string

/** The catalogs other than English, each its own chunk. */
const CATALOGS: Record<Exclude<KitLocale, 'en'>, () => Promise<{ default: Partial<Catalog> }>> = {
  de: () => import('./locales/de.json'),
  es: () => import('./locales/es.json'),
  fr: () => import('./locales/fr.json'),
  ja: () => import('./locales/ja.json'),
  zh: () => import('./locales/zh.json'),
  ar: () => import('./locales/ar.json'),
}

/** The English texts of the views loaded on demand, handed over by the first of them (`i18nViews.ts`). */
const lateEnglish: Partial<Catalog> = {}

/** Adds English texts that came with code loaded on demand (the views' own). */
export function addEnglish(catalog: Partial<Catalog>): void {
  Object.assign(lateEnglish, catalog)
}

/** The English of the machines' texts, once a locale other than English was asked for. */
let machineEnglish: Partial<Record<MessageKey, string>> | undefined

/** Languages written right to left. */
const RTL: ReadonlySet<KitLocale> = new Set<KitLocale>(['ar'])

/** The language shown and its look-up. */
export interface KitI18n {
  /** The locale whose catalog is shown (the one asked for, once its catalog has come). */
  locale: KitLocale
  dir: 'ltr' | 'rtl'
  t: Translate
}

export const PLACEHOLDER = /\{(\w+)\}/g

const fill = (text: string, values?: MessageValues) =>
  values ? text.replace(PLACEHOLDER, (whole, name: string) => String(values[name] ?? whole)) : text

/** The look-up of one catalog; a key it lacks falls back to English. */
export const createTranslate =
  (messages: Partial<Catalog>): Translate =>
  (key, values) =>
    fill(
      messages[key] ?? (en() as Partial<Catalog>)[key] ?? lateEnglish[key] ?? machineEnglish?.[key] ?? key,
      values,
    )

/** Finds a machine's English text in the catalogs (`localizeText`), once the machines' English has come. */
let localizeMachineText: ((t: Translate, text: string) => string) | undefined

/**
 * The catalog of the machines' English texts, loaded (once) beside a locale other than English, with the code
 * that finds a text in it (./i18nMachine.ts: only a page in another language needs either).
 */
export function loadMachineEnglish(): Promise<unknown> {
  return Promise.all([import('./locales/en.machine.json'), import('./i18nMachine')]).then(
    ([catalog, { machineTextLocalizer }]) => {
      machineEnglish = catalog.default
      localizeMachineText = machineTextLocalizer(catalog.default)
    },
  )
}

function shownI18n(locale: KitLocale, messages: Partial<Catalog>): KitI18n {
  return { locale, dir: RTL.has(locale) ? 'rtl' : 'ltr', t: createTranslate(messages) }
}

interface Store {
  get: () => KitI18n
  subscribe: (listener: () => void) => () => void
}

const stores = new WeakMap<KitActorRef, Store>()

/**
 * One store per kit: its locale follows the kit's context; a locale's catalog loads the first time it is asked
 * for, and the views keep the language they showed until it has come. A catalog that did not come (offline)
 * shows English, the source, until the locale is asked again.
 */
function storeFor(kit: KitActorRef): Store {
  let store = stores.get(kit)
  if (store) return store
  const listeners = new Set<() => void>()
  const loaded: Partial<Record<KitLocale, Partial<Catalog>>> = { en: {} }
  let shown = shownI18n('en', {})
  let asked: KitLocale | undefined
  const show = (locale: KitLocale, catalog: Partial<Catalog>) => {
    shown = shownI18n(locale, catalog)
    for (const listener of listeners) listener()
  }
  const ask = (locale: KitLocale) => {
    asked = locale
    const catalog = loaded[locale]
    if (catalog) {
      if (shown.locale !== locale) show(locale, catalog)
      return
    }
    Promise.all([CATALOGS[locale as Exclude<KitLocale, 'en'>](), loadMachineEnglish()])
      .then(
        ([module]) => {
          loaded[locale] = module.default
        },
        () => undefined,
      )
      .then(() => {
        if (asked === locale) show(loaded[locale] ? locale : 'en', loaded[locale] ?? {})
      })
  }
  ask(kit.getSnapshot().context.locale)
  kit.subscribe((snapshot) => {
    if (snapshot.context.locale !== asked) ask(snapshot.context.locale)
  })
  store = {
    get: () => shown,
    subscribe: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
  stores.set(kit, store)
  return store
}

/** The language the kit's views show, and its look-up; views render again when it changes. */
export function useI18n(): KitI18n {
  const store = storeFor(useKitActor())
  return useSyncExternalStore(store.subscribe, store.get, store.get)
}

/** The look-up alone. */
export const useT = (): Translate => useI18n().t

/**
 * A text a machine wrote in English (a toast, a progress line, an error's message) in the language shown, when
 * the catalogs have it (`Sent {amount} {symbol}` matches "Sent 1 ETH"); the English text as it is otherwise.
 */
export function localizeText(t: Translate, text: string): string {
  // English: the machine's text is the one shown.
  return localizeMachineText ? localizeMachineText(t, text) : text
}

/**
 * An error's text in the language shown: the catalog's `error.<name>` when it is the text that error has in
 * English (a name with several texts is told apart by them), else by its English text; else as it came.
 */
export function errorText(t: Translate, error: { name?: string; message: string }): string {
  const key = `error.${error.name}` as MessageKey
  if (machineEnglish?.[key] === error.message) return t(key)
  return localizeText(t, error.message)
}

/** An alert's texts (SPEC §8) in the language shown, when the catalogs have the alert's English texts. */
export function alertText(
  t: Translate,
  alert: { code: string; shortMessage: string; longMessage: string },
): { short: string; long: string } {
  const short = `alert.${alert.code}` as MessageKey
  const long = `alert.${alert.code}.long` as MessageKey
  return {
    short: machineEnglish?.[short] === alert.shortMessage ? t(short) : alert.shortMessage,
    long: machineEnglish?.[long] === alert.longMessage ? t(long) : alert.longMessage,
  }
}
