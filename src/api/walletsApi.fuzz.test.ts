/**
 * Fuzzing the wallet-listing boundary (issue 13): listing answers that are valid but for one thing, into the
 * entry parser (`parseWalletListing`), the client (`fetchWallets` over a fake `fetch` whose Response carries
 * the generated body) and the wallets machine (a bad next page must leave the loaded list as it was).
 *
 * Mutation note (each checked by hand on this machine, then restored):
 * - `parseWalletListing`: with `mobile_link: lenient(safeDeepLink)` replaced by a lenient "any string" pick,
 *   all three properties failed (the first counterexample kept a mobile link `safeDeepLink` refuses, `""`).
 * - `ListingPageReader`: with its `count` check removed (any `count` value taken as it is), the client
 *   property failed (`{"count":[],"data":[]}` answered a count of `[]`) and the machine property failed (a
 *   count of `"javascript:alert(1)"` replaced the list's: "state unchanged on a bad page").
 * - The page cap: with `if (this.data.length >= this.wanted) this.full = true` removed from the reader, the
 *   client property failed (a page of two entries for `entries: 1`).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createActor, fromPromise, waitFor } from 'xstate'
import { WALLET_CHAINS_MAX, WALLET_INJECTED_MAX, WALLETS_ENTRIES_MAX } from '../constants'
import { type FetchWalletsInput, walletsMachine } from '../machines/wallets'
import { safeDeepLink, safeHttpUrl } from '../utils/links'
import {
  type FetchWalletsReturnType,
  fetchWallets,
  parseWalletListing,
  WALLET_NAME_MAX_LENGTH,
  type WalletListing,
  WalletsApiError,
} from './walletsApi'

const RUNS = 10_000

/** A wallet entry as the listing serves it, every field valid. */
const validEntry = fc.record({
  id: fc.stringMatching(/^[A-Za-z0-9._:-]{1,40}$/),
  name: fc.string({ minLength: 1, maxLength: 30 }).filter((name) => name.trim() !== ''),
  image_id: fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
  rdns: fc.constantFrom('io.metamask', 'me.rainbow', 'com.example.wallet'),
  chains: fc.array(fc.constantFrom('eip155:1', 'eip155:137', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'), {
    maxLength: 3,
  }),
  mobile_link: fc.constantFrom('rainbow://', 'metamask://wc', 'https://link.example/wc'),
  desktop_link: fc.constantFrom('ledgerlive://', 'https://desk.example/'),
  webapp_link: fc.constantFrom('https://app.example/', 'http://127.0.0.1:5173/'),
  homepage: fc.constant('https://wallet.example/'),
  app_store: fc.constant('https://apps.apple.com/app/id1'),
  play_store: fc.constant('https://play.google.com/store/apps/details?id=x'),
  chrome_store: fc.constant('https://chromewebstore.google.com/detail/x'),
  badge_type: fc.constantFrom('certified', 'none'),
  injected: fc.array(fc.record({ namespace: fc.constant('eip155'), injected_id: fc.constant('io.wallet') }), {
    maxLength: 2,
  }),
  supports_wc: fc.boolean(),
})

const FIELDS = [
  'id',
  'name',
  'image_id',
  'rdns',
  'chains',
  'mobile_link',
  'desktop_link',
  'webapp_link',
  'homepage',
  'app_store',
  'play_store',
  'chrome_store',
  'badge_type',
  'injected',
  'supports_wc',
] as const

/** What a hostile listing puts in a field. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    'javascript:alert(1)',
    ' JaVaScRiPt:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'blob:https://x.example/1',
    'about:blank',
    'https://user:pw@evil.example',
    '"><img src=x onerror=alert(1)>',
    '\u202eevil\u202c',
    '\u0000\u0007',
    '  ',
    '',
    '..',
    '../../secret',
    'a,b',
    '__proto__',
    'constructor',
    'x'.repeat(70_000),
    `https://e.example/${'a'.repeat(5000)}`,
  ),
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, [], {}, [[]], { toString: 'x' }),
  fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.object()), { maxLength: 40 }),
  fc.array(fc.constantFrom('eip155:1', 'nope', 7), { minLength: 300, maxLength: 2000 }),
  fc.array(fc.record({ namespace: fc.constantFrom('eip155', 1, ''), injected_id: fc.string() }), {
    minLength: 20,
    maxLength: 200,
  }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.object({ maxDepth: 2 }),
)

/** An entry with exactly one thing wrong: a field replaced, removed, or a prototype key added (as JSON). */
const nearValidEntryJson: fc.Arbitrary<string> = fc
  .tuple(validEntry, fc.constantFrom(...FIELDS), hostileValue, fc.integer({ min: 0, max: 3 }))
  .map(([entry, field, value, how]) => {
    const copy: Record<string, unknown> = { ...entry }
    if (how === 0) {
      delete copy[field]
      return JSON.stringify(copy)
    }
    if (how === 1) {
      // A prototype key next to the valid fields: JSON.parse makes it an own property, as a server could.
      const text = JSON.stringify(copy)
      return `{"__proto__":${JSON.stringify(value) ?? 'null'},${text.slice(1)}`
    }
    copy[field] = value
    return JSON.stringify(copy) ?? '{}'
  })

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL_OR_BIDI = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u
const BAD_SCHEME = /^\s*(javascript|vbscript|data|file|blob|about):/i
const KNOWN_KEYS = new Set<string>([...FIELDS, 'image_url'])

