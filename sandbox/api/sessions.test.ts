import { createServer } from 'node:net'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  type LocalAccount,
  serializeErc6492Signature,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createSiweMessage, generateSiweNonce } from 'viem/siwe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Chain, startChain } from '../chain/chain.ts'
import { CREATE2_DEPLOYER, smartAccountAddress, smartAccountDeployData } from '../secure-site/wallet.ts'
import { type DataApi, type Session, type SessionCreated, startDataApi } from './data.ts'
import { openDatabase, type SandboxDb } from './db.ts'

/*
 * Sign-in sessions (issue 15): real SIWE messages signed by viem accounts, verified by the Data API against a
 * real anvil, stored in the sandbox database.
 */

const SDK = { projectId: 'test-project', st: 'appkit', sv: 'html-wagmi-0.1.0' }
const DEMO_ORIGIN = 'http://127.0.0.1:5173'
const HOUR = 3_600_000

let chain: Chain
let db: SandboxDb
let api: DataApi

const url = (path: string) => `${api.origin}${path}?${new URLSearchParams(SDK)}`

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url(path), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

async function answer<T = { error: string; status: number }>(res: Response): Promise<T> {
  return (await res.json()) as T
}

/** A SIWE message for the sandbox chain, as an app on the demo's origin would ask a wallet to sign. */
function siwe(address: Address, fields: Partial<Parameters<typeof createSiweMessage>[0]> = {}): string {
  return createSiweMessage({
    address,
    chainId: chain.chainId,
    domain: '127.0.0.1:5173',
    uri: `${DEMO_ORIGIN}/`,
    nonce: generateSiweNonce(),
    version: '1',
    statement: 'Sign in to the Walletstate demo',
    ...fields,
  })
}

async function signedIn(
  account: LocalAccount,
  fields: Partial<Parameters<typeof createSiweMessage>[0]> = {},
): Promise<{ message: string; signature: Hex }> {
  const message = siwe(account.address, fields)
  return { message, signature: await account.signMessage({ message }) }
}

/** Flips one bit in the middle of `r`: still a well-formed signature, of nobody in particular. */
function tampered(signature: Hex): Hex {
  const at = 20
  const nibble = (Number.parseInt(signature[at]!, 16) ^ 1).toString(16)
  return `${signature.slice(0, at)}${nibble}${signature.slice(at + 1)}` as Hex
}

beforeAll(async () => {
  ;[chain, db] = await Promise.all([startChain(), openDatabase()])
  api = await startDataApi({ rpcUrl: chain.rpcUrl, chainId: chain.chainId, tokens: chain.tokens, db })
})
afterAll(async () => {
  await api?.close()
  await db?.close()
  await chain?.close()
})

