import { createElement, Fragment, type ReactNode } from 'react'
import { addEnglish, type KitI18n, PLACEHOLDER, type Translate, useI18n as useKitI18n } from './i18n'
import englishViews from './locales/en.views.json'

/*
 * The look-ups of the views loaded on demand. Their English texts (`en.views.json`) come with them, not with the
 * kit: only Connect's, the modal's and the host button's are in `en.json`, on the host page's first-click path
 * (issue 14's budget). The first of these views to render hands its English to the catalogs.
 */

export { errorText, localizeText, type MessageKey } from './i18n'

/** A translated text with React nodes in its placeholders (`{email}` as a <strong>). */
export function rich(text: string, values: Record<string, ReactNode>): ReactNode[] {
  return text
    .split(PLACEHOLDER)
    .map((part, index) =>
      createElement(Fragment, { key: index }, index % 2 === 0 ? part : (values[part] ?? part)),
    )
}

let added = false

/** The language shown and its look-up, with the views' English texts at hand. */
export function useI18n(): KitI18n {
  if (!added) {
    addEnglish(englishViews)
    added = true
  }
  return useKitI18n()
}

/** The look-up alone. */
export const useT = (): Translate => useI18n().t