/** A plain check: `expect` is far slower, and these run some 300,000 times. */
function check(ok: boolean, what: string, wallet: unknown): void {
  if (!ok) throw new Error(`${what}: ${JSON.stringify(wallet)?.slice(0, 300)}`)
}

/** The rules every parsed entry keeps, whatever the listing said. */
function assertSafeEntry(wallet: WalletListing): void {
  check(typeof wallet.id === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(wallet.id), 'id', wallet)
  check(typeof wallet.name === 'string' && wallet.name.length > 0, 'name empty', wallet)
  check(Array.from(wallet.name).length <= WALLET_NAME_MAX_LENGTH, 'name too long', wallet)
  check(!CONTROL_OR_BIDI.test(wallet.name), 'name with control or bidi characters', wallet)
  check(Object.getPrototypeOf(wallet) === Object.prototype, 'prototype changed', wallet)
  for (const key of Object.keys(wallet)) check(KNOWN_KEYS.has(key), `unknown key ${key}`, wallet)
  for (const key of ['mobile_link', 'desktop_link'] as const) {
    const link = wallet[key]
    if (link === undefined) continue
    check(!BAD_SCHEME.test(link) && safeDeepLink(link) === link, `unsafe ${key}`, wallet)
  }
  for (const key of ['webapp_link', 'homepage', 'app_store', 'play_store', 'chrome_store'] as const) {
    const link = wallet[key]
    if (link === undefined) continue
    check(/^https?:\/\//.test(link) && safeHttpUrl(link) === link, `unsafe ${key}`, wallet)
  }
  check(Array.isArray(wallet.chains) && wallet.chains.length <= WALLET_CHAINS_MAX, 'chains', wallet)
  for (const chain of wallet.chains)
    check(typeof chain === 'string' && /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/.test(chain), 'chain', wallet)
  if (wallet.injected !== undefined) {
    check(wallet.injected.length > 0 && wallet.injected.length <= WALLET_INJECTED_MAX, 'injected', wallet)
  }
  if (wallet.image_id !== undefined) check(/^[A-Za-z0-9_-]{1,128}$/.test(wallet.image_id), 'image_id', wallet)
  if (wallet.badge_type !== undefined)
    check(wallet.badge_type === 'certified' || wallet.badge_type === 'none', 'badge_type', wallet)
  if (wallet.supports_wc !== undefined) check(typeof wallet.supports_wc === 'boolean', 'supports_wc', wallet)
}

/** A page with one thing wrong, or entries each with one thing wrong. */
const pageBody: fc.Arbitrary<{ body: string; entries: number }> = fc
  .tuple(
    fc.array(
      fc.oneof(
        validEntry.map((entry) => JSON.stringify(entry)),
        nearValidEntryJson,
      ),
      {
        maxLength: 8,
      },
    ),
    fc.integer({ min: 0, max: 1000 }),
    fc.integer({ min: 0, max: 9 }),
    fc.integer({ min: 1, max: 5 }),
    hostileValue,
  )
  .map(([entries, count, how, wanted, value]) => {
    const data = `[${entries.join(',')}]`
    const valueJson = JSON.stringify(value) ?? 'null'
    const bodies = [
      `{"count":${count},"data":${data}}`,
      `{"data":${data},"count":${count}}`,
      `{"count":${valueJson},"data":${data}}`,
      `{"count":${count},"data":${valueJson}}`,
      `{"count":${count}}`,
      `{"count":${count},"data":${data}`,
      `{"count":${count},"data":${data}} trailing`,
      `{"__proto__":{"count":1},"count":${count},"data":${data}}`,
      `[${data}]`,
      `{"count":${count},"data":${data},"data":${valueJson}}`,
    ]
    return { body: bodies[how] ?? bodies[0]!, entries: wanted }
  })

const fakeFetch =
  (body: string): typeof fetch =>
  async () =>
    new Response(body, { headers: { 'content-type': 'application/json' } })

const call = (body: string, entries: number) =>
  fetchWallets({ walletsApi: 'https://w.example', projectId: 'p', page: 1, entries, fetch: fakeFetch(body) })

describe('listing fuzz', () => {
  it(`parseWalletListing: ${RUNS} near-valid entries never throw and never yield an unsafe entry`, () => {
    const outcomes = { kept: 0, dropped: 0 }
    fc.assert(
      fc.property(nearValidEntryJson, (json) => {
        const wallet = parseWalletListing(JSON.parse(json))
        outcomes[wallet === undefined ? 'dropped' : 'kept']++
        if (wallet !== undefined) assertSafeEntry(wallet)
      }),
      { numRuns: RUNS },
    )
    // Near-valid means most entries survive with the bad field dropped, and some are refused whole.
    expect(outcomes.kept).toBeGreaterThan(RUNS / 2)
    expect(outcomes.dropped).toBeGreaterThan(RUNS / 50)
  })

  it(`fetchWallets: ${RUNS} near-valid answers resolve to a bounded, safe page or reject with WalletsApiError`, async () => {
    const outcomes = { answered: 0, rejected: 0 }
    await fc.assert(
      fc.asyncProperty(pageBody, async ({ body, entries }) => {
        let page: FetchWalletsReturnType
        try {
          page = await call(body, entries)
        } catch (error) {
          if (!(error instanceof WalletsApiError)) throw error
          outcomes.rejected++
          return
        }
        outcomes.answered++
        check(Number.isSafeInteger(page.count) && page.count >= 0, 'count', page.count)
        check(page.data.length <= Math.min(entries, WALLETS_ENTRIES_MAX), 'page too long', page.data.length)
        check(new Set(page.data.map((w) => w.id)).size === page.data.length, 'ids repeat', page.data)
        for (const wallet of page.data) assertSafeEntry(wallet)
      }),
      { numRuns: RUNS },
    )
    // Both sides of the boundary are exercised: pages taken and pages refused.
    expect(outcomes.answered).toBeGreaterThan(RUNS / 5)
    expect(outcomes.rejected).toBeGreaterThan(RUNS / 5)
  }, 60_000)

  it(`wallets machine: ${RUNS} next pages; a bad one leaves the list as it was, a good one only adds safe wallets`, async () => {
    const first: WalletListing[] = Array.from({ length: 40 }, (_, i) => ({
      id: `first-${i}`,
      name: `First ${i}`,
      chains: [],
    }))
    const input = {
      walletsApi: 'https://w.example',
      projectId: 'p',
      featuredWalletIds: [],
      includeWalletIds: [],
      excludeWalletIds: [],
      chains: [],
    }
    // The list with its first page loaded, once; each case starts from it.
    const loader = createActor(
      walletsMachine.provide({
        actors: { fetchWallets: fromPromise(async () => ({ data: first, count: 100_000 })) },
      }),
      { input },
    ).start()
    loader.send({ type: 'wallets.load' })
    const loaded = await waitFor(loader, (s) => s.matches('ready'))
    const persisted = loader.getPersistedSnapshot()
    loader.stop()
    const before = loaded.context
    const outcomes = { appended: 0, failed: 0 }

    await fc.assert(
      fc.asyncProperty(pageBody, async ({ body }) => {
        const slot = fromPromise<FetchWalletsReturnType, FetchWalletsInput>(({ input, signal }) =>
          fetchWallets({ ...input, signal, fetch: fakeFetch(body) }),
        )
        const actor = createActor(walletsMachine.provide({ actors: { fetchWallets: slot } }), {
          input,
          snapshot: persisted,
        }).start()
        actor.send({ type: 'wallets.loadMore' })
        const after = await waitFor(actor, (s) => !s.hasTag('loadingMore'))
        actor.stop()
        const { context } = after
        if (after.matches({ ready: { browse: 'loadMoreFailed' } })) {
          check(
            JSON.stringify([context.wallets, context.count, context.page]) ===
              JSON.stringify([before.wallets, before.count, before.page]),
            'a bad page changed the list',
            context,
          )
          check(context.error === 'Could not load wallets', 'error text', context.error)
          outcomes.failed++
          return
        }
        outcomes.appended++
        check(after.matches({ ready: { browse: 'browsing' } }), 'state', after.value)
        check(
          JSON.stringify(context.wallets.slice(0, 40)) === JSON.stringify(before.wallets),
          'loaded wallets changed',
          context.wallets,
        )
        check(context.wallets.length <= 80, 'page too long', context.wallets.length)
        check(Number.isSafeInteger(context.count) && context.count >= 0, 'count', context.count)
        for (const wallet of context.wallets.slice(40)) assertSafeEntry(wallet)
      }),
      { numRuns: RUNS },
    )
    expect(outcomes.appended).toBeGreaterThan(RUNS / 5)
    expect(outcomes.failed).toBeGreaterThan(RUNS / 5)
  }, 60_000)
})
