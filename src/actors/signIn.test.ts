import { type Hex, serializeErc6492Signature } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { verifyMessage } from 'viem/actions'
import { foundry } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { createConfig, custom } from 'wagmi'
import { type ActorRefFrom, createActor, fromPromise, SimulatedClock, waitFor } from 'xstate'
import { SignatureVerificationError } from '../errors/signIn'
import { type SignInAccount, signInMachine, TIMER_MAX_MS } from '../machines/signIn'
import { createSiwe, SIWE_STORAGE_KEY } from '../siwx/siwe'
import type { SiwxConfig, SiwxMessage } from '../siwx/types'
import { memoryStorage } from '../storage'
import { createSignInActors, signatureVerified } from './signIn'

/**
 * Sign-in's slots over wagmi and the SIWE preset, and the sign-in machine over them (issue 33 point 6).
 *
 * The chain here is an RPC stand-in that says "valid" to every signature check (`eth_call` answers true) and
 * answers `eth_getCode` truthfully for the addresses it knows: a hostile or buggy node. That is what it stands for,
 * not a shortcut: an EOA's signature must be judged without it, and only a contract account's by it.
 */
const alice = privateKeyToAccount(generatePrivateKey())
const mallory = privateKeyToAccount(generatePrivateKey())
/** A smart account: the stand-in has code for it. */
const CONTRACT = '0x000000000000000000000000000000000000c0de'
const CHAIN = `eip155:${foundry.id}`
const ALICE: SignInAccount = { address: alice.address, chainId: CHAIN }
const DOMAIN = 'shop.example'
const URI = 'https://shop.example/'
const HOUR = 3_600_000
const TRUE_WORD = `0x${'0'.repeat(63)}1`

function hostileChain() {
  const asked: string[] = []
  const wagmi = createConfig({
    chains: [foundry],
    transports: {
      [foundry.id]: custom({
        async request({ method, params }: { method: string; params?: unknown }) {
          asked.push(method)
          if (method === 'eth_chainId') return `0x${foundry.id.toString(16)}`
          if (method === 'eth_getCode') {
            const [address] = params as [string]
            return address.toLowerCase() === CONTRACT ? '0x6080604052' : '0x'
          }
          // Every signature check (ERC-6492's deployless validator, ERC-1271) is "valid".
          if (method === 'eth_call') return TRUE_WORD
          throw new Error(`unexpected ${method}`)
        },
      }),
    },
    storage: null,
    multiInjectedProviderDiscovery: false,
  })
  return { wagmi, asked }
}

/** A message of the SIWE preset for `address`, made at `at` (epoch ms). */
async function messageFor(address: `0x${string}`, at: number, expiresInMs = HOUR): Promise<SiwxMessage> {
  const siwe = createSiwe({
    storage: memoryStorage(),
    domain: DOMAIN,
    uri: URI,
    expiresInMs,
    now: () => new Date(at),
  })
  return siwe.createMessage({ accountAddress: address, chainId: CHAIN })
}

const garbage65 = `0x${'12'.repeat(65)}` as Hex

