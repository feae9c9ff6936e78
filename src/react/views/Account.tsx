import { useSelector } from '@xstate/react'
import { lazy, Suspense } from 'react'
import { formatUnits } from 'viem'
import { useBalance } from 'wagmi'
import { truncateAddress } from '../../utils/format'
import { useKitActor } from '../context'
import { useConnectionActor, useFrameActor, useKitAccount, useKitConfig } from '../hooks'

/** Only an embedded wallet's account needs it, so it loads with the login frame's code, not with the kit. */
const EmbeddedAccount = lazy(() => import('../components/EmbeddedAccount'))

/**
 * SPEC §2 Account: the connected account, its network and balance, and Disconnect; for an embedded wallet
 * also its login, "Update email" and the account type.
 */
export function AccountView() {
  const kit = useKitActor()
  const config = useKitConfig()
  const { address, chainId, status } = useKitAccount()
  const connection = useConnectionActor()
  const error = useSelector(connection, (s) => s.context.error)
  const disconnecting = useSelector(connection, (s) => s.matches('disconnecting'))
  const embedded = useSelector(useFrameActor(), (s) => s?.hasTag('connected') ?? false)
  const network = config.networks.find((n) => n.chainNamespace === 'eip155' && Number(n.id) === chainId)
  const balance = useBalance({ address, chainId, query: { enabled: !!address && !!network } })
  if (status !== 'connected' || !address) {
    return <p className="ws-muted">No account is connected.</p>
  }
  const shownBalance =
    !network || !balance.data
      ? balance.isLoading
        ? 'Loading balance…'
        : network
          ? 'Balance unavailable'
          : '0.00'
      : `${formatAmount(formatUnits(balance.data.value, balance.data.decimals))} ${balance.data.symbol}`
  return (
    <div className="ws-center">
      <p className="ws-address" title={address} data-testid="account-address">
        {truncateAddress(address)}
      </p>
      <p className="ws-balance" data-testid="account-balance" aria-live="polite">
        {shownBalance}
      </p>
      <button
        type="button"
        className="ws-secondary"
        style={{ width: '100%' }}
        onClick={() => kit.send({ type: 'router.push', view: 'Networks' })}
      >
        {network?.name ?? 'Unsupported network'}
      </button>
      {embedded ? (
        <Suspense fallback={null}>
          <EmbeddedAccount />
        </Suspense>
      ) : null}
      {error ? (
        <p className="ws-error-text" role="alert">
          {error.message}
        </p>
      ) : null}
      <button
        type="button"
        className="ws-primary"
        disabled={disconnecting}
        onClick={() => kit.send({ type: 'connection.disconnect' })}
      >
        {disconnecting ? 'Disconnecting…' : 'Disconnect'}
      </button>
    </div>
  )
}

/** Up to 4 decimals, trailing zeros dropped. */
function formatAmount(value: string): string {
  const [whole, fraction = ''] = value.split('.')
  const trimmed = fraction.slice(0, 4).replace(/0+$/, '')
  return trimmed ? `${whole}.${trimmed}` : (whole ?? '0')
}
