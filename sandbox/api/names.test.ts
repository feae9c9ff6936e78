import { createServer } from 'node:net'
import { type Address, createPublicClient, createWalletClient, type Hex, http, type LocalAccount } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NAME_MESSAGE_MAX_AGE_S } from '../../src/constants.ts'
import { type Chain, startChain } from '../chain/chain.ts'
import {
  ChainWallet,
  CREATE2_DEPLOYER,
  smartAccountAddress,
  smartAccountDeployData,
} from '../secure-site/wallet.ts'
import {
  coinTypeOf,
  type DataApi,
  NAME_RULE,
  type NameRecord,
  type NameSuggestion,
  SEEDED_NAME,
  startDataApi,
} from './data.ts'
import { openDatabase, type SandboxDb } from './db.ts'

/*
 * Account names (issue 20, item 1): suggestions and registrations through the Data API, signatures made by dev
 * keys and by the secure site's smart account, verified against a real anvil, names kept in the sandbox database.
 */

const SDK = { projectId: 'test-project', st: 'appkit', sv: 'html-wagmi-0.1.0' }
const RULE_ERROR = `Invalid name: ${NAME_RULE}`

let chain: Chain
let db: SandboxDb
let api: DataApi
/** The ENSIP-11 coin type of the sandbox chain: what the kit signs registrations with. */
let coinType: number

const url = (path: string, query: Record<string, string> = {}, sdk: Partial<typeof SDK> = SDK) =>
  `${api.origin}${path}?${new URLSearchParams({ ...sdk, ...query })}`

