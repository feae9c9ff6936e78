import { type Hex, isAddressEqual, isErc6492Signature, recoverMessageAddress, size } from 'viem'
import { getCode, verifyMessage } from 'viem/actions'
import type { Config } from 'wagmi'
import { signMessage } from 'wagmi/actions'
import { fromCallback, fromPromise } from 'xstate'
import type { OneClickProvider } from '../chains/eip155/oneClickPairing'
import { isUserRejection } from '../errors/connection'
import {
  InvalidSignInMessageError,
  SignatureVerificationError,
  SignInError,
  SignInRejectedError,
} from '../errors/signIn'
import type { CheckedSession, KeptSession, SignInAccount, SignInEvent, SignInPage } from '../machines/signIn'
import { oneClickParams, PLACEHOLDER_ACCOUNT, sessionsFromAuths } from '../siwx/oneClick'
import { messageData } from '../siwx/siwe'
import type { SiwxConfig, SiwxMessage, SiwxSession } from '../siwx/types'

/**
 * The sign-in machine's slots (src/machines/signIn.ts) over the host's SIWX config and wagmi: the wallet signs
 * with `personal_sign`, and every signature, new or kept, is checked before it is trusted (`signatureVerified`:
 * an EOA's here, a smart account's through the chain). A message the kit has signed must carry an expiry; what
 * a kept one must be (expiry, domain, origin) the chart judges, from the page this slot reports.
 *
 * @example
 * signInMachine.provide({ actors: createSignInActors({ wagmi, siwx }) })
 */
export function createSignInActors({
  wagmi,
  siwx,
  now = () => Date.now(),
  visibility = globalThis.document,
}: SignInActorsParameters) {
  /** A message is trusted only as its text says, and only for this account and chain. */
  const forAccount = (message: SiwxMessage, account: SignInAccount): SiwxMessage => {
    const data = messageData(message.message)
    if (!data) throw new InvalidSignInMessageError('not an EIP-4361 message')
    if (
      data.accountAddress.toLowerCase() !== account.address.toLowerCase() ||
      data.chainId !== account.chainId
    )
      throw new InvalidSignInMessageError(`made for ${data.accountAddress} on ${data.chainId}`)
    return { message: message.message, data }
  }
  /** A message to sign: for this account and chain, with an expiry, inside its validity. */
  const check = (message: SiwxMessage, account: SignInAccount): SiwxMessage => {
    const { data } = forAccount(message, account)
    // A session must end: the kit never asks to sign a message that would be valid forever.
    if (!data.expirationTime) throw new InvalidSignInMessageError('without an expiration time')
    const at = now()
    if (data.expirationTime && Date.parse(data.expirationTime) <= at)
      throw new InvalidSignInMessageError('expired')
    if (data.notBefore && Date.parse(data.notBefore) > at)
      throw new InvalidSignInMessageError('not valid yet')
    return { message: message.message, data }
  }
  const verified = (message: SiwxMessage, signature: Hex) => signatureVerified(wagmi, message, signature)
  return {
    findSession: fromPromise<KeptSession | undefined, SignInAccount>(async ({ input }) => {
      const page = await pageOf(siwx)
      const sessions = await siwx.getSessions(input.chainId, input.address)
      for (const session of Array.isArray(sessions) ? sessions.slice(0, 10) : []) {
        try {
          const message = forAccount(session, input)
          if (await verified(message, session.signature))
            return { session: { ...session, ...message }, page, at: now() }
        } catch {
          // A kept session whose signature does not check out is no session; the next one is tried.
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
    verifyAndKeep: fromPromise<CheckedSession, { message: SiwxMessage; signature: `0x${string}` }>(
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
        return { session, at: now() }
      },
    ),
    revoke: fromPromise<void, SignInAccount>(({ input }) => siwx.revokeSession(input.chainId, input.address)),
    watchVisibility: fromCallback<SignInEvent>(({ sendBack }) => {
      if (!visibility) return () => {}
      const onChange = () => {
        if (visibility.visibilityState === 'visible') sendBack({ type: 'signIn.visible', at: now() })
      }
      visibility.addEventListener('visibilitychange', onChange)
      return () => visibility.removeEventListener('visibilitychange', onChange)
    }),
  }
}

/** The domain and origin kept sessions must be for: the SIWX config's (`getDomain`), else the page's. */
async function pageOf(siwx: SiwxConfig): Promise<SignInPage> {
  const configured = await siwx.getDomain?.()
  const domain = configured?.domain ?? globalThis.location?.host
  const uri = configured?.uri ?? globalThis.location?.origin
  if (!domain || !uri) throw new SignInError('Sign-in needs the page’s domain and URI')
  return { domain, origin: new URL(uri).origin }
}

/** An ECDSA signature's sizes: 65 bytes (r, s, v), or EIP-2098's compact 64. */
const ECDSA_SIZES = new Set([64, 65])

/**
 * Whether `signature` signs `message` for its account. An ECDSA signature is checked here first, by
 * recovering its signer: an EOA's signature is never taken on a node's word, so a wrong one cannot pass because
 * an RPC says so. The chain is asked (viem's `verifyMessage` on the message's chain: ERC-1271, ERC-6492) only for
 * a contract account (code at the address, whose owner's signature does not recover to it) or an ERC-6492
 * signature (an account not deployed yet). Any other signature from an address without code is refused.
 */
export async function signatureVerified(
  wagmi: Config,
  message: SiwxMessage,
  signature: Hex,
): Promise<boolean> {
  const address = message.data.accountAddress
  if (ECDSA_SIZES.has(size(signature))) {
    try {
      const signer = await recoverMessageAddress({ message: message.message, signature })
      if (isAddressEqual(signer, address)) return true
    } catch {
      // Not a valid ECDSA signature: only a contract account can still accept it.
    }
  }
  const client = wagmi.getClient({ chainId: Number(message.data.chainId.slice('eip155:'.length)) as never })
  if (!isErc6492Signature(signature)) {
    const code = await getCode(client, { address })
    if (!code || code === '0x') return false
  }
  return verifyMessage(client, { address, message: message.message, signature })
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
    if (!data.expirationTime) throw new InvalidSignInMessageError('without an expiration time')
    template = { message: made.message, data }
  } catch {
    // The connect that follows pairs without sign-in; ConnectingSiwe shows why once connected.
    return
  }
  const asked = oneClickParams(template.data, chains)
  const { auths } = await provider.authenticate({ ...asked })
  for (const session of sessionsFromAuths(auths, asked, provider.formatAuthMessage)) {
    try {
      if (await signatureVerified(wagmi, session, session.signature)) await siwx.addSession(session)
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
  /** Where `visibilitychange` is heard (the page's document; tests pass their own). */
  visibility?: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>
}
