import { QueryClient } from '@tanstack/react-query'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  DATA_API_MAX_ITEMS,
  DATA_API_MAX_NAME_ADDRESSES,
  DATA_API_MAX_NAME_ATTRIBUTES,
  DATA_API_MAX_TRANSFERS,
} from '../constants'
import { type DataApiCall, DataApiError } from '../errors/api'
import { isCaip2 } from '../utils/caip'
import { createDataApiClient, type DataApiClient, dataApiKeys, safeImageUrl } from './dataApi'

/**
 * Fuzzing the Data API client with near-valid answers (issue 13): each case is a valid answer of one call with
 * exactly one thing wrong (a field of the wrong type, a field missing or under another name, a number JSON reads
 * as Infinity, an unsafe or over-long URL, a list past one of its caps, prototype keys). Whatever comes back, the client
 * either answers a value that keeps its type's promises (finite numbers, safe image URLs, caps held, known
 * keys only) or rejects with the family's `DataApiError` for that call; nothing else is thrown, nothing leaks
 * into `Object.prototype`, and the shared supported-networks cache never holds a value of the wrong shape.
 * About one case in twelve is the valid answer itself, which must come back exactly as expected (a client
 * that refused everything would fail here).
 *
 * Mutation note (each check removed by hand, the suite run, the check restored):
 * - balances: `value: v.optional(finite, 0)` made `v.optional(v.number(), 0)` in TokenBalanceSchema: the
 *   balances property failed (a `-1e400` value came back as -Infinity).
 * - history: `keepValid(TransferSchema, items, DATA_API_MAX_TRANSFERS)` without its cap: the history property
 *   failed (a list of DATA_API_MAX_TRANSFERS + 1 transfers came back whole).
 * - supported chains: `v.maxLength(DATA_API_MAX_ITEMS)` removed from `chainIds`: the supported-chains
 *   property failed (DATA_API_MAX_ITEMS + 1 networks kept).
 * - prices: `keepValid(PriceSchema, answer.fungibles, addresses.length)` without its cap: the prices property
 *   failed (3 prices kept for the 2 tokens asked about).
 * - identity: `safeImageUrl(identity.avatar) ?? null` replaced by the raw avatar: the identity property failed
 *   (an empty-string avatar came back as it was).
 * - names: the coin-type key check (`/^\d{1,10}$/`) in NameRecordSchema's addresses removed: the names
 *   property failed (an address under the key `''`, renamed from `'60'`, was kept).
 * Before the fixes of the commit that added it, the suite also found two real faults: a balance or a price
 * without `iconUrl` came back without the string its type promises, and a nonce of -2^53 was kept.
 */

const RUNS = 10_000
const CHAIN = 'eip155:1'
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const TOKEN = `${CHAIN}:0x036CbD53842c5426634e7929541eC2318f3dCF7e`
/** Stands for a number JSON.parse reads as Infinity (`1e400`), which JSON.stringify cannot write. */
const INFINITY = '__fuzz_infinity__'
const NEG_INFINITY = '__fuzz_neg_infinity__'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

// ---------------------------------------------------------------------------------------------------------
// Valid answers, one per call

const balance = (symbol: string): Json => ({
  name: `${symbol} Token`,
  symbol,
  chainId: CHAIN,
  address: TOKEN,
  value: 12.5,
  price: 2.5,
  quantity: { decimals: '18', numeric: '5.0' },
  iconUrl: 'https://img.example/t.png',
})
const transfer: Json = {
  fungible_info: { name: 'USD Coin', symbol: 'USDC', icon: { url: 'https://img.example/usdc.png' } },
  direction: 'in',
  quantity: { numeric: '1.5' },
  value: 1.5,
  price: 1,
}
const historyItem: Json = {
  id: 'tx-1',
  metadata: {
    operationType: 'receive',
    hash: '0xabc',
    minedAt: '2025-01-01T00:00:00.000Z',
    sentFrom: ADDRESS,
    sentTo: ADDRESS,
    status: 'confirmed',
    nonce: 3,
    chain: CHAIN,
  },
  transfers: [
    transfer,
    {
      nft_info: {
        name: 'Punk',
        content: { preview: { url: 'https://img.example/p.png', content_type: 'image/png' } },
        flags: { is_spam: false },
      },
      direction: 'out',
      quantity: { numeric: '1' },
    },
  ],
}
const price = (symbol: string): Json => ({
  name: `${symbol} Token`,
  symbol,
  iconUrl: 'https://img.example/p.png',
  price: 1.25,
})
const nameRecord: Json = {
  name: 'alice.reown.id',
  registered: 1_700_000_000,
  addresses: { '60': { address: ADDRESS, created: 1_700_000_000 } },
  attributes: { avatar: 'https://img.example/alice.png', bio: 'hi' },
}