function post(path: string, body: unknown): Promise<Response> {
  return fetch(url(path), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

async function answer<T = { error: string; status: number }>(res: Response): Promise<T> {
  return (await res.json()) as T
}

const suggestions = (label: string, query: Record<string, string> = { zone: 'reown.id' }) =>
  fetch(url(`/v1/profile/suggestions/${encodeURIComponent(label)}`, query))

async function suggested(label: string): Promise<NameSuggestion[]> {
  const res = await suggestions(label)
  expect(res.status, label).toBe(200)
  return (await answer<{ suggestions: NameSuggestion[] }>(res)).suggestions
}

const nowSeconds = () => Math.floor(Date.now() / 1000)

/** The app's domain the test's messages name. */
const DOMAIN = 'app.example.test'

/**
 * The message the kit has the wallet sign (written here as the wallet shows it, not with the kit's code): one
 * sentence naming the app's domain, the name, the account, the chain and the time.
 */
function nameMessage(
  name: string,
  account: Address,
  fields: { timestamp?: number; chainId?: number; domain?: string } = {},
): string {
  const time = new Date((fields.timestamp ?? nowSeconds()) * 1000).toISOString().replace('.000Z', 'Z')
  return `${fields.domain ?? DOMAIN} asks you to register the name ${name} for the account ${account} on chain ${fields.chainId ?? chain.chainId} at ${time}.`
}

interface Registration {
  coin_type: number
  address: Address
  message: string
  signature: Hex
}

/** A registration body for `name`, signed by `signer` for its own address. */
async function signedBy(
  signer: LocalAccount,
  name: string,
  fields: { timestamp?: number; chainId?: number; domain?: string } = {},
): Promise<Registration> {
  const message = nameMessage(name, signer.address, fields)
  return {
    coin_type: coinType,
    address: signer.address,
    message,
    signature: await signer.signMessage({ message }),
  }
}

const register = (body: unknown) => post('/v1/profile/account', body)

async function registered(body: Registration): Promise<NameRecord> {
  const res = await register(body)
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201)
  return answer<NameRecord>(res)
}

async function nameRecord(name: string): Promise<Response> {
  return fetch(url(`/v1/profile/account/${name}`, { apiVersion: '2' }))
}

async function reverse(address: Address): Promise<NameRecord[]> {
  const res = await fetch(url(`/v1/profile/reverse/${address}`, { apiVersion: '2' }))
  expect(res.status).toBe(200)
  return answer<NameRecord[]>(res)
}

/** Flips one bit in the middle of `r`: still a well-formed signature, of nobody in particular. */
function tampered(signature: Hex): Hex {
  const at = 20
  const nibble = (Number.parseInt(signature[at]!, 16) ^ 1).toString(16)
  return `${signature.slice(0, at)}${nibble}${signature.slice(at + 1)}` as Hex
}

const fresh = () => privateKeyToAccount(generatePrivateKey())

/** The address with its checksum broken: every letter's case flipped. */
const mixedCase = (address: Address) =>
  `0x${[...address.slice(2)].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('')}` as Address

/** A name no test has used: the tests share one database. */
let names = 0
const freshName = (stem = 'name') => `${stem}-${++names}.reown.id`

beforeAll(async () => {
  ;[chain, db] = await Promise.all([startChain(), openDatabase()])
  api = await startDataApi({ rpcUrl: chain.rpcUrl, chainId: chain.chainId, tokens: chain.tokens, db })
  coinType = coinTypeOf(chain.chainId)
})
afterAll(async () => {
  await api?.close()
  await db?.close()
  await chain?.close()
})

describe('GET /v1/profile/suggestions/{label}', () => {
  it('offers a free label first, unregistered, then four valid alternatives, the same each time', async () => {
    const first = await suggested('fresh-label')
    expect(first).toEqual([
      { name: 'fresh-label.reown.id', registered: false },
      { name: 'fresh-label1.reown.id', registered: false },
      { name: 'fresh-label-wallet.reown.id', registered: false },
      { name: 'my-fresh-label.reown.id', registered: false },
      { name: 'fresh-label2.reown.id', registered: false },
    ])
    expect(await suggested('fresh-label')).toEqual(first)
    // Any case, and the suffix typed along, ask about the same label.
    expect(await suggested('Fresh-LABEL.reown.id')).toEqual(first)
    expect(await suggested('FRESH-LABEL.REOWN.ID')).toEqual(first)
  })

  it('marks a taken label registered and offers only alternatives nobody holds', async () => {
    const [seededLabel] = SEEDED_NAME.split('.')
    // Two of the usual alternatives are held too: they are skipped, not offered.
    await db.pg.query(
      `INSERT INTO profile_names (name, address) VALUES ('sandbox-dev1.reown.id', $1), ('my-sandbox-dev.reown.id', $1)`,
      [chain.accounts[4]!.address.toLowerCase()],
    )
    const list = await suggested(seededLabel!)
    expect(list[0]).toEqual({ name: SEEDED_NAME, registered: true })
    const alternatives = list.slice(1)
    expect(alternatives).toHaveLength(4)
    expect(alternatives.map((s) => s.name)).toEqual([
      'sandbox-dev-wallet.reown.id',
      'sandbox-dev2.reown.id',
      'the-sandbox-dev.reown.id',
      'sandbox-dev-id.reown.id',
    ])
    for (const alternative of alternatives) {
      expect(alternative.registered).toBe(false)
      expect(alternative.name).toMatch(/^[a-z0-9-]{4,63}\.reown\.id$/)
      // Really free: nobody holds it, and asking about it says so.
      expect((await nameRecord(alternative.name)).status, alternative.name).toBe(404)
      expect((await suggested(alternative.name))[0]).toEqual({ name: alternative.name, registered: false })
    }
    expect((await suggested('sandbox-dev1'))[0]).toEqual({ name: 'sandbox-dev1.reown.id', registered: true })
  })

  it('offers only alternatives that fit 63 characters', async () => {
    const long = 'a'.repeat(62)
    const list = await suggested(long)
    expect(list[0]).toEqual({ name: `${long}.reown.id`, registered: false })
    // Only a one-digit suffix still fits.
    expect(list.slice(1).map((s) => s.name)).toEqual(
      ['1', '2', '3', '4'].map((digit) => `${long}${digit}.reown.id`),
    )
    const longest = 'b'.repeat(63)
    expect(await suggested(longest)).toEqual([{ name: `${longest}.reown.id`, registered: false }])
  })

  it("refuses an invalid label with 400 and SPEC §5's rule, before looking anything up", async () => {
    for (const label of [
      'abc',
      'a-b',
      'with space',
      'under_score',
      'dots.in.it',
      'ünïcode',
      'alice.wcn.id',
      '-',
    ]) {
      const res = await suggestions(label)
      expect(res.status, label).toBe(400)
      expect(await answer(res), label).toEqual({ error: RULE_ERROR, status: 400, name: label })
    }
    const tooLong = await suggestions('a'.repeat(64))
    expect(tooLong.status).toBe(400)
    expect((await answer(tooLong)).error).toBe('Invalid name: at most 63 characters')
    expect(RULE_ERROR).toBe('Invalid name: letters, digits and hyphens only, at least 4 characters')
  })

  it('serves the reown.id zone only', async () => {
    const queries: Array<Record<string, string>> = [{}, { zone: 'wcn.id' }, { zone: 'REOWN.ID' }]
    for (const query of queries) {
      const res = await suggestions('fresh-label', query)
      expect(res.status, JSON.stringify(query)).toBe(400)
      expect((await answer(res)).error).toBe("Invalid query parameter zone: only 'reown.id' is served")
    }
  })
})

describe('POST /v1/profile/account', () => {
  it('registers a name for a dev EOA key; the account and reverse calls then answer it', async () => {
    const dev = privateKeyToAccount(chain.accounts[1]!.privateKey)
    const name = freshName('dev-one')
    const before = Date.now()
    const body = await signedBy(dev, name)
    const record = await registered(body)
    expect(record).toEqual({
      name,
      registered: expect.any(Number),
      updated: record.registered,
      addresses: {
        [String(coinType)]: { address: dev.address, created: record.registered },
      },
      attributes: {},
    })
    expect(record.registered).toBeGreaterThanOrEqual(before - 1_000)
    expect(record.registered).toBeLessThanOrEqual(Date.now() + 1_000)

    const read = await nameRecord(name)
    expect(read.status).toBe(200)
    expect(await answer<NameRecord>(read)).toEqual(record)
    expect(await reverse(dev.address)).toEqual([record])
    expect(await answer(await fetch(url(`/v1/identity/${dev.address}`)))).toEqual({ name, avatar: null })

    // What was signed is kept with the row, for audit.
    const { rows } = await db.pg.query<{
      address: string
      coin_type: unknown
      message: string
      signature: string
    }>('SELECT address, coin_type, message, signature FROM profile_names WHERE name = $1', [name])
    expect(rows).toHaveLength(1)
    expect(rows[0]!.address).toBe(dev.address.toLowerCase())
    expect(Number(rows[0]!.coin_type)).toBe(coinType)
    expect(rows[0]!.message).toBe(body.message)
    expect(rows[0]!.signature).toBe(body.signature.toLowerCase())

    // A second name for the same address comes after the first (the first stays primary).
    const second = await registered(await signedBy(dev, freshName('dev-one-more')))
    expect((await reverse(dev.address)).map((r) => r.name)).toEqual([name, second.name])
    expect(await answer(await fetch(url(`/v1/identity/${dev.address}`)))).toMatchObject({ name })
  })

  it('takes a lower-case address and a name in capitals, storing both normalised', async () => {
    const account = fresh()
    const label = 'in-capitals'
    const message = nameMessage(`${label.toUpperCase()}.REOWN.ID`, account.address)
    const record = await registered({
      coin_type: coinType,
      address: account.address.toLowerCase() as Address,
      message,
      signature: await account.signMessage({ message }),
    })
    expect(record.name).toBe(`${label}.reown.id`)
    expect(record.addresses[String(coinType)]?.address).toBe(account.address)
  })

  it('registers for the embedded wallet smart account: undeployed by ERC-6492, deployed by ERC-1271', async () => {
    const ownerKey = generatePrivateKey()
    const owner = privateKeyToAccount(ownerKey)
    const smart = smartAccountAddress(owner.address)
    const wallet = new ChainWallet({ rpcUrl: chain.rpcUrl, chainId: chain.chainId })
    const account = { eoa: owner.address, smartAccount: smart, preferredAccountType: 'smartAccount' as const }
    // The secure site's own signing path: personal_sign prepared and run with the owner's key.
    const signAsSmartAccount = async (message: string) =>
      wallet.execute(wallet.prepare('personal_sign', [message, smart], account), ownerKey, account)
    expect(await wallet.isDeployed(smart)).toBe(false)

    const undeployedName = freshName('smart-undeployed')
    const counterfactual = nameMessage(undeployedName, smart)
    // The owner's bare signature does not speak for an account with no code yet.
    const bare = await register({
      coin_type: coinType,
      address: smart,
      message: counterfactual,
      signature: await owner.signMessage({ message: counterfactual }),
    })
    expect(bare.status).toBe(401)
    const wrapped = await signAsSmartAccount(counterfactual)
    // ERC-6492: the signature ends with the magic suffix and carries the deployer call.
    expect(wrapped.endsWith('6492649264926492649264926492649264926492649264926492649264926492')).toBe(true)
    expect(wrapped.toLowerCase()).toContain(CREATE2_DEPLOYER.slice(2).toLowerCase())
    const first = await registered({
      coin_type: coinType,
      address: smart,
      message: counterfactual,
      signature: wrapped,
    })
    expect(first.addresses[String(coinType)]?.address).toBe(smart)
    // Verifying it did not deploy the account: the check is a simulation.
    expect(await wallet.isDeployed(smart)).toBe(false)

    const deployer = createWalletClient({
      account: privateKeyToAccount(chain.accounts[3]!.privateKey),
      chain: chain.viemChain,
      transport: http(chain.rpcUrl),
    })
    const hash = await deployer.sendTransaction({
      to: CREATE2_DEPLOYER,
      data: smartAccountDeployData(owner.address),
    })
    const reader = createPublicClient({ transport: http(chain.rpcUrl) })
    await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    expect(await wallet.isDeployed(smart)).toBe(true)

    const deployedName = freshName('smart-deployed')
    const plainMessage = nameMessage(deployedName, smart)
    const plain = await signAsSmartAccount(plainMessage)
    // Deployed: a plain 65-byte signature of the owner, checked by the account's isValidSignature.
    expect(plain).toMatch(/^0x[0-9a-f]{130}$/)
    await registered({ coin_type: coinType, address: smart, message: plainMessage, signature: plain })
    expect((await reverse(smart)).map((r) => r.name)).toEqual([undeployedName, deployedName])

    // Another key cannot sign for the smart account: its isValidSignature refuses.
    const intruderMessage = nameMessage(freshName('smart-intruder'), smart)
    const refused = await register({
      coin_type: coinType,
      address: smart,
      message: intruderMessage,
      signature: await fresh().signMessage({ message: intruderMessage }),
    })
    expect(refused.status).toBe(401)
    expect(await answer(refused)).toEqual({ error: 'Invalid signature', status: 401 })
  })

  it("refuses a wrong signer, a tampered signature or message with 401 'Invalid signature', storing nothing", async () => {
    const account = fresh()
    const name = freshName('refused')
    const body = await signedBy(account, name)
    const otherSigner = await fresh().signMessage({ message: body.message })
    const otherV = `${body.signature.slice(0, -2)}${body.signature.endsWith('1b') ? '1c' : '1b'}` as Hex
    // The signed sentence altered afterwards: another name, another time (one second later).
    const otherName = body.message.replace(name, freshName('stolen'))
    const time = /at (\S+)Z\.$/.exec(body.message)![1]!
    const later = body.message.replace(
      `${time}Z.`,
      new Date(Date.parse(`${time}Z`) + 1_000).toISOString().replace('.000Z', 'Z.'),
    )
    expect(later).not.toBe(body.message)
    const cases: Registration[] = [
      { ...body, signature: otherSigner },
      { ...body, signature: tampered(body.signature) },
      { ...body, signature: otherV },
      { ...body, message: otherName },
      { ...body, message: later },
    ]
    for (const wrong of cases) {
      const res = await register(wrong)
      expect(res.status, JSON.stringify(wrong)).toBe(401)
      expect(await answer(res)).toEqual({ error: 'Invalid signature', status: 401 })
    }
    expect(await reverse(account.address)).toEqual([])
    expect((await nameRecord(name)).status).toBe(404)
    // The genuine one still registers.
    expect((await register(body)).status).toBe(201)
  })

  it("refuses a message older than 10 minutes with 400 'Message expired'; a recent one is fine", async () => {
    const account = fresh()
    const stale = nowSeconds() - NAME_MESSAGE_MAX_AGE_S - 5
    const expired = await register(await signedBy(account, freshName('expired'), { timestamp: stale }))
    expect(expired.status).toBe(400)
    expect(await answer(expired)).toEqual({
      error: 'Message expired',
      status: 400,
      timestamp: stale,
      maxAgeSeconds: NAME_MESSAGE_MAX_AGE_S,
    })
    const ahead = nowSeconds() + NAME_MESSAGE_MAX_AGE_S + 60
    const future = await register(await signedBy(account, freshName('future'), { timestamp: ahead }))
    expect(future.status).toBe(400)
    expect((await answer(future)).error).toBe('Message timestamp is in the future')
    expect(await reverse(account.address)).toEqual([])

    const recent = nowSeconds() - NAME_MESSAGE_MAX_AGE_S + 30
    expect((await register(await signedBy(account, freshName('recent'), { timestamp: recent }))).status).toBe(
      201,
    )
  })

  it("refuses a name anyone holds with 409 'Name is already registered'", async () => {
    const account = fresh()
    const seeded = await register(await signedBy(account, SEEDED_NAME))
    expect(seeded.status).toBe(409)
    expect(await answer(seeded)).toEqual({
      error: 'Name is already registered',
      status: 409,
      name: SEEDED_NAME,
    })

    const name = freshName('twice')
    await registered(await signedBy(account, name))
    // Its own holder, again with a fresh signature, and someone else, in other capitals.
    expect((await register(await signedBy(account, name))).status).toBe(409)
    expect((await register(await signedBy(fresh(), name.toUpperCase()))).status).toBe(409)
    expect((await reverse(account.address)).map((r) => r.name)).toEqual([name])
  })

  it('lets exactly one of two registrations of the same name at once win', async () => {
    const name = freshName('race')
    const [alice, bob] = [fresh(), fresh()]
    const bodies = await Promise.all([signedBy(alice, name), signedBy(bob, name)])
    const results = await Promise.all(bodies.map((body) => register(body)))
    expect(results.map((r) => r.status).sort()).toEqual([201, 409])
    const winner = bodies[results.findIndex((r) => r.status === 201)]!
    const record = await answer<NameRecord>(await nameRecord(name))
    expect(record.addresses[String(coinType)]?.address).toBe(winner.address)
    const held = await Promise.all([reverse(alice.address), reverse(bob.address)])
    expect(held.map((list) => list.length).sort()).toEqual([0, 1])
    const { rows } = await db.pg.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM profile_names WHERE name = $1',
      [name],
    )
    expect(rows[0]?.n).toBe(1)
  })

  it('refuses names that break the rule or are not under .reown.id with 400 and the rule', async () => {
    const account = fresh()
    const cases: Array<[string, string]> = [
      ['abc.reown.id', RULE_ERROR],
      ['under_score.reown.id', RULE_ERROR],
      ['two.labels.reown.id', RULE_ERROR],
      ['.reown.id', RULE_ERROR],
      [`${'a'.repeat(64)}.reown.id`, 'Invalid name: at most 63 characters'],
      [
        'legacy-name.wcn.id',
        'Invalid name: .wcn.id names are resolved, not registered: register under .reown.id',
      ],
      ['no-suffix', 'Invalid name: a name ends with .reown.id'],
      ['other-zone.eth', 'Invalid name: a name ends with .reown.id'],
      // The LDH rules (names.ts nameLabelProblem): a homograph's punycode, hyphens at an end or 3rd-4th.
      ['xn--80ak6aa92e.reown.id', 'Invalid name: no IDNA (xn--) labels'],
      ['-alice-.reown.id', 'Invalid name: no hyphen at the start or the end'],
      ['alice-.reown.id', 'Invalid name: no hyphen at the start or the end'],
      ['al--ice.reown.id', 'Invalid name: no hyphens in the 3rd and 4th positions'],
    ]
    for (const [name, error] of cases) {
      const res = await register(await signedBy(account, name))
      expect(res.status, name).toBe(400)
      expect(await answer(res), name).toEqual({ error, status: 400, name })
    }
    expect(await reverse(account.address)).toEqual([])
  })

  // The sentence is checked against the request, not only its signature: a signed registration for another
  // chain, account or app is not this one (names.ts registerName).
  it('refuses a message for another chain, another account or another app than the request, with 400', async () => {
    const account = fresh()
    const otherChain = await signedBy(account, freshName('chain'), { chainId: 1 })
    const res = await register(otherChain)
    expect(await answer(res)).toEqual({
      error: 'Message is for another chain',
      status: 400,
      chainId: 1,
      supported: [chain.chainId],
    })
    // This account's signed sentence, sent for another address.
    const body = await signedBy(account, freshName('account'))
    const stolen = await register({ ...body, address: chain.accounts[2]!.address })
    expect(await answer(stolen)).toEqual({
      error: 'Message is for another account',
      status: 400,
      account: account.address,
      address: chain.accounts[2]!.address,
    })
    // A page's request: the sentence must name that page's host.
    const fromPage = (origin: string, sent: Registration) =>
      fetch(url('/v1/profile/account'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify(sent),
      })
    const otherApp = await fromPage('http://127.0.0.1:5999', body)
    expect(otherApp.status).toBe(400)
    expect((await answer(otherApp)).error).toBe('Message is for another domain')
    expect(await reverse(account.address)).toEqual([])
    expect(await reverse(chain.accounts[2]!.address)).toEqual([])
    const own = await signedBy(account, freshName('own-page'), { domain: '127.0.0.1:5999' })
    expect((await fromPage('http://127.0.0.1:5999', own)).status).toBe(201)
    expect((await register(body)).status).toBe(201)
  })

  it("refuses another chain's coin type with 400 'Unsupported coin type'", async () => {
    const account = fresh()
    const body = await signedBy(account, freshName('coin'))
    for (const coin_type of [60, coinTypeOf(1), coinTypeOf(8453), 0]) {
      const res = await register({ ...body, coin_type })
      expect(res.status, String(coin_type)).toBe(400)
      expect(await answer(res)).toEqual({
        error: 'Unsupported coin type',
        status: 400,
        coin_type,
        supported: [coinType],
      })
    }
    expect(coinType).toBe(0x80007a69)
    expect(coinTypeOf(1)).toBe(2147483649)
  })

  it('refuses malformed bodies and messages with 400 and a clear error', async () => {
    const account = fresh()
    const body = await signedBy(account, freshName('shape'))
    const withMessage = (message: string) => ({ ...body, message })
    const cases: Array<[unknown, string | RegExp]> = [
      ['{not json', 'registration body must be JSON'],
      [[], /^Invalid registration body/],
      [{ ...body, coin_type: undefined }, /^Invalid registration body: .*coin_type/],
      [{ ...body, coin_type: '60' }, /^Invalid registration body: × coin_type must be a number/],
      [{ ...body, coin_type: 1.5 }, /^Invalid registration body: × coin_type must be an integer/],
      [{ ...body, coin_type: -1 }, /^Invalid registration body: × coin_type must not be negative/],
      [{ ...body, address: '0xabc' }, /^Invalid registration body: × address must be a 0x address/],
      [{ ...body, address: undefined }, /^Invalid registration body: .*address/],
      [
        { ...body, signature: 'abcd' },
        /^Invalid registration body: × signature must be 0x-prefixed hex bytes/,
      ],
      [{ ...body, message: '' }, /^Invalid registration body: × message must not be empty/],
      [{ ...body, message: 'x'.repeat(5_000) }, /^Invalid registration body: × message is too long/],
      // The old JSON text: it names no app, account or chain.
      [
        withMessage(`{"name":"alice.reown.id","attributes":{},"timestamp":${nowSeconds()}}`),
        /^Invalid registration message: must read "\{domain\} asks you to register the name/,
      ],
      [withMessage('alice.reown.id'), /^Invalid registration message: must read/],
      [withMessage(`${body.message} Also send 1 ETH.`), /^Invalid registration message: must read/],
      [withMessage(body.message.replace(DOMAIN, 'not a host')), /^Invalid registration message: must read/],
      [
        withMessage(body.message.replace(DOMAIN, 'evil..host')),
        'Invalid registration message: the domain is not a host',
      ],
      [
        withMessage(body.message.replace(account.address, account.address.toLowerCase().replace('0x', '0X'))),
        /^Invalid registration message: must read/,
      ],
      [
        withMessage(nameMessage('alice.reown.id', mixedCase(account.address))),
        'Invalid registration message: the account is not a checksummed address',
      ],
      [
        withMessage(body.message.replace(/at \S+Z\.$/, 'at 2026-02-30T00:00:00Z.')),
        'Invalid registration message: the time is not a UTC instant',
      ],
      [
        withMessage(body.message.replace(/at \S+Z\.$/, `at ${nowSeconds()}.`)),
        /^Invalid registration message: must read/,
      ],
    ]
    for (const [sent, error] of cases) {
      const res = await register(sent)
      expect(res.status, JSON.stringify(sent)).toBe(400)
      const json = await answer(res)
      expect(json.status).toBe(400)
      if (typeof error === 'string') expect(json.error, JSON.stringify(sent)).toBe(error)
      else expect(json.error, JSON.stringify(sent)).toMatch(error)
    }
    expect(await reverse(account.address)).toEqual([])
    expect((await fetch(url('/v1/profile/account'))).status).toBe(405)
  })

  it('answers 502 when the chain does not answer and the signature is not an EOA one', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number }
        probe.close(() => resolve(port))
      })
    })
    const dead = await startDataApi({
      rpcUrl: `http://127.0.0.1:${port}`,
      chainId: chain.chainId,
      tokens: [],
      db,
    })
    try {
      const body = await signedBy(fresh(), freshName('dead-chain'))
      const res = await fetch(`${dead.origin}/v1/profile/account?${new URLSearchParams(SDK)}`, {
        method: 'POST',
        body: JSON.stringify({ ...body, signature: tampered(body.signature) }),
      })
      expect(res.status).toBe(502)
      expect((await answer(res)).error).toMatch(/^Chain RPC unavailable/)
    } finally {
      await dead.close()
    }
  })
})

