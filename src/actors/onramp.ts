import { fromCallback, fromPromise } from 'xstate'
import type { DataApiClient, HistoryItem } from '../api/dataApi'
import { type OnrampClient, partnerOriginRefusal } from '../api/onramp'
import { ONRAMP_PARTNER_ORIGINS } from '../constants'
import {
  OnrampPopupBlockedError,
  OnrampPurchasesError,
  type OnrampStage,
  toOnrampError,
} from '../errors/onramp'
import type {
  OnrampChainId,
  OnrampEvent,
  OnrampOptions,
  OnrampOrder,
  OnrampPartnerCommand,
  OnrampPartnerInput,
  OnrampPurchasesRequest,
  OnrampQuote,
  OnrampQuoteRequest,
  OnrampUrlRequest,
} from '../machines/onramp/types'

/** How often the partner window is checked for having been closed. Ours. */
export const PARTNER_CLOSED_POLL_MS = 500

/** The part of a browser window the partner hand-off uses. */
export interface PartnerWindow {
  readonly closed: boolean
  opener: unknown
  location: { replace(url: string): void }
  close(): void
}

export interface OnrampActorsParameters {
  onramp: OnrampClient
  /** The Data API client: its history call with `onramp=<provider>` lists a provider's orders. */
  dataApi: Pick<DataApiClient, 'getHistory'>
  /** Opens a new browsing context (default: `window.open(url, '_blank')`); `null` when the browser refused. */
  open?: (url: string, target: string) => PartnerWindow | null
  /** How often the window is checked for having been closed (default {@link PARTNER_CLOSED_POLL_MS}). */
  closedPollMs?: number
  /**
   * The origins each provider's partner page may be on (the resolved config's `onrampPartnerOrigins`); default
   * {@link ONRAMP_PARTNER_ORIGINS}. The window is sent nowhere else, whatever the URL generator answered.
   */
  partnerOrigins?: Readonly<Record<string, readonly string[]>>
}

/**
 * The onramp machine's slots (src/machines/onramp.ts): the Data API's onramp calls (src/api/onramp.ts), its
 * history with `onramp=<provider>` for the provider's orders, and a browser window for the partner page. Every
 * failure leaves as one of the onramp's errors (src/errors/onramp.ts), the Data API's own kept as they are.
 *
 * @example
 * onrampMachine.provide({ actors: createOnrampActors({ onramp: createOnrampClient({ api, projectId }), dataApi }) })
 */
export function createOnrampActors({
  onramp,
  dataApi,
  open = defaultOpen,
  closedPollMs = PARTNER_CLOSED_POLL_MS,
  partnerOrigins = ONRAMP_PARTNER_ORIGINS,
}: OnrampActorsParameters) {
  const mapped =
    <I, O>(stage: OnrampStage, run: (input: I, signal: AbortSignal) => Promise<O>) =>
    async ({ input, signal }: { input: I; signal: AbortSignal }) => {
      try {
        return await run(input, signal)
      } catch (error) {
        throw toOnrampError(error, stage)
      }
    }
  return {
    fetchOptions: fromPromise<OnrampOptions, { chainId: OnrampChainId }>(
      mapped('options', (_, signal) => onramp.options(signal)),
    ),
    fetchQuote: fromPromise<OnrampQuote, OnrampQuoteRequest>(
      mapped('quote', (input, signal) => onramp.quote(input, signal)),
    ),
    generateUrl: fromPromise<string, OnrampUrlRequest>(
      mapped('url', (input, signal) => onramp.url(input, signal)),
    ),
    fetchPurchases: fromPromise<OnrampOrder[], OnrampPurchasesRequest>(
      mapped('purchases', async (input, signal) => {
        const chainId = typeof input.chainId === 'number' ? `eip155:${input.chainId}` : input.chainId
        const page = await dataApi.getHistory({
          account: input.address,
          chainId,
          onramp: input.provider,
          signal,
        })
        if (!page.supported)
          throw new OnrampPurchasesError({ details: `The Data API does not serve ${chainId}` })
        return ordersOf(page.data)
      }),
    ),
    openPartner: fromCallback<OnrampPartnerCommand, OnrampPartnerInput>(({ input, sendBack, receive }) =>
      openPartnerWindow(input, (event) => sendBack(event), receive, { open, closedPollMs, partnerOrigins }),
    ),
  }
}