describe('POST /v1/sessions', () => {
  it('signs in with an EOA: 201, stored, and GET answers it', async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const expirationTime = new Date(Date.now() + HOUR)
    const { message, signature } = await signedIn(account, { expirationTime })
    const res = await post('/v1/sessions', { message, signature })
    expect(res.status).toBe(201)
    const session = await answer<SessionCreated>(res)
    expect(session).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      address: account.address,
      chainId: 'eip155:31337',
      domain: '127.0.0.1:5173',
      issuedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      expiresAt: expirationTime.toISOString(),
    })

    const read = await fetch(url(`/v1/sessions/${session.id}`))
    expect(read.status).toBe(200)
    expect(await answer<Session>(read)).toEqual({
      ...session,
      uri: `${DEMO_ORIGIN}/`,
      message,
      signature,
    })

    const { rows } = await db.pg.query<{ address: string; nonce: string; revoked_at: Date | null }>(
      'SELECT address, nonce, revoked_at FROM siwe_sessions WHERE id = $1',
      [session.id],
    )
    expect(rows).toEqual([{ address: account.address, nonce: expect.any(String), revoked_at: null }])
    expect(message).toContain(`Nonce: ${rows[0]!.nonce}`)
  })

  it('stores a lower-case address of the message checksummed, and a session without expiry', async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    // createSiweMessage checksums; a wallet may sign a message written by hand with a lower-case address.
    const message = siwe(account.address).replace(account.address, account.address.toLowerCase())
    const res = await post('/v1/sessions', { message, signature: await account.signMessage({ message }) })
    expect(res.status).toBe(201)
    expect(await answer<SessionCreated>(res)).toMatchObject({ address: account.address, expiresAt: null })
  })

  it("refuses a tampered signature or another account's with 401 'Signature verification failed'", async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const { message, signature } = await signedIn(account)
    const other = await privateKeyToAccount(generatePrivateKey()).signMessage({ message })
    // The other recovery id (v 27 ↔ 28; v 0 would equal 27 and still verify).
    const otherV = `${signature.slice(0, -2)}${signature.endsWith('1b') ? '1c' : '1b'}` as Hex
    for (const wrong of [tampered(signature), other, otherV]) {
      const res = await post('/v1/sessions', { message, signature: wrong })
      expect(res.status, wrong).toBe(401)
      expect(await answer(res)).toEqual({ error: 'Signature verification failed', status: 401 })
    }
    // A signed message altered afterwards (another URI) does not verify either.
    const altered = message.replace(`URI: ${DEMO_ORIGIN}/`, 'URI: https://evil.example/')
    const res = await post('/v1/sessions', { message: altered, signature })
    expect(res.status).toBe(401)
    // Nothing was stored: the real signature still signs in.
    expect((await post('/v1/sessions', { message, signature })).status).toBe(201)
  })

  it('refuses a replayed nonce on the same domain with 409; the same nonce on another domain is fine', async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const nonce = generateSiweNonce()
    const first = await signedIn(account, { nonce })
    expect((await post('/v1/sessions', first)).status).toBe(201)

    const replay = await post('/v1/sessions', first)
    expect(replay.status).toBe(409)
    expect((await answer(replay)).error).toBe(
      'Nonce already used for 127.0.0.1:5173: a SIWE message signs in once',
    )
    // A fresh signature over a new message with the used nonce is a replay too.
    const again = await signedIn(account, { nonce, statement: 'Another statement' })
    expect((await post('/v1/sessions', again)).status).toBe(409)

    const elsewhere = await signedIn(account, {
      nonce,
      domain: 'localhost:5173',
      uri: 'http://localhost:5173/',
    })
    expect((await post('/v1/sessions', elsewhere)).status).toBe(201)
  })

  it('refuses an expired or not-yet-valid message with 400', async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const past = new Date(Date.now() - 60_000)
    const expired = await signedIn(account, { issuedAt: new Date(Date.now() - HOUR), expirationTime: past })
    const res = await post('/v1/sessions', expired)
    expect(res.status).toBe(400)
    expect((await answer(res)).error).toBe(`SIWE message expired at ${past.toISOString()}`)

    const later = new Date(Date.now() + HOUR)
    const early = await post('/v1/sessions', await signedIn(account, { notBefore: later }))
    expect(early.status).toBe(400)
    expect((await answer(early)).error).toBe(`SIWE message is not valid before ${later.toISOString()}`)
  })

  it("refuses a chain the sandbox does not serve with 400 'Unsupported chain'", async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const res = await post('/v1/sessions', await signedIn(account, { chainId: 1 }))
    expect(res.status).toBe(400)
    expect(await answer(res)).toEqual({
      error: 'Unsupported chain',
      status: 400,
      chainId: 'eip155:1',
      supported: ['eip155:31337'],
    })
  })

  it('refuses malformed JSON, bodies and messages with 400 and a clear error', async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const { message, signature } = await signedIn(account)
    const without = (line: RegExp) => message.replace(line, '')
    const cases: Array<[unknown, string | RegExp]> = [
      ['{not json', 'session body must be JSON'],
      [[], /^Invalid session body/],
      [{ message }, /^Invalid session body: .*signature/],
      [{ signature }, /^Invalid session body: .*message/],
      [{ message: 42, signature }, /^Invalid session body: × message must be a string\n {2}→ at message$/],
      [{ message: '', signature }, /^Invalid session body: × message must not be empty/],
      [{ message, signature: 'abcd' }, /^Invalid session body: × signature must be 0x-prefixed hex bytes/],
      [{ message, signature: '0xabc' }, /^Invalid session body: × signature must be 0x-prefixed hex bytes/],
      [
        { message: 'hello', signature },
        /^Invalid SIWE message: missing address, chainId, domain, uri, nonce/,
      ],
      [
        { message: without(/^.*\n0x[0-9a-fA-F]{40}\n/), signature },
        /^Invalid SIWE message: missing address, domain$/,
      ],
      [{ message: without(/\nIssued At: .*/), signature }, /missing chainId, uri, nonce, issuedAt, version$/],
      [
        { message: message.replace('Version: 1', 'Version: 2'), signature },
        'Invalid SIWE message: version must be 1',
      ],
      [
        { message: message.replace(/Nonce: \w+/, 'Nonce: short'), signature },
        'Invalid SIWE message: nonce must be at least 8 letters or digits',
      ],
      [
        { message: message.replace(/Issued At: .*/, 'Issued At: yesterday'), signature },
        'Invalid SIWE message: issuedAt is not an RFC 3339 date-time',
      ],
    ]
    for (const [body, error] of cases) {
      const res = await post('/v1/sessions', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      const json = await answer(res)
      expect(json.status).toBe(400)
      if (typeof error === 'string') expect(json.error, JSON.stringify(body)).toBe(error)
      else expect(json.error, JSON.stringify(body)).toMatch(error)
    }
    const { rows } = await db.pg.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM siwe_sessions WHERE address = $1',
      [account.address],
    )
    expect(rows[0]?.n).toBe(0)
  })
})