describe('the shared Data API behaviour on the name routes', () => {
  it('needs projectId, st and sv', async () => {
    for (const [path, method] of [
      ['/v1/profile/suggestions/fresh-label', 'GET'],
      ['/v1/profile/account', 'POST'],
    ] as const) {
      for (const name of ['projectId', 'st', 'sv'] as const) {
        const sdk: Partial<typeof SDK> = { ...SDK }
        delete sdk[name]
        const res = await fetch(url(path, { zone: 'reown.id' }, sdk), {
          method,
          ...(method === 'POST' ? { body: '{}' } : {}),
        })
        expect(res.status, `${path} without ${name}`).toBe(400)
        expect((await answer(res)).error).toBe(`Missing query parameter: ${name}`)
      }
    }
  })

  it('fails every profile route under the fault switch on /v1/profile/, and recovers when it is lifted', async () => {
    const set = (fault: object) =>
      fetch(`${api.origin}/__fault`, { method: 'POST', body: JSON.stringify(fault) }).then((r) => r.status)
    const account = fresh()
    const body = await signedBy(account, freshName('faulty'))
    const name = / the name (\S+) /.exec(body.message)![1]!

    expect(await set({ mode: 'fail', path: '/v1/profile/' })).toBe(200)
    try {
      expect((await suggestions('fresh-label')).status).toBe(500)
      const failed = await register(body)
      expect(failed.status).toBe(500)
      expect((await nameRecord(SEEDED_NAME)).status).toBe(500)
      expect((await fetch(url(`/v1/profile/reverse/${account.address}`))).status).toBe(500)
      // Other routes are untouched.
      expect((await fetch(url('/v1/supported-chains'))).status).toBe(200)
    } finally {
      expect(await set({ mode: 'off' })).toBe(200)
    }
    // The failed registration stored nothing: the same signed body registers now.
    expect((await nameRecord(name)).status).toBe(404)
    expect((await suggested(name))[0]).toEqual({ name, registered: false })
    expect((await register(body)).status).toBe(201)
    expect((await suggested(name))[0]).toEqual({ name, registered: true })
  })
})
