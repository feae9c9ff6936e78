import { type ComponentType, lazy } from 'react'

export type ViewModule<P extends object = object> = { default: ComponentType<P> }

/**
 * A view in its own chunk that can be fetched before it is first shown. Once fetched it renders at once: the
 * `lazy` factory then returns a thenable that calls back synchronously, which React reads without suspending
 * (a resolved promise would still suspend for a frame and show the fallback).
 */
export function preloadable<P extends object = object, M extends ViewModule<P> = ViewModule<P>>(
  load: () => Promise<M>,
) {
  let loaded: M | undefined
  let loading: Promise<M> | undefined
  const preload = (): Promise<M> => {
    loading ??= load().then(
      (module) => {
        loaded = module
        return module
      },
      (error: unknown) => {
        loading = undefined
        throw error
      },
    )
    return loading
  }
  const component = lazy(() => {
    const ready = loaded
    if (!ready) return preload()
    // biome-ignore lint/suspicious/noThenProperty: a thenable that calls back at once is the point (see above)
    const now = { then: (resolve: (module: M) => void) => resolve(ready) }
    return now as unknown as Promise<ViewModule<P>>
  })
  /** The component, once fetched (render it directly: no suspending). */
  const ready = (): ComponentType<P> | undefined => loaded?.default
  return { component, preload, ready }
}
