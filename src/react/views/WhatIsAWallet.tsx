import { useKitActor } from '../context'
import { useT } from '../i18nViews'

/** A short explanation for first-time visitors, reached from Connect. */
export default function WhatIsAWallet() {
  const kit = useKitActor()
  const t = useT()
  return (
    <div>
      <p className="ws-muted">{t('whatIsAWallet.keys')}</p>
      <p className="ws-muted">{t('whatIsAWallet.ways')}</p>
      <button type="button" className="ws-primary" onClick={() => kit.send({ type: 'router.back' })}>
        {t('whatIsAWallet.gotIt')}
      </button>
    </div>
  )
}