describe('smart-account sign-in (the secure site embedded wallet account)', () => {
  it('accepts an undeployed account by ERC-6492, then the deployed one by ERC-1271; refuses another owner', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const smart = smartAccountAddress(owner.address)
    const reader = createPublicClient({ transport: http(chain.rpcUrl) })
    expect(await reader.getCode({ address: smart })).toBeUndefined()

    // Not deployed yet: the owner's signature wrapped as the secure site wraps it (ERC-6492, counterfactual).
    const counterfactual = siwe(smart)
    const wrapped = serializeErc6492Signature({
      address: CREATE2_DEPLOYER,
      data: smartAccountDeployData(owner.address),
      signature: await owner.signMessage({ message: counterfactual }),
    })
    const res = await post('/v1/sessions', { message: counterfactual, signature: wrapped })
    expect(res.status).toBe(201)
    expect(await answer<SessionCreated>(res)).toMatchObject({ address: smart })

    // Deployed (by a dev account, through the CREATE2 deployer): a plain signature, checked by isValidSignature.
    const deployer = createWalletClient({
      account: privateKeyToAccount(chain.accounts[3]!.privateKey),
      chain: chain.viemChain,
      transport: http(chain.rpcUrl),
    })
    const hash = await deployer.sendTransaction({
      to: CREATE2_DEPLOYER,
      data: smartAccountDeployData(owner.address),
    })
    await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    expect(await reader.getCode({ address: smart })).toMatch(/^0x[0-9a-f]{10,}/)

    const deployed = siwe(smart)
    const plain = await owner.signMessage({ message: deployed })
    expect((await post('/v1/sessions', { message: deployed, signature: plain })).status).toBe(201)

    // Another key's signature for the same account is refused by the contract.
    const intruder = siwe(smart)
    const refused = await post('/v1/sessions', {
      message: intruder,
      signature: await privateKeyToAccount(generatePrivateKey()).signMessage({ message: intruder }),
    })
    expect(refused.status).toBe(401)
    expect((await answer(refused)).error).toBe('Signature verification failed')
  })
})

