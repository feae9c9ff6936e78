import { type OnrampActorRef, selectOnrampStatus } from '../../machines/onramp'
import { useSelector } from '../actor'
import { OnrampFlowLoading, OnrampStyle, useOnrampFlow } from '../components/onrampShared'
import { useKitActor } from '../context'
import { errorText, useI18n } from '../i18nViews'

/**
 * Issue 19's purchase in progress: the partner page opening, then open in its own window while the kit waits for
 * the purchase to land (Cancel goes back to the form), then the amount received, or why it did not happen with
 * Try again (every choice of the form kept). The window closed with the order still pending, the
 * purchase is processing (the kit keeps reading it); past the time limit, a text says it may still complete and
 * where to look, with the way back to the account (its Activity) and to Buy.
 */
export default function OnRampPurchase() {
  const { onramp, failed, retry } = useOnrampFlow()
  if (!onramp) return <OnrampFlowLoading failed={failed} retry={retry} />
  return <Purchase onramp={onramp} />
}

function Purchase({ onramp }: { onramp: OnrampActorRef }) {
  const kit = useKitActor()
  const status = useSelector(onramp, selectOnrampStatus)
  const providerId = useSelector(onramp, (s) => s.context.provider)
  const provider = useSelector(
    onramp,
    (s) =>
      s.context.options?.providers.find((p) => p.id === s.context.provider)?.name ?? s.context.provider ?? '',
  )
  const purchase = useSelector(onramp, (s) => s.context.purchase)
  const error = useSelector(onramp, (s) => s.context.error)
  const { t } = useI18n()
  const backToForm = () => kit.send({ type: 'router.back' })
  /** Back to the form with every choice kept, fresh quotes asked for. */
  const retry = () => {
    kit.send({ type: 'onramp.retry' })
    backToForm()
  }

  if (status === 'done' && purchase) {
    return (
      <div className="ws-stack" data-provider={providerId}>
        <OnrampStyle />
        <p role="status">{t('onramp.received', { amount: purchase.amount, symbol: purchase.symbol })}</p>
        <button
          type="button"
          className="ws-primary"
          onClick={() => kit.send({ type: 'router.reset', view: 'Account' })}
        >
          {t('onramp.backToAccount')}
        </button>
      </div>
    )
  }
  if (status === 'failed') {
    return (
      <div className="ws-stack" data-provider={providerId}>
        <OnrampStyle />
        <p className="ws-error-text" role="alert">
          {error ? errorText(t, error) : t('onramp.notCompleted')}
        </p>
        <button type="button" className="ws-primary" onClick={retry}>
          {t('common.tryAgain')}
        </button>
      </div>
    )
  }
  if (status === 'unconfirmed') {
    return (
      <div className="ws-stack" data-provider={providerId}>
        <OnrampStyle />
        <p role="status">{t('onramp.stillProcessing', { provider })}</p>
        <button
          type="button"
          className="ws-primary"
          onClick={() => kit.send({ type: 'router.reset', view: 'Account' })}
        >
          {t('onramp.backToAccount')}
        </button>
        <button type="button" className="ws-secondary" onClick={retry}>
          {t('onramp.backToForm')}
        </button>
      </div>
    )
  }
  if (status === 'opening' || status === 'waiting' || status === 'processing') {
    const progress =
      status === 'opening'
        ? t('onramp.opening', { provider })
        : status === 'waiting'
          ? t('onramp.waiting', { provider })
          : t('onramp.processing', { provider })
    return (
      <div className="ws-stack" data-provider={providerId}>
        <OnrampStyle />
        <div className="ws-loading" role="status" aria-live="polite">
          <span className="ws-spinner" aria-hidden="true" />
          <span>{progress}</span>
        </div>
        <button
          type="button"
          className="ws-secondary"
          onClick={() => {
            kit.send({ type: 'onramp.cancel' })
            backToForm()
          }}
        >
          {t('common.cancel')}
        </button>
      </div>
    )
  }
  // Back on the form (cancelled elsewhere, or never chosen): nothing is in progress.
  return (
    <div className="ws-stack">
      <p className="ws-muted">{t('onramp.nothingInProgress')}</p>
      <button type="button" className="ws-secondary" onClick={backToForm}>
        {t('onramp.backToForm')}
      </button>
    </div>
  )
}