interface Subject {
  call: DataApiCall
  valid: Json
  /** The client's answer to the valid body. */
  expected: unknown
  run(client: DataApiClient): Promise<unknown>
  /** What a value the client answered must keep, whatever the body. */
  check(value: unknown): void
  /** The caps that hold for the list at a path, for the "past the cap" mutation. */
  capAt(path: readonly (string | number)[]): number[]
}

const isSafeImage = (url: unknown) => typeof url === 'string' && safeImageUrl(url) === url
const expectFinite = (value: unknown) => expect(Number.isFinite(value)).toBe(true)
const DECIMAL = /^-?\d{1,80}(\.\d{1,80})?$/

function checkFungibleTransfer(t: Record<string, unknown>) {
  expect(['in', 'out', 'self']).toContain(t.direction)
  expect((t.quantity as { numeric: string }).numeric).toMatch(DECIMAL)
  if ('value' in t) expectFinite(t.value)
  if ('price' in t) expectFinite(t.price)
  const fungible = t.fungible_info as { name: string; symbol: string; icon?: { url: string } } | undefined
  if (fungible) {
    expect(fungible.symbol.length).toBeGreaterThan(0)
    if (fungible.icon) expect(isSafeImage(fungible.icon.url)).toBe(true)
  }
  const nft = t.nft_info as
    | { content?: { preview?: { url: string }; detail?: { url: string } }; flags: { is_spam: boolean } }
    | undefined
  if (nft) {
    expect(typeof nft.flags.is_spam).toBe('boolean')
    if (nft.content?.preview) expect(isSafeImage(nft.content.preview.url)).toBe(true)
    if (nft.content?.detail) expect(isSafeImage(nft.content.detail.url)).toBe(true)
  }
}

