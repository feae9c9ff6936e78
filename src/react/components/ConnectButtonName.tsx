import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { dataApiClientFor, namesQuery } from '../../api/queries'
import { caipChainId } from '../../utils/caip'
import { useKitAccount, useKitConfig } from '../hooks'

/**
 * The connected account's name for the host button's accessible name (issue 20): the reverse look-up the Account
 * view also makes (one query, cached 5 min, SPEC §9). Its own chunk, fetched once a visitor is connected, so the
 * Data API client is not on the host page's first-click path. Renders nothing; hands the name up.
 */
export default function ConnectButtonName({
  address,
  onName,
}: {
  address: string
  onName: (name: string | undefined) => void
}) {
  const { chainId, namespace } = useKitAccount()
  const api = dataApiClientFor(useKitConfig(), useQueryClient())
  // Names are eip155's (SPEC §1).
  const enabled = namespace === 'eip155' && chainId !== undefined
  const names = useQuery({
    ...namesQuery(api, { address, chainId: caipChainId(chainId ?? 0), sender: address }),
    enabled,
  })
  const name = enabled ? names.data?.[0]?.name : undefined
  useEffect(() => {
    onName(name)
    return () => onName(undefined)
  }, [name, onName])
  return null
}
