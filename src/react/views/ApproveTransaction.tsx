import { useEffect, useId, useRef } from 'react'
import { useSelector } from '../actor'
import { FrameViewsStyle, Progress } from '../components/frameViews'
import { ViewLoading } from '../components/ViewLoading'
import { useKitActor } from '../context'
import { useFrameActor } from '../hooks'

const REQUESTS: Record<string, string> = {
  personal_sign: 'a message to sign',
  eth_signTypedData_v4: 'typed data to sign',
  eth_sendTransaction: 'a transaction to send',
  solana_signMessage: 'a message to sign',
  solana_signTransaction: 'a transaction to sign',
  solana_signAndSendTransaction: 'a transaction to send',
}

/**
 * ApproveTransaction (SPEC §6): a signing request of the embedded wallet waits for the visitor. The secure
 * frame itself asks: the view keeps a place for it, and the frame's transport lays the iframe over that place
 * (the iframe never moves in the page, which would reload it and lose the request). The place is announced
 * again whenever the modal has finished moving, so the frame follows it.
 */
export default function ApproveTransaction() {
  const kit = useKitActor()
  const frame = useFrameActor()
  const method = useSelector(frame, (s) => s?.context.approval?.method)
  const shown = useSelector(frame, (s) => s?.hasTag('showFrame') ?? false)
  const slot = useRef<HTMLElement>(null)
  const descriptionId = useId()

  useEffect(() => {
    const container = slot.current
    if (!container || !shown) return
    const place = () => kit.send({ type: 'frame.showIn', container })
    place()
    container.focus()
    // The view slides in and the modal's height animates: the slot's box moves without being resized.
    const dialog = container.closest('[role="dialog"]')
    dialog?.addEventListener('animationend', place)
    dialog?.addEventListener('transitionend', place)
    return () => {
      dialog?.removeEventListener('animationend', place)
      dialog?.removeEventListener('transitionend', place)
    }
  }, [kit, shown])

  if (!frame) return <ViewLoading />
  const what = method ? (REQUESTS[method] ?? `a ${method} request`) : 'a request'
  return (
    <div className="ws-stack">
      <FrameViewsStyle />
      <p className="ws-muted" id={descriptionId}>
        Your wallet has {what}. Review it in the secure window below and confirm or decline there; this site
        cannot see or change what you approve.
      </p>
      <section
        ref={slot}
        className="ws-frame-slot"
        aria-label="Secure window"
        aria-describedby={descriptionId}
        tabIndex={-1}
        data-testid="approve-frame-slot"
      >
        {shown ? (
          <Progress>Opening the secure window…</Progress>
        ) : (
          <p className="ws-muted" role="status">
            No request is waiting for approval.
          </p>
        )}
      </section>
    </div>
  )
}
