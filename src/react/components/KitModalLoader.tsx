import { Suspense, useState } from 'react'
import { selectStatus } from '../../machines/connection'
import { selectIsOpen } from '../../machines/modal'
import { useSelector } from '../actor'
import { useConnectionActor, useModalActor, useToastActor } from '../hooks'
import { preloadable } from '../views/preloadable'

/**
 * The modal's code (its shell, stylesheet, Connect and the view registry) is a chunk of its own, so a host
 * page pays nothing for it before the visitor shows intent (issue 14's first-click budget): it is fetched on
 * the host button's hover, focus or touch ({@link preloadKitModal}), else on the first open, toast or
 * connection.
 */
const modalChunk = preloadable(() => import('./KitModal').then((module) => ({ default: module.KitModal })))

/** Fetches the modal's code ahead of an open (the host button calls it on hover, focus and touch). */
export const preloadKitModal = (): void => {
  modalChunk.preload().catch(() => {
    // A failed fetch is tried again when the modal is needed; the open then shows what failed.
  })
}

/** Renders the modal once it is first needed (opened, a toast shown, a visitor connected) and keeps it. */
export function KitModalLoader() {
  const isOpen = useSelector(useModalActor(), selectIsOpen)
  const toasting = useSelector(useToastActor(), (s) => s.context.current !== undefined)
  const connected = useSelector(useConnectionActor(), (s) => selectStatus(s) === 'connected')
  const [needed, setNeeded] = useState(false)
  if (!needed && (isOpen || toasting || connected)) setNeeded(true)
  if (!needed) return null
  const KitModal = modalChunk.component
  return (
    <Suspense fallback={null}>
      <KitModal />
    </Suspense>
  )
}
