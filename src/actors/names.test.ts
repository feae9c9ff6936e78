import { QueryClient } from '@tanstack/react-query'
import { http, recoverMessageAddress, UserRejectedRequestError } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { mainnet } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { createConfig, createConnector } from 'wagmi'
import { connect } from 'wagmi/actions'
import { call } from '../../test/support/runActor'
import { dataApiKeys } from '../api/dataApi'
import type { NamesClient } from '../api/names'
import { NAME_CACHE_MS } from '../constants'
import { NameLabelError, NameRegistrationError, NameSuggestionsError } from '../errors/names'
import type { NameRegisterRequest, NameSuggestion } from '../machines/names/types'
import { createNamesActors, nameSuggestionsKey } from './names'

// Anvil's dev account 0: a local key signs, so the signature is checked by recovering its address.
const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const ACCOUNT = privateKeyToAccount(KEY)
const NOW = 1_700_000_000_123

/** A wallet holding the dev key: `personal_sign` signs with it, or refuses when told to. */
async function walletConfig(options: { refuse?: boolean } = {}) {
  const signed: string[] = []
  const provider = {
    request: async ({ method, params }: { method: string; params?: unknown[] }) => {
      if (method === 'eth_accounts' || method === 'eth_requestAccounts') return [ACCOUNT.address]
      if (method === 'eth_chainId') return '0x1'
      if (method === 'personal_sign') {
        if (options.refuse) throw new UserRejectedRequestError(new Error('User rejected the request.'))
        const [data] = params as [`0x${string}`]
        signed.push(data)
        return ACCOUNT.signMessage({ message: { raw: data } })
      }
      throw new Error(`unexpected ${method}`)
    },
    on() {},
    removeListener() {},
  }
  const wallet = createConnector(() => ({
    id: 'dev',
    name: 'dev',
    type: 'injected',
    connect: async () => ({ accounts: [ACCOUNT.address], chainId: 1 }) as never,
    disconnect: async () => {},
    getAccounts: async () => [ACCOUNT.address],
    getChainId: async () => 1,
    getProvider: async () => provider,
    isAuthorized: async () => true,
    onAccountsChanged: () => {},
    onChainChanged: () => {},
    onDisconnect: () => {},
  }))
  const wagmi = createConfig({
    chains: [mainnet],
    connectors: [wallet],
    transports: { [mainnet.id]: http('http://127.0.0.1:9') },
    storage: null,
    multiInjectedProviderDiscovery: false,
  })
  await connect(wagmi, { connector: wagmi.connectors[0]! } as never)
  return { wagmi, signed }
}

/** A names client whose calls the test answers, counting them. */
function fakeClient(parts: Partial<Pick<NamesClient, 'suggestions' | 'register'>> = {}) {
  const calls = { suggestions: 0, register: 0 }
  const client: NamesClient = {
    api: 'http://127.0.0.1:9/api',
    projectId: 'p1',
    suggestions: async (label, signal) => {
      calls.suggestions++
      return parts.suggestions
        ? parts.suggestions(label, signal)
        : [{ name: `${label}.reown.id`, registered: false }]
    },
    register: async (request, signal) => {
      calls.register++
      return parts.register ? parts.register(request, signal) : { name: 'alice.reown.id' }
    },
  }
  return { client, calls }
}

const REQUEST: NameRegisterRequest = {
  address: ACCOUNT.address,
  coinType: 2147483649,
  message: `app.example.com asks you to register the name alice.reown.id for the account ${ACCOUNT.address} on chain 1 at 2023-11-14T22:13:20Z.`,
  signature: `0x${'ab'.repeat(65)}`,
}

