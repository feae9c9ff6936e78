import { useId, useState } from 'react'
import { isNative, type SwapActorRef, type SwapToken, selectSwapStatus } from '../../machines/swap'
import { useSelector } from '../actor'
import { AccountStyle, formatQuantity, useAccountBalances } from '../components/accountShared'
import { PickRowStyle } from '../components/pickRow'
import {
  SwapFlowLoading,
  SwapStyle,
  SwapTokensState,
  swapBalanceOf,
  TokenLogo,
  useSwapFlow,
} from '../components/swapShared'
import { useTokenImage } from '../components/TokenIcon'
import { useKitActor } from '../context'
import { useModalActor } from '../hooks'
import { useI18n } from '../i18nViews'

/** Which side of the swap the picker chooses for: the view's data (`router.push` … `data: { side }`). */
type Side = 'from' | 'to'

/**
 * Issue 16 SwapSelectToken: the tokens the convert API swaps, searchable by name, symbol or address, each with
 * the account's balance of it. Choosing one sets that side of the pair (choosing the other side's token
 * switches the two) and goes back to the form.
 */
export default function SwapSelectToken() {
  const { swap, failed, retry } = useSwapFlow()
  useAccountBalances()
  const side = useSelector(useModalActor(), (s) => sideOf(s.context.viewData.at(-1)))
  if (!swap) return <SwapFlowLoading failed={failed} retry={retry} />
  return <TokenPicker swap={swap} side={side} />
}

function sideOf(data: unknown): Side {
  return typeof data === 'object' && data !== null && 'side' in data && data.side === 'to' ? 'to' : 'from'
}

function sameToken(a: SwapToken, b: SwapToken): boolean {
  if (a.chainId !== b.chainId) return false
  if (isNative(a) || isNative(b)) return isNative(a) && isNative(b)
  return a.address.toLowerCase() === b.address.toLowerCase()
}

function TokenPicker({ swap, side }: { swap: SwapActorRef; side: Side }) {
  const kit = useKitActor()
  const status = useSelector(swap, selectSwapStatus)
  const tokens = useSelector(swap, (s) => s.context.tokens)
  const balances = useSelector(swap, (s) => s.context.balances)
  const selected = useSelector(swap, (s) => (side === 'from' ? s.context.from : s.context.to))
  const error = useSelector(swap, (s) => s.context.error)
  const [search, setSearch] = useState('')
  const tokenImage = useTokenImage()
  const searchId = useId()
  const listId = useId()
  const { t, locale } = useI18n()
  const wanted = search.trim().toLowerCase()
  const shown = wanted
    ? tokens.filter(
        (t) =>
          t.symbol.toLowerCase().includes(wanted) ||
          t.name.toLowerCase().includes(wanted) ||
          t.address.toLowerCase() === wanted,
      )
    : tokens

  if (status === 'loading' || status === 'tokensFailed')
    return <SwapTokensState status={status} error={error} onRetry={() => kit.send({ type: 'swap.retry' })} />
  const choose = (token: SwapToken) => {
    kit.send(side === 'from' ? { type: 'swap.selectFrom', token } : { type: 'swap.selectTo', token })
    kit.send({ type: 'router.back' })
  }
  return (
    <div className="ws-stack">
      <AccountStyle />
      <SwapStyle />
      <PickRowStyle />
      <p className="ws-muted ws-small">{side === 'from' ? t('swap.choosePay') : t('swap.chooseReceive')}</p>
      <label className="ws-label" htmlFor={searchId}>
        {t('tokens.search')}
      </label>
      <input
        id={searchId}
        className="ws-input"
        type="search"
        autoComplete="off"
        spellCheck={false}
        aria-controls={listId}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      {tokens.length === 0 ? (
        <p className="ws-muted">{t('swap.noTokens')}</p>
      ) : shown.length === 0 ? (
        <p className="ws-muted">{t('tokens.noMatch', { query: search.trim() })}</p>
      ) : (
        <ul className="ws-list" id={listId} aria-label={t('tab.tokens')}>
          {shown.map((token, index) => {
            const balance = swapBalanceOf(balances, token)
            const detailId = `${listId}-${index}`
            return (
              <li key={`${token.chainId}:${token.address.toLowerCase()}`} className="ws-item ws-pick-row">
                <TokenLogo token={token} fallback={tokenImage(token.symbol)} />
                <span className="ws-grow">
                  {/* Named by its symbol alone (issue 16's contract), all it shows; its name and balance,
                      beside it, describe it. */}
                  <button
                    type="button"
                    className="ws-pick ws-ellipsis"
                    data-symbol={token.symbol}
                    aria-describedby={detailId}
                    aria-current={selected && sameToken(selected, token) ? 'true' : undefined}
                    onClick={() => choose(token)}
                  >
                    {token.symbol || token.name || token.address}
                  </button>
                  <span className="ws-muted ws-small ws-ellipsis" id={detailId}>
                    {token.name}
                    {balance !== undefined
                      ? t('swap.tokenBalance', {
                          amount: `${formatQuantity(balance, 4, locale)} ${token.symbol}`,
                        })
                      : ''}
                  </span>
                </span>
                {balance !== undefined ? (
                  <span className="ws-end" aria-hidden="true">
                    {formatQuantity(balance, 4, locale)}
                  </span>
                ) : null}
              </li>
            )
          })}
        </ul>
      )}
    </div>
  )
}
