import { type KeyboardEvent, Suspense, useEffect, useId, useLayoutEffect, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import { selectStatus } from '../../machines/connection'
import { selectIsOpen, selectView } from '../../machines/modal'
import { useSelector } from '../actor'
import { useKitActor } from '../context'
import { FOCUSABLE, focusForView } from '../controls'
import { GLYPH_BACK, GLYPH_CLOSE } from '../glyphs'
import { useConnectionActor, useKitAlerts, useModalActor, useToastActor } from '../hooks'
import { alertText, localizeText, useI18n, useT } from '../i18n'
import KIT_CSS from '../kit.css?inline'
import { themeStyle } from '../theme'
import { AccountNameLabel, preloadAccountView, viewComponent, viewTitle } from '../views/registry'
import { ViewLoading } from './ViewLoading'

/**
 * The kit's root element: theme variables, stylesheet, the modal while open, and the toast host. Rendered
 * into `document.body` so host styles and stacking contexts cannot clip it.
 */
export function KitModal() {
  const { themeMode, themeVariables } = useSelector(useKitActor(), (s) => s.context.theme)
  const modal = useModalActor()
  const isOpen = useSelector(modal, selectIsOpen)
  const { locale, dir } = useI18n()
  const connected = useAccountViewAhead()
  const [container, setContainer] = useState<HTMLElement | null>(null)
  useEffect(() => setContainer(document.body), [])
  if (!container) return null
  return createPortal(
    <div
      data-walletstate=""
      data-theme={themeMode}
      lang={locale}
      dir={dir}
      style={themeStyle(themeMode, themeVariables)}
    >
      <style>{KIT_CSS}</style>
      {isOpen ? <Dialog /> : null}
      <ToastHost />
      {connected ? (
        <Suspense>
          <AccountNameLabel />
        </Suspense>
      ) : null}
    </div>,
    container,
  )
}

/**
 * A connected visitor's click opens the modal on Account: its code is fetched as soon as a visitor is connected
 * (a connection made, or restored at start), so that click finds it there.
 */
function useAccountViewAhead() {
  const connected = useSelector(useConnectionActor(), (s) => selectStatus(s) === 'connected')
  useEffect(() => {
    if (connected) preloadAccountView()
  }, [connected])
  return connected
}

function Dialog() {
  const kit = useKitActor()
  const modal = useModalActor()
  const view = useSelector(modal, selectView)
  const depth = useSelector(modal, (s) => s.context.history.length)
  const direction = useSelector(modal, (s) => s.context.direction)
  const transitioning = useSelector(modal, (s) => s.hasTag('transitioning'))
  const shaking = useSelector(modal, (s) => s.hasTag('shaking'))
  const canGoBack = depth > 1
  const titleId = useId()
  const dialogRef = useRef<HTMLDivElement>(null)
  const bodyRef = useRef<HTMLDivElement>(null)
  const contentRef = useRef<HTMLDivElement>(null)
  const capabilities = useSelector(kit, (s) => s.context.input.capabilities)
  const View = viewComponent(view, capabilities)
  const t = useT()
  // The view the dialog opened on shows at once: only a change of view within an open dialog animates its
  // content and title in (SPEC §2 durations); opening moves the dialog but never hides what it shows.
  const viewKey = `${depth}:${view}`
  const [openedOn] = useState(viewKey)
  const moved = useRef(false)
  if (viewKey !== openedOn) moved.current = true
  const changed = moved.current ? direction : undefined

  // Focus returns to whatever opened the modal (the host's button) when it closes.
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    return () => {
      if (opener?.isConnected) opener.focus()
    }
  }, [])

  // Each new view takes focus, so a keyboard user is never left on a button that just unmounted.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the shown view changes
  useEffect(() => {
    const dialog = dialogRef.current
    if (!dialog) return
    const content = contentRef.current
    const first = content?.querySelector<HTMLElement>(FOCUSABLE)
    focusForView(first ?? dialog.querySelector<HTMLElement>(FOCUSABLE) ?? dialog)
  }, [view, depth])

  // The body animates to the height of the view it shows (SPEC §2: modal height 150 ms).
  useLayoutEffect(() => {
    const body = bodyRef.current
    const content = contentRef.current
    if (!body || !content || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(() => {
      body.style.height = `${content.offsetHeight}px`
    })
    observer.observe(content)
    return () => observer.disconnect()
  }, [])

  // Escape closes from inside the dialog, and also when focus fell back to the page because the focused
  // control unmounted (a view's state changed under it); a key meant for another page dialog is left alone.
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return
      const dialog = dialogRef.current
      const inside = dialog !== null && event.composedPath().includes(dialog)
      const nowhere = document.activeElement === null || document.activeElement === document.body
      if (inside || nowhere) kit.send({ type: 'modal.close' })
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [kit])

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Tab' || !dialogRef.current) return
    const items = [...dialogRef.current.querySelectorAll<HTMLElement>(FOCUSABLE)]
    const first = items[0]
    const last = items[items.length - 1]
    if (!first || !last) {
      event.preventDefault()
      return
    }
    if (
      event.shiftKey &&
      (document.activeElement === first || document.activeElement === dialogRef.current)
    ) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault()
      first.focus()
    }
  }

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the overlay closes on a pointer click; keyboard users have Escape and the close button
    // biome-ignore lint/a11y/useKeyWithClickEvents: as above
    <div
      className="ws-overlay"
      onClick={(event) => {
        if (event.target === event.currentTarget) kit.send({ type: 'modal.close' })
      }}
    >
      <div
        ref={dialogRef}
        className="ws-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        data-shaking={shaking ? '' : undefined}
        data-transitioning={transitioning ? '' : undefined}
      >
        <div className="ws-header">
          {canGoBack ? (
            <button
              type="button"
              className="ws-icon-button"
              aria-label={t('modal.back')}
              onClick={() => kit.send({ type: 'router.back' })}
            >
              <span aria-hidden="true" className="ws-flip">
                {GLYPH_BACK}
              </span>
            </button>
          ) : (
            <span />
          )}
          <h2 className="ws-title" id={titleId} key={view} data-direction={changed}>
            {viewTitle(view, t)}
          </h2>
          <button
            type="button"
            className="ws-icon-button"
            aria-label={t('modal.close')}
            onClick={() => kit.send({ type: 'modal.close' })}
          >
            <span aria-hidden="true">{GLYPH_CLOSE}</span>
          </button>
        </div>
        <Alerts />
        <div className="ws-body" ref={bodyRef}>
          <div ref={contentRef}>
            <div className="ws-view" key={viewKey} data-view={view} data-direction={changed}>
              <Suspense fallback={<ViewLoading />}>
                <View />
              </Suspense>
            </div>
          </div>
        </div>
      </div>
    </div>
  )
}

function Alerts() {
  const kit = useKitActor()
  const alerts = useKitAlerts()
  const t = useT()
  if (alerts.length === 0) return null
  return (
    <>
      {alerts.map((alert) => {
        const text = alertText(t, alert)
        return (
          <div key={alert.code} className="ws-alert" role="alert" data-alert={alert.code}>
            <div>
              <strong>{text.short}</strong>
              {text.long}
            </div>
            <button
              type="button"
              className="ws-icon-button"
              aria-label={t('modal.dismissAlert', { alert: text.short })}
              onClick={() => kit.send({ type: 'kit.dismissAlert', code: alert.code })}
            >
              <span aria-hidden="true">{GLYPH_CLOSE}</span>
            </button>
          </div>
        )
      })}
    </>
  )
}

function ToastHost() {
  const toast = useSelector(useToastActor(), (s) => s.context.current)
  const t = useT()
  if (!toast) return null
  return (
    <div
      className="ws-toast"
      role={toast.variant === 'error' ? 'alert' : 'status'}
      data-variant={toast.variant}
    >
      {localizeText(t, toast.message)}
    </div>
  )
}