const SUBJECTS: Subject[] = [
  {
    call: 'balance',
    valid: { balances: [balance('USDC'), balance('DAI')] },
    expected: {
      supported: true,
      balances: ['USDC', 'DAI'].map((symbol) => ({
        name: `${symbol} Token`,
        symbol,
        chainId: CHAIN,
        address: TOKEN,
        value: 12.5,
        price: 2.5,
        quantity: { decimals: '18', numeric: '5.0' },
        iconUrl: 'https://img.example/t.png',
      })),
    },
    run: (client) => client.getBalances({ address: ADDRESS, chainId: CHAIN }),
    check(value) {
      const { balances, supported } = value as { balances: Record<string, unknown>[]; supported: boolean }
      expect(supported).toBe(true)
      expect(balances.length).toBeLessThanOrEqual(DATA_API_MAX_ITEMS)
      for (const b of balances) {
        expectFinite(b.value)
        expectFinite(b.price)
        expect(isCaip2(b.chainId as string)).toBe(true)
        expect((b.symbol as string).length).toBeGreaterThan(0)
        const quantity = b.quantity as { decimals: string; numeric: string }
        expect(quantity.numeric).toMatch(DECIMAL)
        expect(quantity.decimals).toMatch(/^\d{1,3}$/)
        expect(quantity.decimals).not.toBe('0')
        expect(b.iconUrl === '' || isSafeImage(b.iconUrl)).toBe(true)
      }
    },
    capAt: () => [DATA_API_MAX_ITEMS],
  },
  {
    call: 'history',
    valid: { data: [historyItem], next: 'cursor-2' },
    expected: {
      supported: true,
      next: 'cursor-2',
      data: [
        {
          ...(historyItem as object),
          transfers: [
            transfer,
            {
              nft_info: {
                name: 'Punk',
                content: { preview: { url: 'https://img.example/p.png', content_type: 'image/png' } },
                flags: { is_spam: false },
              },
              direction: 'out',
              quantity: { numeric: '1' },
            },
          ],
        },
      ],
    },
    run: (client) => client.getHistory({ account: ADDRESS, chainId: CHAIN }),
    check(value) {
      const page = value as { data: Record<string, unknown>[]; next: string | null; supported: boolean }
      expect(page.data.length).toBeLessThanOrEqual(DATA_API_MAX_ITEMS)
      expect(page.next === null || (typeof page.next === 'string' && page.next.length <= 1_000)).toBe(true)
      for (const item of page.data) {
        expect(typeof item.id).toBe('string')
        const metadata = item.metadata as Record<string, unknown>
        expect(['confirmed', 'failed', 'pending']).toContain(metadata.status)
        expect(Number.isNaN(Date.parse(metadata.minedAt as string))).toBe(false)
        if ('nonce' in metadata) expect(Number.isSafeInteger(metadata.nonce)).toBe(true)
        if ('chain' in metadata) expect(isCaip2(metadata.chain as string)).toBe(true)
        const transfers = item.transfers as Record<string, unknown>[]
        expect(transfers.length).toBeLessThanOrEqual(DATA_API_MAX_TRANSFERS)
        for (const t of transfers) checkFungibleTransfer(t)
      }
    },
    capAt: (path) => [path.includes('transfers') ? DATA_API_MAX_TRANSFERS : DATA_API_MAX_ITEMS],
  },
  {
    call: 'supportedChains',
    valid: { http: [CHAIN, 'eip155:137'], ws: [CHAIN] },
    expected: { http: [CHAIN, 'eip155:137'], ws: [CHAIN] },
    run: (client) => client.getSupportedChains(),
    check(value) {
      const chains = value as { http: unknown[]; ws: unknown[] }
      for (const list of [chains.http, chains.ws]) {
        expect(Array.isArray(list)).toBe(true)
        expect(list.length).toBeLessThanOrEqual(DATA_API_MAX_ITEMS)
        for (const id of list) expect(typeof id).toBe('string')
      }
    },
    capAt: () => [DATA_API_MAX_ITEMS],
  },
  {
    call: 'prices',
    valid: { fungibles: [price('USDC'), price('DAI')] },
    expected: [
      { name: 'USDC Token', symbol: 'USDC', iconUrl: 'https://img.example/p.png', price: 1.25 },
      { name: 'DAI Token', symbol: 'DAI', iconUrl: 'https://img.example/p.png', price: 1.25 },
    ],
    run: (client) =>
      client.getPrices({ addresses: [TOKEN, `${CHAIN}:0x0000000000000000000000000000000000000001`] }),
    check(value) {
      const prices = value as Record<string, unknown>[]
      expect(prices.length).toBeLessThanOrEqual(2)
      for (const p of prices) {
        expectFinite(p.price)
        expect((p.symbol as string).length).toBeGreaterThan(0)
        expect(p.iconUrl === '' || isSafeImage(p.iconUrl)).toBe(true)
      }
    },
    // The answer's own cap, and no more prices than the two tokens asked about.
    capAt: () => [DATA_API_MAX_ITEMS, 2],
  },
  {
    call: 'identity',
    valid: { name: 'alice.reown.id', avatar: 'https://img.example/alice.png' },
    expected: { name: 'alice.reown.id', avatar: 'https://img.example/alice.png' },
    run: (client) => client.getIdentity({ address: ADDRESS, chainId: CHAIN }),
    check(value) {
      const { name, avatar } = value as { name: unknown; avatar: unknown }
      expect(name === null || (typeof name === 'string' && name !== '' && name.length <= 255)).toBe(true)
      expect(avatar === null || isSafeImage(avatar)).toBe(true)
    },
    capAt: () => [DATA_API_MAX_ITEMS],
  },
  {
    call: 'names',
    valid: [nameRecord],
    expected: [nameRecord],
    run: (client) => client.getNames({ address: ADDRESS, chainId: CHAIN }),
    check(value) {
      const records = value as Record<string, unknown>[]
      expect(records.length).toBeLessThanOrEqual(DATA_API_MAX_ITEMS)
      for (const record of records) {
        const addresses = record.addresses as Record<string, { address: unknown; created?: unknown }>
        expect(Object.getPrototypeOf(addresses)).toBe(Object.prototype)
        const keys = Object.keys(addresses)
        expect(keys.length).toBeLessThanOrEqual(DATA_API_MAX_NAME_ADDRESSES)
        for (const key of keys) {
          expect(key).toMatch(/^\d{1,10}$/)
          expect(typeof addresses[key]?.address).toBe('string')
          if ('created' in addresses[key]!) expectFinite(addresses[key]?.created)
        }
        if ('registered' in record) expectFinite(record.registered)
        const attributes = record.attributes as { avatar?: unknown; bio?: unknown }
        if ('avatar' in attributes) expect(isSafeImage(attributes.avatar)).toBe(true)
      }
    },
    capAt: (path) => [
      path.includes('addresses')
        ? DATA_API_MAX_NAME_ADDRESSES
        : path.includes('attributes')
          ? DATA_API_MAX_NAME_ATTRIBUTES
          : DATA_API_MAX_ITEMS,
    ],
  },
]

