import { preloadable } from './views/preloadable'

/**
 * The modal's code (its shell, stylesheet, Connect and the view registry) is a chunk of its own, so a host
 * page pays nothing for it before the visitor shows intent (issue 14's first-click budget). It is fetched on
 * the kit button's hover, focus or touch, on the first press or key anywhere on the page, by `useKit().open`,
 * else when the modal is first needed (components/KitModalLoader.tsx).
 */
export const modalChunk = preloadable(() =>
  import('./components/KitModal').then((module) => ({ default: module.KitModal })),
)

/** Fetches the modal's code ahead of an open. */
export const preloadKitModal = (): void => {
  modalChunk.preload().catch(() => {
    // A failed fetch is tried again when the modal is needed.
  })
}
