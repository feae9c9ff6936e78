import { useKitActor } from '../context'
import { useT } from '../i18nViews'

/** Any view this build of the kit does not include yet: says so plainly and offers the way back. */
export default function Unavailable() {
  const kit = useKitActor()
  const t = useT()
  return (
    <div>
      <p className="ws-muted">{t('unavailable.text')}</p>
      <button type="button" className="ws-primary" onClick={() => kit.send({ type: 'router.back' })}>
        {t('common.goBack')}
      </button>
    </div>
  )
}
