import type { Config } from 'wagmi'
import { signMessage, verifyMessage } from 'wagmi/actions'
import { fromPromise } from 'xstate'
import type { OneClickProvider } from '../chains/eip155/oneClickPairing'
import { isUserRejection } from '../errors/connection'
import {
  InvalidSignInMessageError,
  SignatureVerificationError,
  SignInError,
  SignInRejectedError,
} from '../errors/signIn'
import type { SignInAccount } from '../machines/signIn'
import { oneClickParams, PLACEHOLDER_ACCOUNT, sessionsFromAuths } from '../siwx/oneClick'
import { messageData } from '../siwx/siwe'
import type { SiwxConfig, SiwxMessage, SiwxSession } from '../siwx/types'

/**
 * The sign-in machine's slots (src/machines/signIn.ts) over the host's SIWX config and wagmi: the wallet signs
 * with `personal_sign`, and every signature, new or kept, is checked through the chain's RPC before it is trusted
 * (viem's `verifyMessage`: ecrecover for an EOA, ERC-1271 for a deployed smart account, ERC-6492 for one not
 * deployed yet).
 *
 * @example
 * signInMachine.provide({ actors: createSignInActors({ wagmi, siwx }) })
 */
export function createSignInActors({ wagmi, siwx, now = () => Date.now() }: SignInActorsParameters) {
  /** A message is trusted only as its text says, and only for this account and chain, inside its validity. */
  const check = (message: SiwxMessage, account: SignInAccount): SiwxMessage => {
    const data = messageData(message.message)
    if (!data) throw new InvalidSignInMessageError('not an EIP-4361 message')
    if (
      data.accountAddress.toLowerCase() !== account.address.toLowerCase() ||
      data.chainId !== account.chainId
    )
      throw new InvalidSignInMessageError(`made for ${data.accountAddress} on ${data.chainId}`)
    const at = now()
    if (data.expirationTime && Date.parse(data.expirationTime) <= at)
      throw new InvalidSignInMessageError('expired')
    if (data.notBefore && Date.parse(data.notBefore) > at)
      throw new InvalidSignInMessageError('not valid yet')
    return { message: message.message, data }
  }
  const verified = (message: SiwxMessage, signature: `0x${string}`) => verifiedOn(wagmi, message, signature)
  return {
    findSession: fromPromise<SiwxSession | undefined, SignInAccount>(async ({ input }) => {
      const sessions = await siwx.getSessions(input.chainId, input.address)
      for (const session of Array.isArray(sessions) ? sessions.slice(0, 10) : []) {
        try {
          const message = check(session, input)
          if (await verified(message, session.signature)) return { ...session, ...message }
        } catch {
          // A kept session that does not check out is no session; the next one is tried.
        }
      }
      return undefined
    }),
    createMessage: fromPromise<SiwxMessage, SignInAccount>(async ({ input }) =>
      check(await siwx.createMessage({ accountAddress: input.address, chainId: input.chainId }), input),
    ),
    signMessage: fromPromise<`0x${string}`, { message: SiwxMessage; account: SignInAccount }>(
      async ({ input }) => {
        try {
          return await signMessage(wagmi, { account: input.account.address, message: input.message.message })
        } catch (error) {
          if (isUserRejection(error)) throw new SignInRejectedError({ cause: error })
          throw new SignInError('The wallet could not sign the message', { cause: error })
        }
      },
    ),
    verifyAndKeep: fromPromise<SiwxSession, { message: SiwxMessage; signature: `0x${string}` }>(
      async ({ input }) => {
        let ok = false
        try {
          ok = await verified(input.message, input.signature)
        } catch (error) {
          throw new SignatureVerificationError({ cause: error })
        }
        if (!ok) throw new SignatureVerificationError()
        const session: SiwxSession = { ...input.message, signature: input.signature }
        await siwx.addSession(session)
        return session
      },
    ),
    revoke: fromPromise<void, SignInAccount>(({ input }) => siwx.revokeSession(input.chainId, input.address)),
  }
}

/**
 * Whether `signature` signs `message` for its account, checked on the message's chain (viem's `verifyMessage`
 * through wagmi: ecrecover for an EOA, ERC-1271 for a deployed smart account, ERC-6492 for one not deployed).
 */
function verifiedOn(wagmi: Config, message: SiwxMessage, signature: `0x${string}`): Promise<boolean> {
  const chainId = Number(message.data.chainId.slice('eip155:'.length))
  return verifyMessage(wagmi, {
    address: message.data.accountAddress,
    message: message.message,
    signature,
    chainId: chainId as never,
  })
}

/**
 * One-click auth over WalletConnect (issue 15): the session and the sign-in in one approval. The host's
 * `createMessage` gives the fields (for a placeholder account); the wallet signs them for its account; each
 * signed message that says what was asked and whose signature checks out on its chain is kept with
 * `addSession`, before the connection completes, so the sign-in machine finds it and the visitor is not asked
 * again. A message the host cannot make yet pairs without sign-in (the visitor is asked after connecting); a
 * wallet that declines the request declines the connection.
 */
export async function oneClickSignIn({
  wagmi,
  siwx,
  provider,
  chainIds,
}: OneClickSignInParameters): Promise<void> {
  const chains = chainIds.map((id) => `eip155:${id}`)
  let template: SiwxMessage
  try {
    const made = await siwx.createMessage({ accountAddress: PLACEHOLDER_ACCOUNT, chainId: chains[0]! })
    const data = messageData(made.message)
    if (!data) throw new InvalidSignInMessageError('not an EIP-4361 message')
    template = { message: made.message, data }
  } catch {
    // The connect that follows pairs without sign-in; ConnectingSiwe shows why once connected.
    return
  }
  const asked = oneClickParams(template.data, chains)
  const { auths } = await provider.authenticate({ ...asked })
  for (const session of sessionsFromAuths(auths, asked, provider.formatAuthMessage)) {
    try {
      if (await verifiedOn(wagmi, session, session.signature)) await siwx.addSession(session)
    } catch {
      // Not kept: the sign-in machine asks this visitor to sign after connecting.
    }
  }
}

export interface OneClickSignInParameters {
  wagmi: Config
  siwx: SiwxConfig
  provider: OneClickProvider
  chainIds: readonly number[]
}

export interface SignInActorsParameters {
  wagmi: Config
  siwx: SiwxConfig
  /** The clock (tests). */
  now?: () => number
}