describe('names actors: fetchSuggestions', () => {
  it('answers through the QueryClient, cached NAME_CACHE_MS per label', async () => {
    const { wagmi } = await walletConfig()
    const { client, calls } = fakeClient()
    const queryClient = new QueryClient()
    const actors = createNamesActors({ wagmi, client, queryClient })
    const answer: NameSuggestion[] = [{ name: 'alice.reown.id', registered: false }]
    expect(await call(actors.fetchSuggestions, { label: 'alice' })).toEqual(answer)
    expect(await call(actors.fetchSuggestions, { label: 'alice' })).toEqual(answer)
    expect(calls.suggestions).toBe(1)
    await call(actors.fetchSuggestions, { label: 'alicia' })
    expect(calls.suggestions).toBe(2)
    const state = queryClient.getQueryState(nameSuggestionsKey(client, 'alice'))
    expect(state?.data).toEqual(answer)
    expect(
      queryClient.getQueryCache().find({ queryKey: nameSuggestionsKey(client, 'alice') })?.options,
    ).toMatchObject({ staleTime: NAME_CACHE_MS })
  })

  it('a failure is not cached: the next check asks again', async () => {
    const { wagmi } = await walletConfig()
    let fail = true
    const { client, calls } = fakeClient({
      suggestions: async (label) => {
        if (fail) throw new NameSuggestionsError({ details: 'HTTP 503' })
        return [{ name: `${label}.reown.id`, registered: true }]
      },
    })
    const actors = createNamesActors({ wagmi, client, queryClient: new QueryClient() })
    await expect(call(actors.fetchSuggestions, { label: 'alice' })).rejects.toBeInstanceOf(
      NameSuggestionsError,
    )
    fail = false
    expect(await call(actors.fetchSuggestions, { label: 'alice' })).toEqual([
      { name: 'alice.reown.id', registered: true },
    ])
    expect(calls.suggestions).toBe(2)
  })
})

