import { verifyMessage } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import type { KitStorage } from '../config'
import { SIWE_SESSION_TTL_MS } from '../constants'
import { memoryStorage } from '../storage'
import { createSiwe, messageData, SIWE_STORAGE_KEY, sessionFrom } from './siwe'

const NOW = new Date('2026-11-26T10:00:00.000Z')
const alice = privateKeyToAccount(generatePrivateKey())
const bob = privateKeyToAccount(generatePrivateKey())
const CHAIN = 'eip155:31337'

const siwe = (storage: KitStorage, now = () => NOW) =>
  createSiwe({
    storage,
    domain: 'shop.example',
    uri: 'https://shop.example/',
    statement: 'Sign in to the shop',
    now,
  })

async function signedSession(s: ReturnType<typeof createSiwe>, account = alice, chainId = CHAIN) {
  const message = await s.createMessage({ accountAddress: account.address, chainId })
  return { ...message, signature: await account.signMessage({ message: message.message }) }
}

describe('createSiwe: EIP-4361 messages', () => {
  it('makes a message with the domain, URI, statement, chain, a fresh nonce, issued-at and expiry, that the account can sign', async () => {
    const s = siwe(memoryStorage())
    const a = await s.createMessage({ accountAddress: alice.address, chainId: CHAIN })
    const b = await s.createMessage({ accountAddress: alice.address, chainId: CHAIN })
    expect(a.message).toContain('shop.example wants you to sign in with your Ethereum account:')
    expect(a.message).toContain(alice.address)
    expect(a.data).toMatchObject({
      accountAddress: alice.address,
      chainId: CHAIN,
      domain: 'shop.example',
      uri: 'https://shop.example/',
      version: '1',
      statement: 'Sign in to the shop',
      issuedAt: NOW.toISOString(),
      expirationTime: new Date(NOW.getTime() + SIWE_SESSION_TTL_MS).toISOString(),
    })
    expect(a.data.nonce).toMatch(/^[A-Za-z0-9]{8,}$/)
    expect(b.data.nonce).not.toBe(a.data.nonce)
    const signature = await alice.signMessage({ message: a.message })
    expect(await verifyMessage({ address: alice.address, message: a.message, signature })).toBe(true)
  })

  it('refuses a chain that is not eip155, and uses the nonce of the app when it gives one', async () => {
    const s = siwe(memoryStorage())
    await expect(s.createMessage({ accountAddress: alice.address, chainId: 'solana:abc' })).rejects.toThrow(
      /needs an eip155 chain/,
    )
    const withNonce = createSiwe({
      storage: memoryStorage(),
      domain: 'a.example',
      uri: 'https://a.example',
      getNonce: async () => 'server1234nonce',
    })
    expect(
      (await withNonce.createMessage({ accountAddress: alice.address, chainId: CHAIN })).data.nonce,
    ).toBe('server1234nonce')
  })

  it('reads a message back from its text only: fields planted beside it are ignored, a broken message is none', async () => {
    const s = siwe(memoryStorage())
    const session = await signedSession(s)
    expect(messageData(session.message)).toEqual(session.data)
    expect(messageData('hello')).toBeUndefined()
    expect(messageData(42)).toBeUndefined()
    expect(messageData('x'.repeat(10_000))).toBeUndefined()
    const planted = sessionFrom({ ...session, data: { ...session.data, accountAddress: bob.address } })
    expect(planted?.data.accountAddress).toBe(alice.address)
    expect(sessionFrom({ message: session.message, signature: 'not hex' })).toBeUndefined()
    expect(sessionFrom(null)).toBeUndefined()
  })
})

describe('createSiwe: sessions in the kit storage', () => {
  it('keeps one session per account and chain, lists only that account’s, and revokes it', async () => {
    const storage = memoryStorage()
    const s = siwe(storage)
    const first = await signedSession(s)
    await s.addSession(first)
    const second = await signedSession(s)
    await s.addSession(second)
    await s.addSession(await signedSession(s, bob))
    await s.addSession(await signedSession(s, alice, 'eip155:1'))
    const mine = await s.getSessions(CHAIN, alice.address)
    expect(mine.map((x) => x.signature)).toEqual([second.signature])
    expect((await s.getSessions(CHAIN, bob.address)).length).toBe(1)
    // What is stored is the message and signature only; the fields are read back from the message.
    expect(Object.keys(JSON.parse(storage.map.get(SIWE_STORAGE_KEY)!)[0]).sort()).toEqual([
      'message',
      'signature',
    ])
    await s.revokeSession(CHAIN, alice.address)
    expect(await s.getSessions(CHAIN, alice.address)).toEqual([])
    expect((await s.getSessions('eip155:1', alice.address)).length).toBe(1)
    expect((await s.getSessions(CHAIN, bob.address)).length).toBe(1)
  })

  it('hands over an expired session too: the kit judges it and drops it from storage (revokeSession)', async () => {
    const storage = memoryStorage()
    let now = NOW
    const s = siwe(storage, () => now)
    await s.addSession(await signedSession(s))
    now = new Date(NOW.getTime() + SIWE_SESSION_TTL_MS + 1)
    const [expired] = await s.getSessions(CHAIN, alice.address)
    expect(Date.parse(expired!.data.expirationTime!)).toBeLessThan(now.getTime())
    await s.revokeSession(CHAIN, alice.address)
    expect(storage.getItem(SIWE_STORAGE_KEY)).toBeNull()
  })

  it('says the domain and URI its sessions are for (the configured ones)', () => {
    expect(siwe(memoryStorage()).getDomain?.()).toEqual({
      domain: 'shop.example',
      uri: 'https://shop.example/',
    })
  })

  it('survives storage that throws or holds garbage: no sessions, no error', async () => {
    const throwing: KitStorage = {
      getItem: () => {
        throw new Error('SecurityError')
      },
      setItem: () => {
        throw new Error('QuotaExceededError')
      },
      removeItem: () => {
        throw new Error('SecurityError')
      },
    }
    const s = siwe(throwing)
    await expect(s.addSession(await signedSession(siwe(memoryStorage())))).resolves.toBeUndefined()
    expect(await s.getSessions(CHAIN, alice.address)).toEqual([])
    const garbage = memoryStorage()
    garbage.setItem(SIWE_STORAGE_KEY, '{not json')
    expect(await siwe(garbage).getSessions(CHAIN, alice.address)).toEqual([])
    garbage.setItem(SIWE_STORAGE_KEY, JSON.stringify([42, { message: 'hi', signature: '0x00' }, null]))
    expect(await siwe(garbage).getSessions(CHAIN, alice.address)).toEqual([])
  })

  it('is optional by default and required when asked', () => {
    expect(siwe(memoryStorage()).getRequired?.()).toBe(false)
    expect(createSiwe({ storage: memoryStorage(), required: true }).getRequired?.()).toBe(true)
  })
})
