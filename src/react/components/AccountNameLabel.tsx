import { useQuery, useQueryClient } from '@tanstack/react-query'
import { dataApiClientFor, namesQuery } from '../../api/queries'
import { caipChainId } from '../../utils/caip'
import { useKitAccount, useKitConfig } from '../hooks'

/**
 * The connected account's name (issue 20), for the host button's accessible name ("0xf3...b92266
 * (alice.reown.id)"): the button is labelled by its own text and this hidden element. The reverse look-up is the
 * one the Account view makes (one query, cached 5 min, SPEC §9). The modal renders it while a visitor is
 * connected, from the Account view's chunk (views/accountChunk.ts): neither it nor the Data API client is on the host
 * page's first-click path.
 */
/** The id the host button's `aria-labelledby` names (components/ConnectButton.tsx: the same text there). */
const ACCOUNT_NAME_ID = 'ws-account-name'

export default function AccountNameLabel() {
  const { address, chainId, namespace } = useKitAccount()
  const api = dataApiClientFor(useKitConfig(), useQueryClient())
  // Names are eip155's (SPEC §1).
  const enabled = !!address && namespace === 'eip155' && chainId !== undefined
  const names = useQuery({
    ...namesQuery(api, { address: address ?? '', chainId: caipChainId(chainId ?? 0), sender: address ?? '' }),
    enabled,
  })
  const name = enabled ? names.data?.[0]?.name : undefined
  if (!name) return null
  return (
    <span id={ACCOUNT_NAME_ID} hidden>
      ({name})
    </span>
  )
}
