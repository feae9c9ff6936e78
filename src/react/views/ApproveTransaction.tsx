import { useEffect, useId, useRef, useState } from 'react'
import { useSelector } from '../actor'
import { FrameViewsStyle, Progress } from '../components/frameViews'
import { ViewLoading } from '../components/ViewLoading'
import { useKitActor } from '../context'
import { useFrameActor } from '../hooks'
import { type MessageKey, useT } from '../i18nViews'

const REQUESTS: Record<string, MessageKey> = {
  personal_sign: 'approve.message',
  eth_signTypedData_v4: 'approve.typedData',
  eth_sendTransaction: 'approve.sendTransaction',
  solana_signMessage: 'approve.message',
  solana_signTransaction: 'approve.signTransaction',
  solana_signAndSendTransaction: 'approve.sendTransaction',
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
  const t = useT()
  // The frame's iframe stays where the transport put it, at the end of the page, outside the dialog (moving it
  // would reload it): the slot it is laid over owns it in the accessibility tree, so a screen reader meets the
  // approval inside the modal, where `aria-modal` keeps it.
  const [frameId, setFrameId] = useState<string>()

  useEffect(() => {
    const container = slot.current
    if (!container || !shown) return
    const place = () => kit.send({ type: 'frame.showIn', container })
    place()
    setFrameId(container.ownerDocument.querySelector('iframe[data-walletstate-frame]')?.id || undefined)
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
  const request = method ? REQUESTS[method] : undefined
  const what = request ? t(request) : method ? t('approve.method', { method }) : t('approve.request')
  return (
    <div className="ws-stack">
      <FrameViewsStyle />
      <p className="ws-muted" id={descriptionId}>
        {t('approve.text', { what })}
      </p>
      <section
        ref={slot}
        className="ws-frame-slot"
        aria-label={t('approve.slot')}
        aria-describedby={descriptionId}
        aria-owns={shown ? frameId : undefined}
        tabIndex={-1}
        data-testid="approve-frame-slot"
      >
        {shown ? (
          <Progress>{t('approve.opening')}</Progress>
        ) : (
          <p className="ws-muted" role="status">
            {t('approve.none')}
          </p>
        )}
      </section>
    </div>
  )
}
