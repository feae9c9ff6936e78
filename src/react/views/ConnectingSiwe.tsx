import { type SignInActorRef, selectSignInStatus } from '../../machines/signIn'
import { truncateAddress } from '../../utils/format'
import { useSelector } from '../actor'
import { useKitActor } from '../context'
import { useCapability, useKitConfig } from '../hooks'
import { localizeText, rich, useT } from '../i18nViews'

/**
 * ConnectingSiwe (issue 15): the connected visitor signs a message to prove they own the account. "Sign in"
 * asks the wallet; "Cancel" goes on without (or disconnects, when the app requires sign-in). While the kit
 * looks for a kept session, or the wallet and the check run, a progress line says so; a failure shows its
 * message and "Sign in" tries again.
 */
export default function ConnectingSiwe() {
  const kit = useKitActor()
  const config = useKitConfig()
  const { actor: signIn, status: code, retry } = useCapability<SignInActorRef>('signIn')
  const loadFailed = code === 'failed'
  const status = useSelector(signIn, selectSignInStatus)
  const account = useSelector(signIn, (s) => s?.context.account)
  const error = useSelector(signIn, (s) => s?.context.error)
  const required = useSelector(signIn, (s) => s?.context.required ?? false)
  const busy = !loadFailed && (status === 'checking' || status === 'signing' || !signIn)
  const t = useT()
  const appName = config.metadata?.name ?? t('siwe.thisApp')
  const sign = () => (loadFailed ? retry() : kit.send({ type: 'signIn.sign' }))
  return (
    <div className="ws-center ws-stack" data-view-status={status}>
      <p>
        {rich(t('siwe.asks'), {
          app: <strong className="ws-strong">{appName}</strong>,
          account: account ? ` (${truncateAddress(account.address)})` : '',
        })}
      </p>
      {required ? <p className="ws-muted">{t('siwe.required')}</p> : null}
      {busy ? (
        <p className="ws-muted" role="status" aria-busy="true">
          <span className="ws-spinner ws-spinner-small" aria-hidden="true" />{' '}
          {status === 'signing' ? t('siwe.signing') : t('siwe.checking')}
        </p>
      ) : null}
      {error || loadFailed ? (
        <p className="ws-error-text" role="alert">
          {loadFailed ? t('siwe.loadFailed') : error ? localizeText(t, error) : null}
        </p>
      ) : null}
      <div className="ws-row">
        <button type="button" className="ws-secondary" onClick={() => kit.send({ type: 'signIn.cancel' })}>
          {t('common.cancel')}
        </button>
        <button type="button" className="ws-primary" onClick={sign} disabled={busy}>
          {t('siwe.signIn')}
        </button>
      </div>
    </div>
  )
}
