import type { Address, Hex } from 'viem'
import { assign, fromPromise, setup } from 'xstate'
import type { FeeEstimate, SendTransactionRequest, SendWalletRequest, SolanaSendRequest } from './types'

/**
 * The send's wallet request, as its transaction's `ask` slot (src/machines/transaction.ts): the one send slot the
 * request names asks the wallet — `sendNative`, `sendErc20` (the transfer of an ERC-20), or `sendSolana` (it
 * signs, sends and confirms) — given the request without the name. Its answer (the hash, or Solana's signature)
 * is this machine's output; the slot's failure is its own, with the slot's error (no `onError`: it reaches the
 * transaction as is).
 */

const notProvided = (slot: string) => () => {
  throw new Error(`sendMachine: the "${slot}" actor slot was not provided`)
}

/** The request as the named slot takes it (each slot's own shape: the name says which). */
const withoutName = ({ context }: { context: { request: SendWalletRequest } }) => {
  const { wallet: _, ...request } = context.request
  return request as never
}

/** The wallet asked through `slot`: its answer is the machine's. */
const askedThrough = <const TSlot extends 'sendNative' | 'sendErc20' | 'sendSolana'>(slot: TSlot) =>
  ({
    invoke: {
      id: slot,
      src: slot,
      input: withoutName,
      onDone: {
        target: 'answered',
        actions: { type: 'answered', params: ({ event }: { event: { output: string } }) => event.output },
      },
    },
  }) as const

export const sendWalletMachine = setup({
  types: {
    input: {} as SendWalletRequest,
    context: {} as { request: SendWalletRequest; answer: string | undefined },
    output: {} as string,
  },
  actors: {
    sendNative: fromPromise<Hex, SendTransactionRequest>(notProvided('sendNative')),
    sendErc20: fromPromise<Hex, SendTransactionRequest & { token: Address }>(notProvided('sendErc20')),
    sendSolana: fromPromise<string, SolanaSendRequest & { fee?: FeeEstimate | undefined }>(
      notProvided('sendSolana'),
    ),
  },
  guards: {
    isSolana: ({ context }) => context.request.wallet === 'solana',
    isNative: ({ context }) => context.request.wallet === 'native',
  },
  actions: {
    answered: assign((_, answer: string) => ({ answer })),
  },
}).createMachine({
  id: 'sendWallet',
  context: ({ input }) => ({ request: input, answer: undefined }),
  output: ({ context }) => context.answer!,
  initial: 'choosing',
  states: {
    choosing: {
      always: [
        { guard: 'isSolana', target: 'solana' },
        { guard: 'isNative', target: 'native' },
        { target: 'erc20' },
      ],
    },
    native: askedThrough('sendNative'),
    erc20: askedThrough('sendErc20'),
    solana: askedThrough('sendSolana'),
    answered: { type: 'final' },
  },
})