describe('names actors: signRegistration', () => {
  // The signed text names the app, the purpose, the name, the account, the chain and the time (it was JSON of
  // the name and a timestamp only: src/utils/names.ts nameRegistrationMessage).
  it('builds a sentence naming the app, name, account, chain and time, has the connected wallet sign it, and names ENSIP-11’s coin type', async () => {
    const { wagmi, signed } = await walletConfig()
    const { client } = fakeClient()
    const actors = createNamesActors({
      wagmi,
      client,
      queryClient: new QueryClient(),
      now: () => NOW,
      domain: 'app.example.com',
    })
    const out = await call(actors.signRegistration, {
      address: ACCOUNT.address,
      chainId: 31337,
      name: 'alice.reown.id',
    })
    expect(out.message).toBe(
      'app.example.com asks you to register the name alice.reown.id for the account 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 on chain 31337 at 2023-11-14T22:13:20Z.',
    )
    expect(out.coinType).toBe(0x80007a69)
    expect(signed).toHaveLength(1)
    expect(await recoverMessageAddress({ message: out.message, signature: out.signature })).toBe(
      ACCOUNT.address,
    )
  })

  it('a label the LDH rules refuse is never signed', async () => {
    const { wagmi, signed } = await walletConfig()
    const actors = createNamesActors({
      wagmi,
      client: fakeClient().client,
      queryClient: new QueryClient(),
      domain: 'app.example.com',
    })
    for (const [name, rule] of [
      ['xn--80ak6aa92e.reown.id', 'punycode'],
      ['-alice-.reown.id', 'hyphenEdge'],
      ['al--ice.reown.id', 'hyphen34'],
    ] as const) {
      const error = await call(actors.signRegistration, { address: ACCOUNT.address, chainId: 1, name }).catch(
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(NameRegistrationError)
      expect((error as NameRegistrationError).cause).toBeInstanceOf(NameLabelError)
      expect(((error as NameRegistrationError).cause as NameLabelError).rule).toBe(rule)
    }
    expect(signed).toEqual([])
  })

  it('names the page’s host when no domain is given, and signs nothing without one', async () => {
    const { wagmi, signed } = await walletConfig()
    const actors = createNamesActors({ wagmi, client: fakeClient().client, queryClient: new QueryClient() })
    const request = { address: ACCOUNT.address, chainId: 1, name: 'alice.reown.id' }
    const location = Object.getOwnPropertyDescriptor(globalThis, 'location')
    try {
      Object.defineProperty(globalThis, 'location', { value: undefined, configurable: true })
      const error = await call(actors.signRegistration, request).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(NameRegistrationError)
      expect(signed).toEqual([])
      Object.defineProperty(globalThis, 'location', {
        value: { host: 'shop.example:8443' },
        configurable: true,
      })
      const out = await call(actors.signRegistration, request)
      expect(out.message).toMatch(/^shop\.example:8443 asks you to register the name alice\.reown\.id /)
    } finally {
      if (location) Object.defineProperty(globalThis, 'location', location)
      else delete (globalThis as { location?: unknown }).location
    }
  })

  it('names the coin type of chain 1 as ENSIP-11 does (not SLIP-44’s 60)', async () => {
    const { wagmi } = await walletConfig()
    const actors = createNamesActors({
      wagmi,
      client: fakeClient().client,
      queryClient: new QueryClient(),
      domain: 'app.example.com',
    })
    const out = await call(actors.signRegistration, {
      address: ACCOUNT.address,
      chainId: 1,
      name: 'alice.reown.id',
    })
    expect(out.coinType).toBe(2147483649)
  })

  it('a refusal in the wallet is a failed registration of that name, the cause kept', async () => {
    const { wagmi } = await walletConfig({ refuse: true })
    const actors = createNamesActors({
      wagmi,
      client: fakeClient().client,
      queryClient: new QueryClient(),
      domain: 'app.example.com',
    })
    const error = await call(actors.signRegistration, {
      address: ACCOUNT.address,
      chainId: 1,
      name: 'alice.reown.id',
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NameRegistrationError)
    expect((error as NameRegistrationError).shortMessage).toBe('Error registering name alice.reown.id')
    expect((error as NameRegistrationError).walk((e) => e instanceof UserRejectedRequestError)).not.toBeNull()
  })
})

describe('names actors: registerName', () => {
  it('registers, forgets the name’s cached suggestions (taken now) and the account’s profile (it has the name now)', async () => {
    const { wagmi } = await walletConfig()
    const seen: NameRegisterRequest[] = []
    const { client } = fakeClient({
      register: async (request) => {
        seen.push(request)
        return { name: 'alice.reown.id', registered: 1 }
      },
    })
    const queryClient = new QueryClient()
    const actors = createNamesActors({ wagmi, client, queryClient })
    await call(actors.fetchSuggestions, { label: 'alice' })
    // The account's reverse look-up as the views read it (src/api/queries.ts), cached without the name.
    const profileKey = dataApiKeys.names(client, ACCOUNT.address, 'eip155:1')
    queryClient.setQueryData(profileKey, [])
    expect(await call(actors.registerName, REQUEST)).toEqual({ name: 'alice.reown.id', registered: 1 })
    expect(seen).toEqual([REQUEST])
    expect(queryClient.getQueryState(nameSuggestionsKey(client, 'alice'))?.isInvalidated).toBe(true)
    expect(queryClient.getQueryState(profileKey)?.isInvalidated).toBe(true)
  })

  it('keeps the client’s error, and makes anything else a failed registration of the name', async () => {
    const { wagmi } = await walletConfig()
    const taken = new NameRegistrationError({ name: 'alice.reown.id', status: 409, details: 'HTTP 409' })
    const first = createNamesActors({
      wagmi,
      client: fakeClient({ register: () => Promise.reject(taken) }).client,
      queryClient: new QueryClient(),
    })
    expect(await call(first.registerName, REQUEST).catch((e: unknown) => e)).toBe(taken)
    const second = createNamesActors({
      wagmi,
      client: fakeClient({ register: () => Promise.reject(new TypeError('boom')) }).client,
      queryClient: new QueryClient(),
    })
    const error = (await call(second.registerName, REQUEST).catch((e: unknown) => e)) as NameRegistrationError
    expect(error).toBeInstanceOf(NameRegistrationError)
    expect(error.shortMessage).toBe('Error registering name alice.reown.id')
    expect(error.details).toBe('boom')
  })
})
