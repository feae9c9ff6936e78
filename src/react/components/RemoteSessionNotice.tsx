import type { ActorRefFrom, AnyActorRef } from 'xstate'
import type { sessionMachine } from '../../machines/session'
import { useSelector } from '../actor'
import { useKitActor } from '../context'
import { useT } from '../i18nViews'

type SessionRef = ActorRefFrom<typeof sessionMachine>

/** The session client's sessions (children `session:<topic>`), by topic. */
const sessionsOf = (children: Record<string, AnyActorRef | undefined> | undefined) =>
  Object.entries(children ?? {})
    .filter(([id, ref]) => id.startsWith('session:') && ref)
    .map(([id, ref]) => [id.slice('session:'.length), ref as SessionRef] as const)

/**
 * SPEC §4, §7: the WalletConnect wallet did not answer a ping or an extension of the session. The session is kept
 * (not a silent disconnect): the visitor is told, and may ask the wallet again or disconnect. Shown in Account
 * while the kit is connected through WalletConnect.
 */
export function RemoteSessionNotice() {
  const kit = useKitActor()
  const remote = useSelector(kit, (s) =>
    s.context.connected?.connectorId === s.context.input.connectorIds.walletConnect
      ? s.context.remoteSessions
      : undefined,
  )
  const children = useSelector(remote, (s) => s?.children as Record<string, AnyActorRef | undefined>)
  return (
    <>
      {sessionsOf(children).map(([topic, ref]) => (
        <SessionHealth key={topic} topic={topic} session={ref} remote={remote!} />
      ))}
    </>
  )
}

function SessionHealth({
  topic,
  session,
  remote,
}: {
  topic: string
  session: SessionRef
  remote: AnyActorRef
}) {
  const kit = useKitActor()
  const t = useT()
  const unresponsive = useSelector(session, (s) => s.hasTag('unresponsive'))
  const checking = useSelector(session, (s) => s.hasTag('unresponsive') && s.hasTag('busy'))
  if (!unresponsive) return null
  return (
    <div className="ws-notice" data-testid="wallet-not-answering">
      <p className="ws-error-text" role="alert">
        {t('wc.notAnswering')}
      </p>
      {checking ? (
        <p className="ws-muted ws-status" role="status">
          <span className="ws-spinner ws-spinner-small" aria-hidden="true" />
          {t('wc.checkingWallet')}
        </p>
      ) : null}
      <div className="ws-row">
        <button
          type="button"
          className="ws-secondary"
          disabled={checking}
          onClick={() => remote.send({ type: 'session.ping', topic })}
        >
          {t('common.tryAgain')}
        </button>
        <button
          type="button"
          className="ws-secondary"
          onClick={() => kit.send({ type: 'connection.disconnect' })}
        >
          {t('common.disconnect')}
        </button>
      </div>
    </div>
  )
}
