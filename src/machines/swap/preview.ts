import { simulatingState } from '../send/simulation'
import { checkRequestOf, needsApproval, quoteRequestOf, simulationRequestOf, withoutGas } from './rules'
import { errorOf, swapSetup } from './setup'
import type { SwapContext } from './types'

/**
 * The swap's preview (src/machines/swap.ts): the allowance checked (skipped for the native currency), every
 * transaction the swap needs built, each checked against what the preview shows, then simulated; `ready` offers
 * the confirm and asks for the quote again every `quoteRefresh`.
 */
export const swapPreview = swapSetup.createStateConfig({
  on: {
    'swap.back': { target: '#swap.form.quoted', actions: 'clearError' },
    'swap.cancel': { target: '#swap.form.quoted', actions: 'clearError' },
    // Another slippage is another least amount out: the swap is built and checked again.
    'swap.setSlippage': { guard: 'validSlippage', actions: 'setSlippage', target: '.choosing' },
  },
  initial: 'choosing',
  states: {
    choosing: {
      entry: 'clearBuild',
      always: [
        { guard: 'fromIsNative', target: 'preparing' },
        // The maker's swap is a transfer the visitor signs: no allowance on Solana.
        { guard: 'approvesNothing', target: 'preparing' },
        { target: 'checkingAllowance' },
      ],
    },
    checkingAllowance: {
      tags: 'busy',
      invoke: {
        id: 'fetchAllowance',
        src: 'fetchAllowance',
        input: ({ context }) => ({
          chainId: context.chainId,
          userAddress: context.userAddress,
          tokenAddress: context.from!.address,
        }),
        onDone: {
          target: 'preparing',
          actions: { type: 'setAllowance', params: ({ event }) => event.output },
        },
        onError: {
          target: 'unavailable',
          actions: { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'allowance' }) },
        },
      },
    },
    /**
     * Every transaction the swap needs is built before the preview offers it, so what is confirmed is what
     * was checked: the reset to zero (USDT-style), the approval of the amount, then the swap.
     */
    preparing: {
      tags: 'busy',
      entry: 'clearBuild',
      initial: 'next',
      states: {
        next: {
          always: [
            { guard: 'needsReset', target: 'resetApproval' },
            { guard: 'needsApproval', target: 'approval' },
            { target: 'swap' },
          ],
        },
        resetApproval: {
          invoke: {
            id: 'buildResetApproval',
            src: 'buildApprove',
            input: ({ context }) => ({ ...quoteRequestOf(context), amount: '0' }),
            onDone: {
              target: 'approval',
              actions: {
                type: 'addApproval',
                params: ({ event }) => ({ amount: '0', transaction: event.output }),
              },
            },
            onError: {
              target: '#swap.preview.unavailable',
              actions: { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'build' }) },
            },
          },
        },
        approval: {
          invoke: {
            id: 'buildApprove',
            src: 'buildApprove',
            input: ({ context }) => quoteRequestOf(context),
            onDone: {
              target: 'swap',
              actions: {
                type: 'addApproval',
                params: ({ context, event }) => ({
                  amount: quoteRequestOf(context).amount,
                  // After a reset to zero the API's gas figure (estimated over the old allowance) is too
                  // low: the wallet estimates it when it sends.
                  transaction: context.built?.approvals.length ? withoutGas(event.output) : event.output,
                }),
              },
            },
            onError: {
              target: '#swap.preview.unavailable',
              actions: { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'build' }) },
            },
          },
        },
        swap: {
          invoke: {
            id: 'buildSwap',
            src: 'buildSwap',
            input: ({ context }) => ({
              ...quoteRequestOf(context),
              slippage: context.slippage,
              // Before the approval is mined the API cannot estimate the swap's gas; the wallet does.
              ...(needsApproval(context) ? { disableEstimate: true } : {}),
              // A maker's quote is filled by its id (Solana).
              ...(context.quote?.id ? { quoteId: context.quote.id } : {}),
            }),
            onDone: {
              target: '#swap.preview.checking',
              actions: { type: 'setBuiltSwap', params: ({ event }) => event.output },
            },
            onError: [
              {
                // The maker no longer fills the quote: the form says so and asks for a fresh one.
                guard: { type: 'quoteExpired', params: errorOf },
                target: '#swap.form.quoteFailed',
                actions: { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'quote' }) },
              },
              {
                target: '#swap.preview.unavailable',
                actions: { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'build' }) },
              },
            ],
          },
        },
      },
    },
    /**
     * Each built transaction decoded and compared with what the preview shows (token, spender, router,
     * amounts, recipient, least amount out, deadline, value). A mismatch: refused, nothing sent.
     */
    checking: {
      tags: 'busy',
      invoke: {
        id: 'checkBuild',
        src: 'checkBuild',
        input: ({ context }) => checkRequestOf(context),
        onDone: {
          target: 'simulating',
          actions: { type: 'setPrepared', params: ({ event }) => event.output },
        },
        onError: {
          target: '#swap.failed.refused',
          actions: [
            'clearBuild',
            { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'check' }) },
          ],
        },
      },
    },
    /**
     * See before you sign: the checked approvals and swap simulated in order on the chain. A node that cannot
     * simulate (unavailable, an error, no answer in time) leads to the preview without the line.
     */
    simulating: simulatingState(({ context }: { context: SwapContext }) => simulationRequestOf(context)),
    /** The simulation disagrees with the preview: no confirm; back to the form, or build and check again. */
    disagrees: {
      tags: 'failed',
      on: { 'swap.retry': { target: 'choosing', actions: 'clearError' } },
    },
    ready: {
      after: { quoteRefresh: 'refreshing' },
      on: {
        // Approvals due (and checked): the wallet may take them and the swap in one confirmation.
        'swap.confirm': [
          { guard: 'nextApprovalChecked', target: '#swap.readingCapabilities' },
          { target: '#swap.nextStep' },
        ],
      },
    },
    /** The quote asked for again; the old one stays shown meanwhile. A fresh quote is built and checked. */
    refreshing: {
      tags: 'busy',
      invoke: {
        id: 'refreshQuote',
        src: 'fetchQuote',
        input: ({ context }) => quoteRequestOf(context),
        onDone: [
          {
            // The new quote's gas may be more than the native balance pays: back to the form, which says so.
            guard: { type: 'quoteBlocked', params: ({ event }) => event.output },
            target: '#swap.form.quoted',
            actions: [{ type: 'setQuote', params: ({ event }) => event.output }, 'showReviewError'],
          },
          { target: 'preparing', actions: { type: 'setQuote', params: ({ event }) => event.output } },
        ],
        onError: {
          target: '#swap.form.quoteFailed',
          actions: { type: 'setError', params: (args) => ({ error: errorOf(args), stage: 'quote' }) },
        },
      },
    },
    unavailable: {
      tags: 'failed',
      on: { 'swap.retry': { target: 'choosing', actions: 'clearError' } },
    },
  },
})