/** A delivery's transaction: an eip155 hash, or a Solana signature (64 bytes in base58). */
const HASH = /^(0x[0-9a-fA-F]{64}|[1-9A-HJ-NP-Za-km-z]{64,88})$/

/**
 * A provider's orders from its history page (issue 19: `operationType` `buy`, the order id as `id`, the purchase
 * as the transfer in); anything else the page holds is not an order.
 */
export function ordersOf(items: readonly HistoryItem[]): OnrampOrder[] {
  return items
    .filter((item) => item.metadata.operationType === 'buy')
    .map((item) => {
      const transfer =
        item.transfers.find((t) => t.direction === 'in' && t.fungible_info) ?? item.transfers[0]
      return {
        id: item.id,
        status: item.metadata.status,
        amount: transfer?.quantity.numeric ?? '',
        symbol: transfer?.fungible_info?.symbol ?? '',
        hash: HASH.test(item.metadata.hash) ? item.metadata.hash : '',
      }
    })
}

function defaultOpen(url: string, target: string): PartnerWindow | null {
  if (typeof window === 'undefined') throw new Error('No browser window to open the partner page in')
  return window.open(url, target)
}

/**
 * The partner window, opened blank at once: the caller starts it in the visitor's click (the onramp machine
 * spawns it on `onramp.choose`), so the browser lets it open; opened later, after the calls that make its URL, it
 * would be a pop-up the browser blocks. `onramp.partnerFailed` when the browser refused. Its `opener` is cut
 * before anything is loaded, so the partner page cannot reach back into the host page while the kit keeps the
 * handle it watches `closed` on (`onramp.partnerClosed`).
 *
 * `partner.navigate` sends it to the partner page when the URL's origin is one of the provider's
 * (`onramp.partnerOpened`); another origin is refused (`onramp.partnerFailed` with `OnrampPartnerOriginError`)
 * and the window goes nowhere. Returns the cleanup: watching stops; a window still blank (never sent to the
 * partner: the URL failed or was refused, or the flow was cancelled) is closed, the partner's page stays (it is
 * the visitor's).
 *
 * @example
 * const stop = openPartnerWindow({ provider: 'coinbase' }, send, receive, { open, closedPollMs: 500, partnerOrigins })
 */
export function openPartnerWindow(
  input: OnrampPartnerInput,
  send: (event: OnrampEvent) => void,
  receive: (listener: (command: OnrampPartnerCommand) => void) => void,
  {
    open,
    closedPollMs,
    partnerOrigins,
  }: {
    open: NonNullable<OnrampActorsParameters['open']>
    closedPollMs: number
    partnerOrigins: Readonly<Record<string, readonly string[]>>
  },
): () => void {
  let win: PartnerWindow | null
  try {
    win = open('about:blank', '_blank')
  } catch (error) {
    send({ type: 'onramp.partnerFailed', error: toOnrampError(error, 'open') })
    return () => {}
  }
  if (!win) {
    send({ type: 'onramp.partnerFailed', error: new OnrampPopupBlockedError() })
    return () => {}
  }
  const opened = win
  try {
    opened.opener = null
  } catch {
    // A browser that will not cut it: the partner page is on its own origin either way.
  }
  let navigated = false
  const timer = setInterval(() => {
    if (!opened.closed) return
    clearInterval(timer)
    send({ type: 'onramp.partnerClosed' })
  }, closedPollMs)
  receive((command) => {
    if (command.type !== 'partner.navigate' || navigated || opened.closed) return
    const refusal = partnerOriginRefusal(command.url, input.provider, partnerOrigins)
    if (refusal) {
      send({ type: 'onramp.partnerFailed', error: refusal })
      return
    }
    try {
      opened.location.replace(command.url)
    } catch (error) {
      send({ type: 'onramp.partnerFailed', error: toOnrampError(error, 'open') })
      return
    }
    navigated = true
    send({ type: 'onramp.partnerOpened' })
  })
  return () => {
    clearInterval(timer)
    if (navigated || opened.closed) return
    try {
      opened.close()
    } catch {
      // Already gone.
    }
  }
}