// ---------------------------------------------------------------------------------------------------------
// Near-valid answers: the valid one with exactly one thing wrong

type Path = (string | number)[]

/** Every place in a value (the root too), containers and leaves. */
function pathsOf(value: Json, prefix: Path = []): Path[] {
  const out: Path[] = [prefix]
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) out.push(...pathsOf(item, [...prefix, i]))
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) out.push(...pathsOf(item, [...prefix, key]))
  }
  return out
}

function getAt(value: Json, path: Path): Json {
  let at: Json = value
  for (const key of path) at = (at as Record<string | number, Json>)[key] as Json
  return at
}

/** A copy of `value` with the place at `path` replaced by `make(old)` (or removed when it answers `undefined`). */
function mutateAt(value: Json, path: Path, make: (old: Json) => Json | undefined): Json {
  if (path.length === 0) return make(value) ?? null
  const copy = structuredClone(value) as Record<string | number, Json>
  const parent = getAt(copy as Json, path.slice(0, -1)) as Record<string | number, Json>
  const key = path[path.length - 1]!
  const next = make(parent[key] as Json)
  if (next === undefined) {
    if (Array.isArray(parent)) parent.splice(key as number, 1)
    else delete parent[key]
  } else {
    parent[key] = next
  }
  return copy as Json
}

const UNSAFE_URLS = [
  'javascript:alert(1)',
  ' JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  `data:image/svg+xml;base64,${'A'.repeat(200_001)}`,
  'https://user:pw@evil.example/x.png',
  `https://img.example/${'a'.repeat(5_000)}`,
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  '//evil.example/x.png',
  'blob:https://app.example/0b1c',
]

/** A value of the wrong type or shape for whatever field it lands in. */
const wrongValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(null, true, false, 0, -1, 1.5, '', 'NaN', '1e9', '-0', INFINITY, NEG_INFINITY),
  fc.constantFrom<Json>([], {}, [null], { url: 'javascript:alert(1)' }, ['eip155:1']),
  fc.constantFrom<Json>(...UNSAFE_URLS),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 20 }),
  fc.string({ minLength: 300, maxLength: 2_000 }),
)

