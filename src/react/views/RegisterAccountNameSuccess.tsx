import type { NamesActorRef } from '../../machines/names'
import { useSelector } from '../actor'
import { NamesFlowLoading, NamesStyle, useNamesFlow } from '../components/namesShared'
import { useKitActor } from '../context'
import { rich, useT } from '../i18nViews'

/**
 * Issue 20 RegisterAccountNameSuccess: the name just registered, and the way back to Account (which shows it:
 * the kit reads the account's names again after a registration).
 */
export default function RegisterAccountNameSuccess() {
  const { names, failed, retry } = useNamesFlow()
  if (!names) return <NamesFlowLoading failed={failed} retry={retry} />
  return <Registered names={names} />
}

function Registered({ names }: { names: NamesActorRef }) {
  const kit = useKitActor()
  const name = useSelector(names, (s) => s.context.registeredName)
  const t = useT()
  return (
    <div className="ws-names ws-center">
      <NamesStyle />
      {name ? (
        <p className="ws-name-registered" role="status" data-testid="registered-name">
          {rich(t('names.registeredAs'), { name: <bdi>{name}</bdi> })}
        </p>
      ) : (
        <p className="ws-muted">{t('names.nothingRegistered')}</p>
      )}
      {name ? <p className="ws-muted">{t('names.registeredText')}</p> : null}
      <button
        type="button"
        className="ws-primary"
        onClick={() => kit.send({ type: 'router.reset', view: 'Account' })}
      >
        {t('names.backToAccount')}
      </button>
    </div>
  )
}
