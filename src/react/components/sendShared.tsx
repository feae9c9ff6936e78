import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { dataApiKeys } from '../../api/queries'
import type { SendActorRef } from '../../machines/send'
import { useCapability, useKitAccount } from '../hooks'
import { useT } from '../i18nViews'
import { useDataApi } from './accountShared'
import { ViewLoading } from './ViewLoading'

/*
 * Pieces the send views share (they load on demand, and so does this file).
 */

/**
 * The send flow's machine; asks the kit to load it (the machine and its wagmi actors load on first use).
 * `failed` says that its code did not load.
 */
export function useSendFlow(): { send: SendActorRef | undefined; failed: boolean; retry: () => void } {
  const { actor: send, status, retry } = useCapability<SendActorRef>('send')
  return { send, failed: status === 'failed', retry }
}

/** What a send view shows while the send flow's code loads, or when it did not. */
export function SendFlowLoading({ failed, retry }: { failed: boolean; retry: () => void }) {
  const t = useT()
  if (!failed) return <ViewLoading />
  return (
    <div className="ws-stack">
      <p className="ws-error-text" role="alert">
        {t('send.unavailable')}
      </p>
      <button type="button" className="ws-secondary" onClick={retry}>
        {t('common.tryAgain')}
      </button>
    </div>
  )
}

/**
 * After a send succeeds, the account's data (history, NFTs, names; SPEC §7 calls cached by react-query) and the
 * native balance are read again. The kit itself routes the modal and refreshes the token balances.
 */
export function useRefreshAfterSend(send: SendActorRef | undefined) {
  const queryClient = useQueryClient()
  const api = useDataApi()
  const { address } = useKitAccount()
  useEffect(() => {
    if (!send || !address) return
    const subscription = send.on('send.succeeded', () => {
      void queryClient.invalidateQueries({ queryKey: dataApiKeys.account(api, address) })
      // wagmi's balance queries (the Account view's native balance).
      void queryClient.invalidateQueries({ queryKey: ['balance'] })
    })
    return () => subscription.unsubscribe()
  }, [send, address, api, queryClient])
}