describe('signatureVerified: an EOA judged here, a contract account by the chain', () => {
  // Guards `signatureVerified` in src/actors/signIn.ts: before it, viem's verifyMessage went to the RPC first (the
  // ERC-6492 validator), and a node saying "valid" made a garbage signature pass.
  it('the stand-in says valid to a garbage signature (as viem alone asks it)', async () => {
    const { wagmi } = hostileChain()
    const message = await messageFor(alice.address, Date.now())
    const client = wagmi.getClient({ chainId: foundry.id })
    expect(
      await verifyMessage(client, { address: alice.address, message: message.message, signature: garbage65 }),
    ).toBe(true)
  })

  it('a garbage 65-byte signature for an EOA is refused, whatever the RPC says', async () => {
    const { wagmi } = hostileChain()
    const message = await messageFor(alice.address, Date.now())
    expect(await signatureVerified(wagmi, message, garbage65)).toBe(false)
    // Another account's real signature does not pass either.
    const forged = await mallory.signMessage({ message: message.message })
    expect(await signatureVerified(wagmi, message, forged)).toBe(false)
  })

  it("an EOA's own signature passes without asking the RPC anything", async () => {
    const { wagmi, asked } = hostileChain()
    const message = await messageFor(alice.address, Date.now())
    const signature = await alice.signMessage({ message: message.message })
    expect(await signatureVerified(wagmi, message, signature)).toBe(true)
    expect(asked).toEqual([])
  })

  it('a signature of another size from an address without code is refused; only its code was asked', async () => {
    const { wagmi, asked } = hostileChain()
    const message = await messageFor(alice.address, Date.now())
    expect(await signatureVerified(wagmi, message, `0x${'ab'.repeat(97)}`)).toBe(false)
    expect(asked).toEqual(['eth_getCode'])
  })

  it('a contract account (code at the address) and an ERC-6492 signature are the chain’s to judge', async () => {
    const { wagmi, asked } = hostileChain()
    const forContract = await messageFor(CONTRACT, Date.now())
    const ownerSignature = await alice.signMessage({ message: forContract.message })
    expect(await signatureVerified(wagmi, forContract, ownerSignature)).toBe(true)
    expect(asked).toContain('eth_call')
    // An account not deployed yet signs with ERC-6492: its factory call is the chain's to run.
    asked.length = 0
    const counterfactual = serializeErc6492Signature({
      address: CONTRACT,
      data: '0xdeadbeef',
      signature: ownerSignature,
    })
    const message = await messageFor(alice.address, Date.now())
    expect(await signatureVerified(wagmi, message, counterfactual)).toBe(true)
    expect(asked).toContain('eth_call')
  })

  it('verifyAndKeep refuses a garbage signature and keeps nothing', async () => {
    const { wagmi } = hostileChain()
    const added: unknown[] = []
    const siwx: SiwxConfig = {
      createMessage: async () => messageFor(alice.address, Date.now()),
      addSession: async (session) => void added.push(session),
      getSessions: async () => [],
      revokeSession: async () => {},
    }
    const actors = createSignInActors({ wagmi, siwx })
    const message = await messageFor(alice.address, Date.now())
    const run = createActor(actors.verifyAndKeep, { input: { message, signature: garbage65 } }).start()
    const error = await new Promise((resolve) =>
      run.subscribe({ complete: () => resolve('done'), error: resolve }),
    )
    expect(error).toBeInstanceOf(SignatureVerificationError)
    expect(added).toEqual([])
  })
})

/**
 * The sign-in machine over its real slots (the SIWE preset in memory storage, the hostile chain), on a simulated
 * clock the slots share: what a kept session must be, and when a session ends.
 */
function signIn({ required = false, at = Date.UTC(2026, 10, 26, 10), expiresInMs = HOUR } = {}) {
  const clock = { now: at }
  const storage = memoryStorage()
  const siwe = createSiwe({
    storage,
    domain: DOMAIN,
    uri: URI,
    expiresInMs,
    required,
    now: () => new Date(clock.now),
  })
  const listeners = new Set<() => void>()
  const page = {
    visibilityState: 'visible' as DocumentVisibilityState,
    addEventListener: (_: string, listener: () => void) => void listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => void listeners.delete(listener),
  }
  const { wagmi } = hostileChain()
  const machine = signInMachine.provide({
    actors: {
      ...createSignInActors({ wagmi, siwx: siwe, now: () => clock.now, visibility: page as never }),
      signMessage: createSignInActors({ wagmi, siwx: siwe }).signMessage,
    },
  })
  const timers = new SimulatedClock()
  /** Every delay the machine asks for: none may exceed what a browser's timer keeps. */
  const delays: number[] = []
  const recording = {
    setTimeout: (fn: (...args: unknown[]) => void, ms: number) => {
      delays.push(ms)
      return timers.setTimeout(fn, ms)
    },
    clearTimeout: (id: number) => timers.clearTimeout(id),
  }
  const actor = createActor(machine, { input: { required }, clock: recording }).start()
  /** Keeps a session signed by alice, as a message of `siwx` made now. */
  const keep = async (
    make: (address: `0x${string}`) => Promise<SiwxMessage> = (a) =>
      siwe.createMessage({ accountAddress: a, chainId: CHAIN }),
  ) => {
    const message = await make(alice.address)
    await siwe.addSession({ ...message, signature: await alice.signMessage({ message: message.message }) })
  }
  /** Time passes: the slots' clock and the machine's timers alike. */
  const pass = (ms: number) => {
    clock.now += ms
    timers.increment(ms)
  }
  /** The page comes back into view after `ms` hidden (its timers held back meanwhile). */
  const comeBack = (ms: number) => {
    clock.now += ms
    for (const listener of [...listeners]) listener()
  }
  const stored = () => storage.getItem(SIWE_STORAGE_KEY)
  return { actor: actor as ActorRefFrom<typeof machine>, keep, pass, comeBack, stored, listeners, delays }
}

