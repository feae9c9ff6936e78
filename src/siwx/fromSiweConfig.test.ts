import { verifyMessage } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createSiweMessage, parseSiweMessage } from 'viem/siwe'
import { describe, expect, it } from 'vitest'
import { SIWE_SESSION_TTL_MS } from '../constants'
import { InvalidSignInMessageError, SignatureVerificationError } from '../errors/signIn'
import { memoryStorage } from '../storage'
import { siwxFromSiweConfig } from './fromSiweConfig'
import type { SiweConfig, SiweCreateMessageArgs, SiweSession } from './types'

// anvil's second dev account: a real key, so the server below checks real signatures.
const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const CHAIN = 'eip155:31337'

/**
 * An AppKit-style SIWE config over a stand-in server: nonces it issued, messages it verified (real signature
 * checks), and the one session it holds, as a cookie would.
 */
function appKitServer(overrides: Partial<SiweConfig> = {}) {
  const calls: string[] = []
  const asked: SiweCreateMessageArgs[] = []
  let session: SiweSession | null = null
  const config: SiweConfig = {
    getMessageParams: async () => ({
      domain: 'app.example',
      uri: 'https://app.example/login',
      chains: [31337],
      statement: 'Sign in to Example',
      exp: '2099-01-01T00:00:00.000Z',
    }),
    getNonce: async () => 'n0nce12345678',
    createMessage: (args) => {
      asked.push(args)
      const [, , namespace, reference, address] = args.address.split(':')
      expect(`${namespace}:${reference}`).toBe(CHAIN)
      return createSiweMessage({
        address: address as `0x${string}`,
        chainId: args.chainId,
        domain: args.domain,
        uri: args.uri,
        version: args.version,
        nonce: args.nonce,
        issuedAt: new Date(args.iat),
        ...(args.exp ? { expirationTime: new Date(args.exp) } : {}),
        ...(args.statement ? { statement: args.statement } : {}),
      })
    },
    verifyMessage: async ({ message, signature }) => {
      const fields = parseSiweMessage(message)
      const ok =
        fields.nonce === 'n0nce12345678' &&
        (await verifyMessage({ address: fields.address!, message, signature: signature as `0x${string}` }))
      if (ok) session = { address: fields.address!, chainId: fields.chainId! }
      return ok
    },
    getSession: async () => session,
    signOut: async () => {
      session = null
      return true
    },
    onSignIn: (s) => calls.push(`signIn ${s?.address} ${s?.chainId}`),
    onSignOut: () => calls.push('signOut'),
    ...overrides,
  }
  return { config, calls, asked, session: () => session }
}

async function signedSession(siwx: ReturnType<typeof siwxFromSiweConfig>) {
  const made = await siwx.createMessage({ accountAddress: account.address, chainId: CHAIN })
  const signature = await account.signMessage({ message: made.message })
  return { ...made, signature }
}

describe('siwxFromSiweConfig (AppKit siweConfig as SIWX)', () => {
  it('makes the message with the host’s params, nonce and createMessage, for the account’s DID', async () => {
    const server = appKitServer()
    const siwx = siwxFromSiweConfig(server.config, memoryStorage())
    const made = await siwx.createMessage({ accountAddress: account.address, chainId: CHAIN })
    expect(server.asked[0]).toMatchObject({
      address: `did:pkh:${CHAIN}:${account.address}`,
      chainId: 31337,
      nonce: 'n0nce12345678',
      version: '1',
      domain: 'app.example',
      uri: 'https://app.example/login',
    })
    expect(made.data).toMatchObject({
      accountAddress: account.address,
      chainId: CHAIN,
      domain: 'app.example',
      nonce: 'n0nce12345678',
      expirationTime: '2099-01-01T00:00:00.000Z',
    })
  })

  // Issue 33: a message without an expiry never expired. The host's params name none: the kit's lifetime is asked.
  it('gives the message an expiry when the host’s params name none, and says the domain sessions are for', async () => {
    const server = appKitServer({
      getMessageParams: async () => ({ domain: 'app.example', uri: 'https://app.example/login' }),
    })
    const siwx = siwxFromSiweConfig(server.config, memoryStorage())
    const made = await siwx.createMessage({ accountAddress: account.address, chainId: CHAIN })
    const asked = server.asked[0]!
    expect(Date.parse(asked.exp!) - Date.parse(asked.iat)).toBe(SIWE_SESSION_TTL_MS)
    expect(made.data.expirationTime).toBe(new Date(asked.exp!).toISOString())
    expect(await siwx.getDomain?.()).toEqual({ domain: 'app.example', uri: 'https://app.example/login' })
  })

  it('refuses a createMessage that does not make an EIP-4361 message', async () => {
    const siwx = siwxFromSiweConfig(appKitServer({ createMessage: () => 'hello' }).config, memoryStorage())
    await expect(
      siwx.createMessage({ accountAddress: account.address, chainId: CHAIN }),
    ).rejects.toBeInstanceOf(InvalidSignInMessageError)
  })

  it('a session the server verifies is kept and found again, while the server holds it', async () => {
    const server = appKitServer()
    const siwx = siwxFromSiweConfig(server.config, memoryStorage())
    const session = await signedSession(siwx)
    await siwx.addSession(session)
    expect(server.session()).toEqual({ address: account.address, chainId: 31337 })
    expect(server.calls).toEqual([`signIn ${account.address} 31337`])
    const found = await siwx.getSessions(CHAIN, account.address)
    expect(found.map((s) => [s.message, s.signature])).toEqual([[session.message, session.signature]])
    // Another chain, or another account: not this session.
    expect(await siwx.getSessions('eip155:1', account.address)).toEqual([])
    expect(await siwx.getSessions(CHAIN, '0x0000000000000000000000000000000000000001')).toEqual([])
  })

  it('without the server’s session there is none, whatever the browser kept', async () => {
    const server = appKitServer()
    const storage = memoryStorage()
    const siwx = siwxFromSiweConfig(server.config, storage)
    await siwx.addSession(await signedSession(siwx))
    await server.config.signOut()
    expect(await siwx.getSessions(CHAIN, account.address)).toEqual([])
  })

  it('a message the server refuses is not kept', async () => {
    const server = appKitServer()
    const storage = memoryStorage()
    const siwx = siwxFromSiweConfig(server.config, storage)
    const session = await signedSession(siwx)
    const tampered = { ...session, signature: `0x${'12'.repeat(65)}` as const }
    await expect(siwx.addSession(tampered)).rejects.toBeInstanceOf(SignatureVerificationError)
    expect(server.session()).toBeNull()
    expect(server.calls).toEqual([])
    expect(storage.getItem('walletstate.siwe.sessions')).toBeNull()
  })

  it('revoking forgets the message and signs out on the server', async () => {
    const server = appKitServer()
    const storage = memoryStorage()
    const siwx = siwxFromSiweConfig(server.config, storage)
    await siwx.addSession(await signedSession(siwx))
    await siwx.revokeSession(CHAIN, account.address)
    expect(server.session()).toBeNull()
    expect(server.calls.at(-1)).toBe('signOut')
    expect(storage.getItem('walletstate.siwe.sessions')).toBeNull()
  })

  it('required comes from the config’s `required`', () => {
    expect(siwxFromSiweConfig(appKitServer().config, memoryStorage()).getRequired?.()).toBe(false)
    expect(siwxFromSiweConfig(appKitServer({ required: true }).config, memoryStorage()).getRequired?.()).toBe(
      true,
    )
  })
})