type Mutation =
  | { kind: 'replace'; at: number; with: Json }
  | { kind: 'remove'; at: number }
  | { kind: 'infinite'; at: number; negative: boolean }
  | { kind: 'overCap'; at: number; extra: number }
  | { kind: 'protoKey'; at: number; key: string; with: Json }
  | { kind: 'renameKey'; at: number; key: string }
  | { kind: 'none' }

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), with: wrongValue }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('infinite' as const), at: fc.nat(), negative: fc.boolean() }),
  },
  {
    // Each such answer is a thousand items or more: fewer of them keep the suite within its time.
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('overCap' as const),
      at: fc.nat(),
      extra: fc.integer({ min: 1, max: 20 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('protoKey' as const),
      at: fc.nat(),
      key: fc.constantFrom('__proto__', 'constructor', 'prototype'),
      with: fc.constantFrom<Json>({ polluted: true }, { address: ADDRESS }, 'x', [1]),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('renameKey' as const),
      at: fc.nat(),
      key: fc.oneof(
        fc.constantFrom('', 'x', '-1', '1e3', '60 ', ' 60', '0x3c', '__proto__', 'constructor', 'toString'),
        fc.string({ maxLength: 12 }),
      ),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
)

/** The answer's text: the valid body with the mutation applied. */
function answerText(subject: Subject, m: Mutation): string {
  const valid = subject.valid
  const paths = pathsOf(valid)
  let body: Json = valid
  switch (m.kind) {
    case 'none':
      break
    case 'replace':
      body = mutateAt(valid, paths[m.at % paths.length]!, () => m.with)
      break
    case 'remove': {
      // Only members and items can go; removing the root is "replace with null".
      const path = paths[m.at % paths.length]!
      body = mutateAt(valid, path, () => undefined)
      break
    }
    case 'infinite': {
      const numbers = paths.filter((p) => typeof getAt(valid, p) === 'number' || p.length > 0)
      const path = numbers[m.at % numbers.length]!
      body = mutateAt(valid, path, () => (m.negative ? NEG_INFINITY : INFINITY))
      break
    }
    case 'overCap': {
      const lists = paths.filter((p) => Array.isArray(getAt(valid, p)) || isAddressMap(valid, p))
      if (lists.length === 0) {
        // An answer with no list (identity): a list of answers where one is expected.
        body = Array.from({ length: subject.capAt([])[0]! + m.extra }, () => valid)
        break
      }
      const path = lists[m.at % lists.length]!
      const caps = subject.capAt(path)
      const cap = caps[m.extra % caps.length]!
      body = mutateAt(valid, path, (old) => {
        if (Array.isArray(old)) {
          // One past the cap or more, of valid items (copies of the first), so only the cap stops them.
          return Array.from({ length: cap + m.extra }, (_, i) => old[i % Math.max(old.length, 1)] ?? null)
        }
        const [entry] = Object.values(old as Record<string, Json>)
        return Object.fromEntries(Array.from({ length: cap + m.extra }, (_, i) => [String(i), entry ?? null]))
      })
      break
    }
    case 'protoKey': {
      const objects = paths.filter((p) => {
        const at = getAt(valid, p)
        return at !== null && typeof at === 'object' && !Array.isArray(at)
      })
      const path = objects[m.at % objects.length]!
      // A computed key makes an own property, which JSON.stringify writes (as a hostile server would).
      body = mutateAt(valid, path, (old) => ({ ...(old as Record<string, Json>), [m.key]: m.with }))
      break
    }
    case 'renameKey': {
      // One member of an object under another name (a misspelt field, a coin type that is no number).
      const members = paths.filter((p) => {
        if (p.length === 0) return false
        const parent = getAt(valid, p.slice(0, -1))
        return parent !== null && typeof parent === 'object' && !Array.isArray(parent)
      })
      const path = members[m.at % members.length]!
      const name = path[path.length - 1] as string
      body = mutateAt(valid, path.slice(0, -1), (old) => {
        const { [name]: moved, ...rest } = old as Record<string, Json>
        return { ...rest, [m.key]: moved as Json }
      })
      break
    }
  }
  return JSON.stringify(body).replaceAll(`"${INFINITY}"`, '1e400').replaceAll(`"${NEG_INFINITY}"`, '-1e400')
}

function isAddressMap(valid: Json, path: Path): boolean {
  return path[path.length - 1] === 'addresses' && typeof getAt(valid, path) === 'object'
}

function clientAnswering(subject: Subject, text: string, queryClient: QueryClient): DataApiClient {
  const supported = JSON.stringify({ http: [CHAIN], ws: [] })
  return createDataApiClient({
    api: 'https://api.fuzz.invalid',
    projectId: 'fuzz',
    queryClient,
    fetch: async (input) => {
      const own = subject.call === 'supportedChains'
      const isCheck = new URL(String(input)).pathname.endsWith('/v1/supported-chains')
      return new Response(isCheck && !own ? supported : text, {
        status: 200,
        headers: { 'content-type': 'application/json' },
      })
    },
  })
}

describe('Data API answers into the client (fuzz, near-valid answers)', () => {
  it.each(SUBJECTS.map((subject) => [subject.call, subject] as const))(
    '%s: answers a value that keeps its promises, or DataApiError; nothing else escapes',
    async (_call, subject) => {
      // One QueryClient, emptied after every case once its cache has been checked.
      const queryClient = new QueryClient()
      await fc.assert(
        fc.asyncProperty(mutation, async (m) => {
          const text = answerText(subject, m)
          const client = clientAnswering(subject, text, queryClient)
          const outcome = await subject.run(client).then(
            (value) => ({ ok: true as const, value }),
            (error: unknown) => ({ ok: false as const, error }),
          )
          if (outcome.ok) {
            subject.check(outcome.value)
            if (m.kind === 'none') expect(outcome.value).toEqual(subject.expected)
          } else {
            expect(outcome.error).toBeInstanceOf(DataApiError)
            expect((outcome.error as DataApiError).call).toBe(subject.call)
            // An answer over the HTTP client's body cap is refused as too large, any other bad answer as malformed.
            expect(['malformed', 'tooLarge']).toContain((outcome.error as DataApiError).kind)
            expect(m.kind).not.toBe('none')
          }
          // No state leaked: nothing on Object.prototype, and the shared cache holds a valid answer or none.
          expect(Object.prototype).not.toHaveProperty('polluted')
          const cached = queryClient.getQueryData(dataApiKeys.supportedChains(client))
          if (cached !== undefined) SUBJECTS[2]!.check(cached)
          queryClient.clear()
        }),
        { numRuns: RUNS },
      )
    },
    // A bound for a loaded machine, not a speed check: each subject's 10,000 cases take a few seconds alone.
    180_000,
  )
})