const settled = (actor: ActorRefFrom<typeof signInMachine>) => waitFor(actor, (s) => !s.hasTag('busy'))

describe('the sign-in machine over its slots: kept sessions (issue 33 point 6)', () => {
  it('a kept session of this domain, signed by the account, signs the visitor in without asking', async () => {
    const s = signIn()
    await s.keep()
    s.actor.send({ type: 'signIn.account', account: ALICE })
    expect((await settled(s.actor)).value).toBe('signedIn')
  })

  // Guards `keptForAnotherDomain` / `keptForAnotherOrigin` in src/machines/signIn.ts: before them a session signed
  // for another site (same account, valid signature) was accepted here.
  it('a kept session signed for another domain, or another origin, is dropped from storage with its reason', async () => {
    for (const [other, reason] of [
      [{ domain: 'evil.example', uri: 'https://evil.example/' }, 'otherDomain'],
      [{ domain: DOMAIN, uri: 'https://evil.example/' }, 'otherOrigin'],
    ] as const) {
      const s = signIn()
      await s.keep((address) =>
        createSiwe({ storage: memoryStorage(), ...other }).createMessage({
          accountAddress: address,
          chainId: CHAIN,
        }),
      )
      expect(s.stored()).not.toBeNull()
      s.actor.send({ type: 'signIn.account', account: ALICE })
      const after = await settled(s.actor)
      expect(after.value).toBe('asking')
      expect(after.context.dropped).toBe(reason)
      expect(s.stored()).toBeNull()
    }
  })

  // Guards `keptWithoutExpiry`: a message without an expiry never expired.
  it('a kept session without an expiry is dropped; the kit never asks to sign a message without one', async () => {
    const s = signIn()
    const withoutExpiry = async (address: `0x${string}`) => {
      const made = await messageFor(address, Date.now())
      const text = made.message.replace(/\nExpiration Time: [^\n]*/, '')
      return { message: text, data: { ...made.data, expirationTime: undefined } }
    }
    await s.keep(withoutExpiry)
    s.actor.send({ type: 'signIn.account', account: ALICE })
    const after = await settled(s.actor)
    expect(after.value).toBe('asking')
    expect(after.context.dropped).toBe('noExpiry')
    expect(s.stored()).toBeNull()
    // A host whose messages carry no expiry: refused before the wallet is asked.
    const { wagmi } = hostileChain()
    const actors = createSignInActors({
      wagmi,
      siwx: {
        createMessage: () => withoutExpiry(alice.address),
        addSession: async () => {},
        getSessions: async () => [],
        revokeSession: async () => {},
      },
    })
    const run = createActor(actors.createMessage, { input: ALICE }).start()
    const error = (await new Promise<unknown>((resolve) =>
      run.subscribe({ complete: () => resolve('done'), error: resolve }),
    )) as Error
    expect(error.message).toContain('without an expiration time')
  })

  it('an expired kept session is dropped too', async () => {
    const s = signIn()
    await s.keep()
    s.pass(HOUR)
    s.actor.send({ type: 'signIn.account', account: ALICE })
    const after = await settled(s.actor)
    expect(after.context.dropped).toBe('expired')
    expect(s.stored()).toBeNull()
  })
})

