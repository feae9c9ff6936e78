import { fromPromise } from 'xstate'
import type { KitEndpoints } from '../config'
import type { ChosenWallet } from '../machines/connection'
import { assetImageUrl } from '../utils/images'

/**
 * The kit's `preloadImage` slot (SPEC §9 image preload race): loads the chosen wallet's image into the browser's
 * cache (its `imageUrl`, else the provider's image of its `imageId`), done once it loaded or failed; the kit races
 * it against 2 s. Without a document (server rendering, tests in Node) it is done at once. Cancelled (the race
 * lost), the image element is let go.
 *
 * @example
 * kitMachine.provide({ actors: { preloadImage: createPreloadImageActor({ endpoints, projectId }) } })
 */
export function createPreloadImageActor(
  config: { endpoints: Pick<KitEndpoints, 'walletsApi'>; projectId: string },
  createImage: () => HTMLImageElement | undefined = () =>
    typeof Image === 'function' ? new Image() : undefined,
) {
  return fromPromise<void, ChosenWallet>(
    ({ input, signal }) =>
      new Promise<void>((resolve) => {
        const src = input.imageUrl ?? assetImageUrl(config.endpoints, config.projectId, input.imageId)
        const image = src ? createImage() : undefined
        if (!src || !image) return resolve()
        const done = () => {
          image.onload = null
          image.onerror = null
          resolve()
        }
        image.onload = done
        image.onerror = done
        signal.addEventListener('abort', done, { once: true })
        image.referrerPolicy = 'no-referrer'
        image.src = src
      }),
  )
}
