import { useId, useState } from 'react'
import { isNativeToken, type SendActorRef } from '../../machines/send'
import { useSelector } from '../actor'
import { AccountStyle, formatQuantity, useAccountBalances } from '../components/accountShared'
import { SendFlowLoading, useSendFlow } from '../components/sendShared'
import { TokenIcon, useTokenImage } from '../components/TokenIcon'
import { useKitActor } from '../context'
import { useI18n } from '../i18nViews'

/** SPEC §2 WalletSendSelectToken: the account's token balances to send from, searchable by name or symbol. */
export default function WalletSendSelectToken() {
  const { send, failed, retry } = useSendFlow()
  const balances = useAccountBalances()
  if (!send) return <SendFlowLoading failed={failed} retry={retry} />
  return <TokenPicker send={send} balances={balances} />
}

function TokenPicker({
  send,
  balances,
}: {
  send: SendActorRef
  balances: ReturnType<typeof useAccountBalances>
}) {
  const kit = useKitActor()
  const tokens = useSelector(send, (s) => s.context.tokenBalances)
  const selected = useSelector(send, (s) => s.context.token)
  const [search, setSearch] = useState('')
  const tokenImage = useTokenImage()
  const searchId = useId()
  const { t, locale } = useI18n()
  const wanted = search.trim().toLowerCase()
  const shown = wanted
    ? tokens.filter((t) => t.name.toLowerCase().includes(wanted) || t.symbol.toLowerCase().includes(wanted))
    : tokens
  return (
    <div className="ws-stack">
      <AccountStyle />
      <label className="ws-label" htmlFor={searchId}>
        {t('tokens.search')}
      </label>
      <input
        id={searchId}
        className="ws-input"
        type="search"
        autoComplete="off"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      {tokens.length === 0 ? (
        balances.status === 'loading' ? (
          <p className="ws-status ws-muted" role="status">
            <span className="ws-spinner ws-spinner-small" aria-hidden="true" />
            {t('tokens.loading')}
          </p>
        ) : (
          <div className="ws-stack">
            <p className="ws-muted">{t('send.noTokens')}</p>
            {balances.status === 'blocked' || balances.status === 'idle' ? (
              <button
                type="button"
                className="ws-secondary"
                disabled={!balances.canRetry}
                onClick={balances.retry}
              >
                {t('common.tryAgain')}
              </button>
            ) : null}
          </div>
        )
      ) : shown.length === 0 ? (
        <p className="ws-muted">{t('tokens.noMatch', { query: search.trim() })}</p>
      ) : (
        <ul className="ws-list" aria-label={t('tab.tokens')}>
          {shown.map((token) => {
            const current =
              selected?.chainId === token.chainId &&
              (isNativeToken(selected) ? isNativeToken(token) : selected.address === token.address)
            return (
              <li key={`${token.chainId}:${token.address ?? 'native'}`}>
                <button
                  type="button"
                  className="ws-item"
                  data-symbol={token.symbol}
                  aria-current={current ? 'true' : undefined}
                  onClick={() => {
                    kit.send({ type: 'send.setToken', token })
                    kit.send({ type: 'router.back' })
                  }}
                >
                  <TokenIcon src={token.iconUrl} fallback={tokenImage(token.symbol)} />
                  <span className="ws-grow">
                    <span>{token.name}</span>
                    <span className="ws-muted ws-small">{token.symbol}</span>
                  </span>
                  <span className="ws-end">
                    {formatQuantity(token.quantity.numeric, 4, locale)} {token.symbol}
                  </span>
                </button>
              </li>
            )
          })}
        </ul>
      )}
    </div>
  )
}
