import { type SendActorRef, selectFormError, selectSendStatus } from '../../machines/send'
import { useSelector } from '../actor'
import { SendFlowLoading, useRefreshAfterSend, useSendFlow } from '../components/sendShared'
import { ViewLoading } from '../components/ViewLoading'
import { useKitActor } from '../context'
import { useT } from '../i18nViews'
import { SendPreview } from './WalletSendPreview'

/**
 * Pay (SPEC §1 `pay`, loaded on demand; issue 18): the host's payment, a fixed amount to a fixed recipient. It is
 * the send flow with its form filled by the kit (`pay.open`): the same preview, fee and progress as
 * WalletSendPreview, with Pay asking the wallet. Leaving it (Cancel, close, Escape) ends the payment; the
 * outcome reaches the host through `useKitPay`.
 */
export default function Pay() {
  const { send, failed, retry } = useSendFlow()
  useRefreshAfterSend(send)
  if (!send) return <SendFlowLoading failed={failed} retry={retry} />
  return <PayReview send={send} />
}

function PayReview({ send }: { send: SendActorRef }) {
  const kit = useKitActor()
  const stage = useSelector(send, selectSendStatus)
  const formError = useSelector(send, selectFormError)
  const t = useT()
  if (stage === 'editing' || stage === 'resolving' || stage === 'checkingToken') {
    // The send flow refused the payment's form (e.g. more than the balance): said, and Pay can only be left.
    if (!formError) return <ViewLoading label={t('pay.preparing')} />
    return (
      <div className="ws-stack">
        <p className="ws-error-text" role="alert">
          {formError.message}
        </p>
        <button type="button" className="ws-secondary" onClick={() => kit.send({ type: 'modal.close' })}>
          {t('common.cancel')}
        </button>
      </div>
    )
  }
  return (
    <div className="ws-stack">
      <p className="ws-muted">{t('pay.review')}</p>
      <SendPreview send={send} confirmLabel={t('pay.pay')} editLabel={t('common.cancel')} />
    </div>
  )
}