describe('the sign-in machine over its slots: a session ends at its expiry (issue 33 point 6)', () => {
  // Guards the `sessionExpiry` delay of `signedIn.valid`: before it, signedIn never looked at the expiry again.
  it('optional sign-in: at the expiry the visitor is no longer signed in, and the session is gone', async () => {
    const s = signIn()
    await s.keep()
    s.actor.send({ type: 'signIn.account', account: ALICE })
    await settled(s.actor)
    s.pass(HOUR - 1)
    expect(s.actor.getSnapshot().value).toBe('signedIn')
    s.pass(1)
    const after = await settled(s.actor)
    expect(after.value).toBe('skipped')
    expect(after.context.session).toBeUndefined()
    expect(s.stored()).toBeNull()
  })

  it('required sign-in: at the expiry the visitor is asked to sign in again', async () => {
    const s = signIn({ required: true })
    await s.keep()
    s.actor.send({ type: 'signIn.account', account: ALICE })
    await settled(s.actor)
    s.pass(HOUR)
    expect((await settled(s.actor)).value).toBe('asking')
  })

  // Guards `expiredAt` on `signIn.visible`: a hidden page's timers may be held back past the expiry.
  it('the page, visible again after the expiry, ends the session at once', async () => {
    const s = signIn({ required: true })
    await s.keep()
    s.actor.send({ type: 'signIn.account', account: ALICE })
    await settled(s.actor)
    expect(s.listeners.size).toBe(1)
    s.comeBack(HOUR / 2)
    expect(s.actor.getSnapshot().value).toBe('signedIn')
    s.comeBack(HOUR / 2)
    expect((await settled(s.actor)).value).toBe('asking')
    expect(s.listeners.size).toBe(0)
  })

  // Guards `expiryBeyondTimer`: a delay over 2^31 − 1 ms fires at once in browsers (and in Node).
  it('a session longer than a timer can wait ends at its expiry, not at once', async () => {
    const days30 = 30 * 24 * HOUR
    const s = signIn({ expiresInMs: days30 })
    await s.keep()
    s.actor.send({ type: 'signIn.account', account: ALICE })
    await settled(s.actor)
    s.pass(TIMER_MAX_MS)
    expect(s.actor.getSnapshot().value).toBe('signedIn')
    s.pass(days30 - TIMER_MAX_MS - 1)
    expect(s.actor.getSnapshot().value).toBe('signedIn')
    s.pass(1)
    expect((await settled(s.actor)).value).toBe('skipped')
    expect(Math.max(...s.delays)).toBeLessThanOrEqual(TIMER_MAX_MS)
    expect(s.delays).toContain(days30 - TIMER_MAX_MS)
  })
})

describe('the sign-in machine: SPEC §5 signed message 0x plus 62 or more hex characters', () => {
  /** The machine over the SIWE preset, with a test wallet that answers every message with `answer`. */
  function withWallet(answer: string) {
    const siwe = createSiwe({ storage: memoryStorage(), domain: DOMAIN, uri: URI })
    const verified: unknown[] = []
    const actors = createSignInActors({ wagmi: hostileChain().wagmi, siwx: siwe })
    const machine = signInMachine.provide({
      actors: {
        ...actors,
        signMessage: fromPromise(async () => answer as `0x${string}`),
        verifyAndKeep: fromPromise(async ({ input }) => {
          verified.push(input)
          const verify = (actors.verifyAndKeep as unknown as { config: (a: unknown) => Promise<never> })
            .config
          return verify({ input })
        }),
      },
    })
    const actor = createActor(machine, { input: { required: false } }).start()
    return { actor, verified, siwe }
  }

  it('a wallet answering no signed message: sign-in fails with "Invalid signature", nothing verified or kept', async () => {
    for (const answer of ['0x', `0x${'ab'.repeat(30)}`, `0x${'zz'.repeat(65)}`, 'ab'.repeat(65)]) {
      const { actor, verified, siwe } = withWallet(answer)
      actor.send({ type: 'signIn.account', account: ALICE })
      await waitFor(actor, (s) => s.matches('asking'))
      actor.send({ type: 'signIn.sign' })
      await waitFor(actor, (s) => !s.hasTag('busy'))
      expect(actor.getSnapshot().value).toBe('failed')
      expect(actor.getSnapshot().context).toMatchObject({ error: 'Invalid signature', signature: undefined })
      expect(verified).toEqual([])
      expect(await siwe.getSessions(CHAIN, alice.address)).toEqual([])
    }
  })

  it('62 hex characters is a signed message: it goes on to be verified (and, garbage, refused there)', async () => {
    const { actor, verified } = withWallet(`0x${'ab'.repeat(31)}`)
    actor.send({ type: 'signIn.account', account: ALICE })
    await waitFor(actor, (s) => s.matches('asking'))
    actor.send({ type: 'signIn.sign' })
    await waitFor(actor, (s) => !s.hasTag('busy'))
    expect(verified).toHaveLength(1)
    expect(actor.getSnapshot().context.error).toBe('Signature verification failed')
  })
})