describe('GET /v1/sessions/{id} and POST /v1/sessions/{id}/revoke', () => {
  async function newSession(): Promise<{ id: string; signature: Hex }> {
    const body = await signedIn(privateKeyToAccount(generatePrivateKey()))
    const res = await post('/v1/sessions', body)
    expect(res.status).toBe(201)
    return { id: (await answer<SessionCreated>(res)).id, signature: body.signature }
  }

  it('revokes for whoever holds the session: 403 with the wrong proof, 200 twice, then GET 404', async () => {
    const { id, signature } = await newSession()
    const revoke = (body: unknown) => post(`/v1/sessions/${id}/revoke`, body)

    const wrongSignature = await revoke({ pci: id, signature: tampered(signature) })
    expect(wrongSignature.status).toBe(403)
    expect((await answer(wrongSignature)).error).toBe('Signature does not match the session')
    const wrongPci = await revoke({ pci: 'f'.repeat(32), signature })
    expect(wrongPci.status).toBe(403)
    expect((await answer(wrongPci)).error).toBe('pci does not match the session')
    expect((await fetch(url(`/v1/sessions/${id}`))).status).toBe(200)

    const done = await revoke({ pci: id, signature: signature.toUpperCase().replace('0X', '0x') })
    expect(done.status).toBe(200)
    expect(await answer(done)).toEqual({ id, revoked: true })
    const { rows } = await db.pg.query<{ revoked_at: Date }>(
      'SELECT revoked_at FROM siwe_sessions WHERE id = $1',
      [id],
    )
    const revokedAt = rows[0]!.revoked_at

    const gone = await fetch(url(`/v1/sessions/${id}`))
    expect(gone.status).toBe(404)
    expect(await answer(gone)).toEqual({ error: 'Session not found', status: 404 })

    // Idempotent: the same answer, the first revocation's time kept.
    const twice = await revoke({ pci: id, signature })
    expect(twice.status).toBe(200)
    expect(await answer(twice)).toEqual({ id, revoked: true })
    const after = await db.pg.query<{ revoked_at: Date }>(
      'SELECT revoked_at FROM siwe_sessions WHERE id = $1',
      [id],
    )
    expect(after.rows[0]!.revoked_at).toEqual(revokedAt)
  })

  it('answers 404 for unknown and expired sessions, 400 for ids of the wrong shape or bad bodies', async () => {
    const unknown = '0'.repeat(32)
    const missing = await fetch(url(`/v1/sessions/${unknown}`))
    expect(missing.status).toBe(404)
    expect(await answer(missing)).toEqual({ error: 'Session not found', status: 404 })
    const revokeMissing = await post(`/v1/sessions/${unknown}/revoke`, { pci: unknown, signature: '0x00' })
    expect(revokeMissing.status).toBe(404)

    // A session whose expiry has passed since it was made is gone (its row is moved into the past here).
    const { id } = await newSession()
    await db.pg.query("UPDATE siwe_sessions SET expires_at = now() - interval '1 second' WHERE id = $1", [id])
    expect((await fetch(url(`/v1/sessions/${id}`))).status).toBe(404)

    for (const bad of ['abc', 'G'.repeat(32), 'A'.repeat(32), '0'.repeat(33)]) {
      const get = await fetch(url(`/v1/sessions/${bad}`))
      expect(get.status, bad).toBe(400)
      expect((await answer(get)).error).toBe(`Invalid session id: ${bad}`)
      expect((await post(`/v1/sessions/${bad}/revoke`, { pci: bad, signature: '0x00' })).status).toBe(400)
    }
    const bodies: Array<[unknown, RegExp]> = [
      ['nope', /^revoke body must be JSON$/],
      [{ pci: id }, /^Invalid revoke body: .*signature/],
      [{ signature: '0x00' }, /^Invalid revoke body: .*pci/],
      [{ pci: 7, signature: '0x00' }, /^Invalid revoke body: × pci must be a string/],
    ]
    for (const [body, error] of bodies) {
      const res = await post(`/v1/sessions/${id}/revoke`, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect((await answer(res)).error).toMatch(error)
    }
    expect((await fetch(url(`/v1/sessions/${id}/revoke`))).status).toBe(405)
  })
})

describe('the shared Data API behaviour on the session routes', () => {
  it('answers CORS to the demo origin, including preflights', async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const created = await post('/v1/sessions', await signedIn(account), { origin: DEMO_ORIGIN })
    expect(created.status).toBe(201)
    expect(created.headers.get('access-control-allow-origin')).toBe(DEMO_ORIGIN)
    const { id } = await answer<SessionCreated>(created)
    for (const path of ['/v1/sessions', `/v1/sessions/${id}`, `/v1/sessions/${id}/revoke`]) {
      const preflight = await fetch(url(path), {
        method: 'OPTIONS',
        headers: { origin: DEMO_ORIGIN, 'access-control-request-method': 'POST' },
      })
      expect(preflight.status, path).toBe(204)
      expect(preflight.headers.get('access-control-allow-origin')).toBe(DEMO_ORIGIN)
      expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type')
    }
    const read = await fetch(url(`/v1/sessions/${id}`), { headers: { origin: DEMO_ORIGIN } })
    expect(read.headers.get('access-control-allow-origin')).toBe(DEMO_ORIGIN)
    const foreign = await fetch(url(`/v1/sessions/${id}`), { headers: { origin: 'https://evil.example' } })
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('needs projectId, st and sv', async () => {
    const id = '0'.repeat(32)
    for (const [path, method] of [
      ['/v1/sessions', 'POST'],
      [`/v1/sessions/${id}`, 'GET'],
      [`/v1/sessions/${id}/revoke`, 'POST'],
    ] as const) {
      const res = await fetch(`${api.origin}${path}?projectId=p&st=appkit`, {
        method,
        ...(method === 'POST' ? { body: '{}' } : {}),
      })
      expect(res.status, path).toBe(400)
      expect((await answer(res)).error).toBe('Missing query parameter: sv')
    }
  })

  it('fails, answers 429 and drops under the fault switch, then recovers', async () => {
    const set = (fault: object) =>
      fetch(`${api.origin}/__fault`, { method: 'POST', body: JSON.stringify(fault) }).then((r) => r.status)
    const account = privateKeyToAccount(generatePrivateKey())

    expect(await set({ mode: 'fail', times: 1, path: '/v1/sessions' })).toBe(200)
    const body = await signedIn(account)
    const failed = await post('/v1/sessions', body)
    expect(failed.status).toBe(500)
    const created = await post('/v1/sessions', body)
    expect(created.status).toBe(201)
    const { id } = await answer<SessionCreated>(created)

    expect(await set({ mode: '429', times: 1, retryAfterSeconds: 3, path: `/v1/sessions/${id}` })).toBe(200)
    const limited = await fetch(url(`/v1/sessions/${id}`))
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('3')
    expect((await fetch(url(`/v1/sessions/${id}`))).status).toBe(200)

    expect(await set({ mode: 'drop', times: 1, path: '/v1/sessions' })).toBe(200)
    await expect(post(`/v1/sessions/${id}/revoke`, { pci: id, signature: body.signature })).rejects.toThrow()
    expect((await post(`/v1/sessions/${id}/revoke`, { pci: id, signature: body.signature })).status).toBe(200)
    expect(api.fault.current.mode).toBe('off')
  })

  it('answers 502 when the chain does not answer and the signature is not an EOA one', async () => {
    // A port nobody listens on: bound, read, released.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number }
        probe.close(() => resolve(port))
      })
    })
    const dead = await startDataApi({
      rpcUrl: `http://127.0.0.1:${port}`,
      chainId: chain.chainId,
      tokens: chain.tokens,
      db,
    })
    try {
      const account = privateKeyToAccount(generatePrivateKey())
      const { message, signature } = await signedIn(account)
      const res = await fetch(`${dead.origin}/v1/sessions?${new URLSearchParams(SDK)}`, {
        method: 'POST',
        body: JSON.stringify({ message, signature: tampered(signature) }),
      })
      expect(res.status).toBe(502)
      expect((await answer(res)).error).toMatch(/^Chain RPC unavailable/)
    } finally {
      await dead.close()
    }
  })
})
