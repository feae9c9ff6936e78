import { useEffect, useState } from 'react'
import { selectStatus } from '../../machines/connection'
import type { ModalActorRef } from '../../machines/kit'
import { selectIsOpen } from '../../machines/modal'
import { useSelector } from '../actor'
import { useKitActor } from '../context'
import { useConnectionActor, useModalActor, useToastActor } from '../hooks'
import { modalChunk, preloadKitModal } from '../modalChunk'

/**
 * Renders the modal once it is first needed (opened, a toast shown, a visitor connected) and keeps it. It
 * renders only code already fetched, never suspending: a suspended update is revealed after React's 300 ms
 * fallback throttle, which a visitor would see as a slow open.
 */
export function KitModalLoader() {
  const kit = useKitActor()
  const modal = useModalActor()
  const isOpen = useSelector(modal, selectIsOpen)
  const toasting = useSelector(useToastActor(), (s) => s.context.current !== undefined)
  const connected = useSelector(useConnectionActor(), (s) => selectStatus(s) === 'connected')
  const needed = isOpen || toasting || connected
  const [Modal, setModal] = useState(modalChunk.ready)
  useIntentPreload(Modal === undefined, modal)
  useEffect(() => {
    if (Modal || !needed) return
    let live = true
    modalChunk.preload().then(
      (module) => live && setModal(() => module.default),
      // Nothing to show the open in: it is undone, so the visitor's next click fetches the code again.
      () => live && isOpen && kit.send({ type: 'modal.close' }),
    )
    return () => {
      live = false
    }
  }, [Modal, needed, isOpen, kit])
  return Modal ? <Modal /> : null
}

/**
 * Fetches the modal's code on the visitor's first press or key anywhere on the page (a press comes before its
 * click, so an open from any host button starts with the fetch under way), and at the moment the modal opens
 * (a subscription runs as the event is sent; a render, and so an effect, would come later).
 */
function useIntentPreload(pending: boolean, modal: ModalActorRef) {
  useEffect(() => {
    if (!pending) return
    const intent = () => {
      preloadKitModal()
      stop()
    }
    const opened = modal.subscribe((snapshot) => {
      if (selectIsOpen(snapshot)) intent()
    })
    const stop = () => {
      opened.unsubscribe()
      document.removeEventListener('pointerdown', intent, true)
      document.removeEventListener('keydown', intent, true)
    }
    document.addEventListener('pointerdown', intent, true)
    document.addEventListener('keydown', intent, true)
    return stop
  }, [pending, modal])
}
