import { randomBytes } from 'node:crypto'
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  Transaction,
  VersionedTransaction,
} from '@solana/web3.js'
import bs58 from 'bs58'
import nacl from 'tweetnacl'
import {
  type Address,
  bytesToHex,
  createPublicClient,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  isErc6492Signature,
  parseEther,
  toHex,
  verifyMessage,
  verifyTypedData,
} from 'viem'
import { createBundlerClient, entryPoint07Address } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type SandboxDb } from '../api/db.ts'
import { type ListingApi, startListingApi } from '../api/listing.ts'
import { SANDBOX_SOLANA_CHAIN_ID } from '../api/solana.ts'
import { type Bundler, startBundler } from '../chain/bundler.ts'
import { type Chain, startChain } from '../chain/chain.ts'
import { bundlerEndpoint, rpcEndpoint, startRpcService } from '../chain/rpc.ts'
import type { SandboxService } from '../shared/http.ts'
import { type Solana, startSolana } from '../solana/solana.ts'
import { KeyVault } from './keys.ts'
import {
  SECURE_SITE_MIGRATIONS,
  type SecureSite,
  SOLANA_AIRDROP_LAMPORTS,
  smartAccountAddress,
  startSecureSite,
} from './server.ts'
import { originAllowed, originMatches } from './shared.ts'
import { toSandboxPermissionAccount } from './wallet.ts'

const PROJECT_ID = 'secure-site-test'
const SECRET = randomBytes(32)
const USDC_GRANT = 250n * 10n ** 6n

let chain: Chain
let bundler: Bundler
let rpc: SandboxService
let listing: ListingApi
let db: SandboxDb
let site: SecureSite
let solana: Solana

interface Answer {
  status: number
  headers: Headers
  json: Record<string, unknown>
}

/** Calls the site's API as its frame page would (same origin, so no Origin header from Node). */
async function call(
  path: string,
  body: unknown,
  token?: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`${site.origin}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  })
  return {
    status: response.status,
    headers: response.headers,
    json: (await response.json()) as Record<string, unknown>,
  }
}

function device(): string {
  return randomBytes(18).toString('base64url')
}

async function latestCode(email: string): Promise<string> {
  const [mail] = await site.mailbox(email)
  if (!mail?.code) throw new Error(`no code mail for ${email}`)
  return mail.code
}

/** A full e-mail sign-in from a known-or-first device; answers the session token and the account. */
async function signIn(email: string, deviceId = device()) {
  const start = await call('/api/login/email', { email, deviceId })
  expect(start.json.action).toBe('VERIFY_OTP')
  const done = await call('/api/login/otp', { loginId: start.json.loginId, otp: await latestCode(email) })
  expect(done.status).toBe(200)
  const account = done.json.account as { eoa: Address; smartAccount: Address; email?: string }
  return { token: done.json.token as string, account, deviceId }
}

beforeAll(async () => {
  ;[chain, db, listing, solana] = await Promise.all([
    startChain(),
    openDatabase({ migrations: SECURE_SITE_MIGRATIONS }),
    startListingApi({ allowedOrigins: ['http://127.0.0.1:*'] }),
    startSolana(),
  ])
  bundler = await startBundler({ chainRpcUrl: chain.rpcUrl })
  rpc = await startRpcService({ chain, bundlerUrl: bundler.url })
  const faucet = chain.accounts[9]
  if (!faucet) throw new Error('no faucet account')
  site = await startSecureSite({
    // Through the RPC host, as in the sandbox: it refuses eth_sendTransaction, so sends must be raw.
    rpcUrl: rpcEndpoint(rpc.origin, PROJECT_ID),
    // The smart account's sends go as user operations through the RPC host's bundler endpoint.
    bundlerUrl: bundlerEndpoint(rpc.origin, PROJECT_ID),
    chainId: chain.chainId,
    originsUrl: listing.origin,
    db,
    keySecret: SECRET,
    faucet: {
      privateKey: faucet.privateKey,
      wei: parseEther('2'),
      tokens: [{ address: chain.contracts.usdc, amount: USDC_GRANT }],
    },
    solana: { rpcUrl: solana.rpcUrl },
  })
}, 90_000)

afterAll(async () => {
  await site?.close()
  await Promise.all([rpc?.close(), listing?.close(), db?.close(), solana?.close()])
  await bundler?.close()
  await chain?.close()
})

describe('allowed origins', () => {
  it('matches exact entries and * wildcards without spilling into other parts of the origin', () => {
    expect(originMatches('http://127.0.0.1:*', 'http://127.0.0.1:5173')).toBe(true)
    expect(originMatches('http://127.0.0.1:*', 'http://127.0.0.2:5173')).toBe(false)
    expect(originMatches('https://*.example.com', 'https://app.example.com')).toBe(true)
    expect(originMatches('https://*.example.com', 'https://example.com.evil.test')).toBe(false)
    expect(originMatches('https://app.example.com/', 'https://APP.example.com')).toBe(true)
    expect(originAllowed(['*'], 'https://anything.test')).toBe(true)
    expect(originAllowed([], 'http://127.0.0.1:1')).toBe(false)
  })

  it('asks the listing API and answers whether the page origin is allowed', async () => {
    const check = (origin: string) =>
      call('/api/origin-check', { projectId: PROJECT_ID, sdkVersion: '1.0.0', origin })
    expect((await check('http://127.0.0.1:4444')).json).toEqual({
      allowed: true,
      chainId: chain.chainId,
      solanaChainId: SANDBOX_SOLANA_CHAIN_ID,
    })
    expect((await check('http://evil.test')).json.allowed).toBe(false)
    // Every page around the frame is checked, not only its parent (guards the ancestors in /api/origin-check).
    const nested = (ancestors: string[]) =>
      call('/api/origin-check', {
        projectId: PROJECT_ID,
        sdkVersion: '1.0.0',
        origin: ancestors[0],
        ancestors,
      })
    expect((await nested(['http://127.0.0.1:4444', 'http://127.0.0.1:5555'])).json.allowed).toBe(true)
    expect(
      (await nested(['http://127.0.0.1:4444', 'https://evil.test', 'http://127.0.0.1:1'])).json,
    ).toMatchObject({
      allowed: false,
      refused: 'https://evil.test',
    })
    expect((await nested(Array(17).fill('http://127.0.0.1:4444'))).status).toBe(400)
    listing.setAllowedOrigins(['https://app.example'])
    try {
      expect((await check('http://127.0.0.1:4444')).json.allowed).toBe(false)
      expect((await check('https://app.example')).json.allowed).toBe(true)
      // SPEC §7: a failing origins endpoint is an empty list.
      await fetch(`${listing.origin}/__fault`, {
        method: 'POST',
        body: JSON.stringify({ mode: 'fail', times: 1 }),
      })
      expect((await check('https://app.example')).json.allowed).toBe(false)
    } finally {
      listing.setAllowedOrigins(['http://127.0.0.1:*'])
    }
  })

  it('refuses API calls from other origins', async () => {
    const answer = await call('/api/login/email', { email: 'x@example.com', deviceId: device() }, undefined, {
      origin: 'http://127.0.0.1:1',
    })
    expect(answer.status).toBe(403)
    expect(await site.mailbox('x@example.com')).toEqual([])
  })
})

describe('e-mail sign-in', () => {
  it('creates the account, mails a 6-digit code, refuses a wrong code and opens a session', async () => {
    const email = 'alice@example.com'
    const deviceId = device()
    const start = await call('/api/login/email', { email: 'Alice@Example.com', deviceId })
    expect(start.status).toBe(200)
    expect(start.json.action).toBe('VERIFY_OTP')

    const response = await fetch(`${site.origin}/mailbox?to=${encodeURIComponent(email)}`)
    const mails = (await response.json()) as Array<{ to: string; subject: string; code?: string; at: string }>
    expect(mails).toHaveLength(1)
    expect(mails[0]).toMatchObject({ to: email, subject: 'Your sign-in code' })
    const code = mails[0]?.code ?? ''
    expect(code).toMatch(/^\d{6}$/)

    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0')
    const refused = await call('/api/login/otp', { loginId: start.json.loginId, otp: wrong })
    expect(refused.status).toBe(400)
    expect(refused.json.error).toBe('Invalid code')

    const done = await call('/api/login/otp', { loginId: start.json.loginId, otp: code })
    expect(done.status).toBe(200)
    const token = done.json.token as string
    const account = done.json.account as { eoa: Address; smartAccount: Address }
    expect(done.json.account).toMatchObject({
      email,
      preferredAccountType: 'smartAccount',
      smartAccountDeployed: false,
    })
    expect(account.smartAccount).toBe(smartAccountAddress(account.eoa))

    // The code works once.
    expect((await call('/api/login/otp', { loginId: start.json.loginId, otp: code })).status).toBe(404)
    // The session survives: the frame asks with its token after a reload.
    const session = await call('/api/session', {}, token)
    expect(session.json.account).toMatchObject({ email, eoa: account.eoa })
    expect((await call('/api/session', {})).status).toBe(401)

    await call('/api/signout', {}, token)
    expect((await call('/api/session', {}, token)).status).toBe(401)
  })

  it('200 parallel guesses over HTTP never open a session after 5 wrong ones', async () => {
    const email = 'burst@example.com'
    const start = await call('/api/login/email', { email, deviceId: device() })
    const code = await latestCode(email)
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0')
    // 199 wrong codes, then the right one, all in flight at once.
    const guesses = Array.from({ length: 200 }, (_, i) => (i === 199 ? code : wrong(i)))
    const answers = await Promise.all(
      guesses.map((otp) => call('/api/login/otp', { loginId: start.json.loginId, otp })),
    )
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 400).length).toBeLessThanOrEqual(5)
    expect(statuses).not.toContain(200)
    expect(statuses.filter((status) => status !== 400).every((status) => status === 429)).toBe(true)
    // The address's rate limit says when to come back.
    expect(answers.some((answer) => /^\d+$/.test(answer.headers.get('retry-after') ?? ''))).toBe(true)
    expect((await call('/api/login/otp', { loginId: start.json.loginId, otp: code })).status).toBe(429)
  })

  it('keeps the mailbox from other pages: no CORS, 403 to any page origin, open to Node', async () => {
    const email = 'private@example.com'
    await call('/api/login/email', { email, deviceId: device() })
    const url = `${site.origin}/mailbox?to=${encodeURIComponent(email)}`
    for (const origin of [listing.origin, 'https://evil.example']) {
      const answer = await fetch(url, { headers: { origin } })
      expect(answer.status).toBe(403)
      expect(answer.headers.get('access-control-allow-origin')).toBeNull()
    }
    expect(((await (await fetch(url)).json()) as unknown[]).length).toBe(1)
  })

  it('sends at most one code per address per 10 s', async () => {
    const email = 'throttle@example.com'
    expect((await call('/api/login/email', { email, deviceId: device() })).status).toBe(200)
    const again = await call('/api/login/email', { email, deviceId: device() })
    expect(again.status).toBe(429)
    expect(again.json.error).toMatch(
      /^A code was sent to throttle@example\.com less than 10 seconds ago: try again in \d+ seconds$/,
    )
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await site.mailbox(email)).toHaveLength(1)
  })

  it('asks a new device of an existing account to approve by link first', async () => {
    const email = 'devices@example.com'
    const first = await signIn(email)
    const newDevice = device()
    const start = await call('/api/login/email', { email, deviceId: newDevice })
    expect(start.json.action).toBe('VERIFY_DEVICE')
    const [linkMail] = await site.mailbox(email)
    expect(linkMail?.code).toBeUndefined()
    const link = linkMail?.link ?? ''
    expect(link).toMatch(new RegExp(`^${site.origin}/verify-device\\?token=`))
    expect(linkMail?.text).toContain(link)

    expect((await call('/api/login/device', { loginId: start.json.loginId })).json).toEqual({
      verified: false,
    })
    const early = await call('/api/login/otp', { loginId: start.json.loginId, otp: '000000' })
    expect(early.status).toBe(403)

    const opened = await fetch(link)
    expect(opened.status).toBe(200)
    expect(await opened.text()).toContain('Device approved')
    expect((await fetch(link)).status).toBe(409)
    expect((await call('/api/login/device', { loginId: start.json.loginId })).json).toEqual({
      verified: true,
    })

    const done = await call('/api/login/otp', { loginId: start.json.loginId, otp: await latestCode(email) })
    expect(done.status).toBe(200)
    expect((done.json.account as { eoa: string }).eoa).toBe(first.account.eoa)
    // Known now: the next sign-in from it would get a code, not a link (refused only by the code throttle).
    const next = await call('/api/login/email', { email, deviceId: newDevice })
    expect(next.status).toBe(429)
    expect(next.json.error).toMatch(/^A code was sent/)
  })
})

describe('embedded wallet', () => {
  it('keeps each key encrypted at rest (AES-GCM, bound to the account)', async () => {
    const { account } = await signIn('keys@example.com')
    const { rows } = await db.pg.query<Record<string, unknown>>(
      'SELECT * FROM secure_accounts WHERE address = $1',
      [account.eoa],
    )
    const row = rows[0]
    if (!row) throw new Error('no account row')
    const sealed = {
      iv: row.key_iv as Uint8Array,
      tag: row.key_tag as Uint8Array,
      ciphertext: row.key_ciphertext as Uint8Array,
    }
    expect(sealed.ciphertext).toHaveLength(32)
    expect(sealed.iv).toHaveLength(12)
    expect(sealed.tag).toHaveLength(16)

    // Only the server's secret opens it, and only for this account's row.
    const key = new KeyVault(SECRET).open(sealed, row.id as string)
    expect(privateKeyToAccount(key).address).toBe(account.eoa)
    expect(bytesToHex(sealed.ciphertext)).not.toBe(key)
    const rowText = JSON.stringify(row, (_k, value) =>
      value instanceof Uint8Array ? bytesToHex(value) : value,
    )
    expect(rowText.toLowerCase()).not.toContain(key.slice(2).toLowerCase())
    expect(() => new KeyVault(randomBytes(32)).open(sealed, row.id as string)).toThrow()
    expect(() => new KeyVault(SECRET).open(sealed, 'another-account')).toThrow()
  })

  it('signs messages and typed data that viem verifies (EOA, and the smart account by ERC-6492)', async () => {
    const { token, account } = await signIn('signer@example.com')
    const client = createPublicClient({ chain: chain.viemChain, transport: http(chain.rpcUrl) })
    const message = 'Hello from the sandbox'

    const prepare = await call(
      '/api/sign/prepare',
      { method: 'personal_sign', params: [toHex(message), account.eoa], chainId: chain.chainId },
      token,
    )
    expect(prepare.json.summary).toEqual({
      title: 'Sign message',
      from: account.eoa,
      accountType: 'eoa',
      details: [{ label: 'Message', value: message }],
    })
    const eoaSig = (
      await call(
        '/api/sign',
        { method: 'personal_sign', params: [toHex(message), account.eoa], chainId: chain.chainId },
        token,
      )
    ).json.result as Hex
    expect(await verifyMessage({ address: account.eoa, message, signature: eoaSig })).toBe(true)

    const smartSig = (
      await call(
        '/api/sign',
        { method: 'personal_sign', params: [toHex(message), account.smartAccount], chainId: chain.chainId },
        token,
      )
    ).json.result as Hex
    expect(isErc6492Signature(smartSig)).toBe(true)
    expect(await client.verifyMessage({ address: account.smartAccount, message, signature: smartSig })).toBe(
      true,
    )
    expect(
      await client.verifyMessage({ address: account.smartAccount, message: 'other', signature: smartSig }),
    ).toBe(false)

    const typedData = {
      domain: { name: 'Sandbox', version: '1', chainId: chain.chainId },
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
        ],
        Mail: [
          { name: 'to', type: 'address' },
          { name: 'contents', type: 'string' },
        ],
      },
      primaryType: 'Mail',
      message: { to: chain.accounts[1]?.address, contents: 'gm' },
    } as const
    const typedSig = (
      await call(
        '/api/sign',
        {
          method: 'eth_signTypedData_v4',
          params: [account.eoa, JSON.stringify(typedData)],
          chainId: chain.chainId,
        },
        token,
      )
    ).json.result as Hex
    const { EIP712Domain: _domain, ...types } = typedData.types
    expect(
      await verifyTypedData({
        address: account.eoa,
        domain: typedData.domain,
        types,
        primaryType: 'Mail',
        message: { to: getAddress(chain.accounts[1]?.address ?? ''), contents: 'gm' },
        signature: typedSig,
      }),
    ).toBe(true)

    // Somebody else's address is refused, and so is typed data for another chain.
    const stranger = await call(
      '/api/sign',
      {
        method: 'personal_sign',
        params: [toHex(message), chain.accounts[0]?.address],
        chainId: chain.chainId,
      },
      token,
    )
    expect(stranger.status).toBe(400)
    expect(stranger.json.error).toMatch(/is not an account of this wallet/)
    const otherChain = await call(
      '/api/sign/prepare',
      {
        method: 'eth_signTypedData_v4',
        params: [account.eoa, { ...typedData, domain: { ...typedData.domain, chainId: 1 } }],
        chainId: chain.chainId,
      },
      token,
    )
    expect(otherChain.json).toMatchObject({ code: -32602 })
  })

  // Guards the nonce kept in wallet.ts's prepared transaction: a payment the kit sends again after its time limit
  // names the first request's nonce, so at most one of the two can be mined. Without it the wallet took the next
  // nonce and both were mined.
  it('keeps the nonce a request names: a second send with the same nonce is refused, one is mined', async () => {
    const { token, account } = await signIn('nonce@example.com')
    const client = createPublicClient({ chain: chain.viemChain, transport: http(chain.rpcUrl) })
    const to = chain.accounts[3]?.address as Address
    const nonce = await client.getTransactionCount({ address: account.eoa, blockTag: 'pending' })
    const before = await client.getBalance({ address: to })
    const send = () =>
      call(
        '/api/sign',
        {
          method: 'eth_sendTransaction',
          params: [{ from: account.eoa, to, value: toHex(parseEther('0.01')), nonce: toHex(nonce) }],
          chainId: chain.chainId,
        },
        token,
      )
    const first = await send()
    expect(first.status).toBe(200)
    await client.waitForTransactionReceipt({ hash: first.json.result as Hex })
    const second = await send()
    expect(second.json.result).toBeUndefined()
    expect(await client.getTransactionCount({ address: account.eoa })).toBe(nonce + 1)
    expect(await client.getBalance({ address: to })).toBe(before + parseEther('0.01'))
  })

  it('sends transactions that land on anvil, from the EOA and through the smart account', async () => {
    const { token, account } = await signIn('sender@example.com')
    const client = createPublicClient({ chain: chain.viemChain, transport: http(chain.rpcUrl) })
    const to = chain.accounts[2]?.address as Address
    const before = await client.getBalance({ address: to })

    const sent = await call(
      '/api/sign',
      {
        method: 'eth_sendTransaction',
        params: [{ from: account.eoa, to, value: toHex(parseEther('0.25')) }],
        chainId: chain.chainId,
      },
      token,
    )
    expect(sent.status).toBe(200)
    const receipt = await client.waitForTransactionReceipt({ hash: sent.json.result as Hex })
    expect(receipt.status).toBe('success')
    expect(getAddress(receipt.from)).toBe(account.eoa)
    expect(await client.getBalance({ address: to })).toBe(before + parseEther('0.25'))

    // The smart account (funded by the faucet, not deployed yet) sends USDC: deployed on the way.
    expect(await client.getCode({ address: account.smartAccount })).toBeUndefined()
    const amount = 10n * 10n ** 6n
    const transfer = await call(
      '/api/sign',
      {
        method: 'eth_sendTransaction',
        params: [
          {
            from: account.smartAccount,
            to: chain.contracts.usdc,
            data: encodeTransfer(to, amount),
          },
        ],
        chainId: chain.chainId,
      },
      token,
    )
    expect(transfer.status).toBe(200)
    const transferReceipt = await client.waitForTransactionReceipt({ hash: transfer.json.result as Hex })
    expect(transferReceipt.status).toBe('success')
    // A user operation: the transaction is the bundler's handleOps call to the EntryPoint.
    expect(getAddress(transferReceipt.to ?? '0x')).toBe(entryPoint07Address)
    const usdc = (address: Address) =>
      client.readContract({
        address: chain.contracts.usdc,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [address],
      })
    expect(await usdc(account.smartAccount)).toBe(USDC_GRANT - amount)

    const session = await call('/api/session', {}, token)
    expect(session.json.account).toMatchObject({ smartAccountDeployed: true })
    // Deployed: a plain signature, checked by the account's ERC-1271.
    const signature = (
      await call(
        '/api/sign',
        {
          method: 'personal_sign',
          params: [toHex('deployed'), account.smartAccount],
          chainId: chain.chainId,
        },
        token,
      )
    ).json.result as Hex
    expect(isErc6492Signature(signature)).toBe(false)
    expect(
      await client.verifyMessage({ address: account.smartAccount, message: 'deployed', signature }),
    ).toBe(true)
  })

  it('sends a batch (EIP-5792) as one user operation of the smart account and reports it from the bundler', async () => {
    const { token, account } = await signIn('batch@example.com')
    const client = createPublicClient({ chain: chain.viemChain, transport: http(chain.rpcUrl) })
    const rpcCall = (method: string, params: unknown[]) =>
      call('/api/rpc', { method, params, chainId: chain.chainId }, token)
    const chainHex = toHex(chain.chainId)
    // ERC-7715 permissions too, for the smart account only: what its wallet_grantPermissions takes.
    expect((await rpcCall('wallet_getCapabilities', [account.smartAccount])).json.result).toEqual({
      [chainHex]: {
        atomic: { status: 'supported' },
        permissions: {
          supported: true,
          signerTypes: ['key', 'keys', 'account'],
          permissionTypes: ['erc20-token-transfer'],
          policyTypes: ['token-allowance'],
        },
      },
    })
    expect((await rpcCall('wallet_getCapabilities', [account.eoa])).json.result).toEqual({
      [chainHex]: { atomic: { status: 'unsupported' } },
    })

    const [first, second] = [chain.accounts[7]?.address as Address, chain.accounts[8]?.address as Address]
    const transfers = [
      { to: chain.contracts.usdc, data: encodeTransfer(first, 1_500_000n) },
      { to: chain.contracts.usdc, data: encodeTransfer(second, 3_000_000n) },
    ]
    const batch = (calls: unknown[], from: Address = account.smartAccount) => ({
      method: 'wallet_sendCalls',
      params: [{ version: '2.0.0', chainId: chainHex, from, atomicRequired: true, calls }],
      chainId: chain.chainId,
    })
    // SPEC §5: a call whose 'to' does not start 0x, or whose data does not, is refused with the rule.
    for (const bad of [{ to: 'usdc.eth' }, { to: chain.contracts.usdc, data: 'a9059cbb' }]) {
      const refused = await call('/api/sign/prepare', batch([bad]), token)
      expect(refused.json).toMatchObject({
        error: "Batched calls need a 'to' starting 0x; data, if present, starts 0x",
        code: -32602,
      })
    }
    // Only the smart account batches atomically.
    expect((await call('/api/sign/prepare', batch(transfers, account.eoa), token)).json).toMatchObject({
      code: 5760,
    })
    const prepared = await call('/api/sign/prepare', batch(transfers), token)
    expect(prepared.json.summary).toMatchObject({
      title: 'Send 2 calls in one batch',
      from: account.smartAccount,
      accountType: 'smartAccount',
    })

    const [firstBefore, secondBefore] = [await usdcOf(client, first), await usdcOf(client, second)]
    expect(await client.getCode({ address: account.smartAccount })).toBeUndefined()
    const sent = await call('/api/sign', batch(transfers), token)
    expect(sent.status).toBe(200)
    const { id } = sent.json.result as { id: Hex }
    expect(id).toMatch(/^0x[0-9a-f]{64}$/)

    let status: Record<string, unknown> = {}
    await expect
      .poll(async () => {
        status = (await rpcCall('wallet_getCallsStatus', [id])).json.result as Record<string, unknown>
        return status.status
      })
      .toBe(200)
    expect(status).toMatchObject({ version: '2.0.0', id, chainId: chainHex, atomic: true })
    const receipts = status.receipts as Array<{
      status: string
      transactionHash: Hex
      logs: Array<{ address: Address }>
    }>
    // One user operation, one transaction: both transfers' logs in its one receipt.
    expect(receipts).toHaveLength(1)
    expect(receipts[0]).toMatchObject({ status: '0x1' })
    const usdcLogs = receipts[0]?.logs.filter((log) => getAddress(log.address) === chain.contracts.usdc)
    expect(usdcLogs).toHaveLength(2)
    const mined = await client.getTransactionReceipt({ hash: receipts[0]!.transactionHash })
    expect(getAddress(mined.to ?? '0x')).toBe(entryPoint07Address)
    // The operation's hash, as the bundler knows it (eth_getUserOperationReceipt).
    const viaBundler = await fetch(bundlerEndpoint(rpc.origin, PROJECT_ID), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getUserOperationReceipt', params: [id] }),
    }).then((r) => r.json() as Promise<{ result: { success: boolean; sender: Address } }>)
    expect(viaBundler.result).toMatchObject({ success: true })
    expect(getAddress(viaBundler.result.sender)).toBe(account.smartAccount)

    expect(await usdcOf(client, first)).toBe(firstBefore + 1_500_000n)
    expect(await usdcOf(client, second)).toBe(secondBefore + 3_000_000n)
    expect(await usdcOf(client, account.smartAccount)).toBe(USDC_GRANT - 4_500_000n)
    // The first operation deployed the account.
    expect((await call('/api/session', {}, token)).json.account).toMatchObject({ smartAccountDeployed: true })

    // Another account's batch, or an id never sent here: EIP-5792's unknown bundle id.
    const other = await signIn('batch-other@example.com')
    const stranger = await call(
      '/api/rpc',
      { method: 'wallet_getCallsStatus', params: [id], chainId: chain.chainId },
      other.token,
    )
    expect(stranger.json).toMatchObject({ error: 'Unknown bundle id', code: 5730 })
    expect((await rpcCall('wallet_getCallsStatus', [`0x${'12'.repeat(32)}`])).json).toMatchObject({
      code: 5730,
    })
  })

  it('grants an ERC-7715 permission from the smart account: its signer spends within it alone, nothing after revoke', async () => {
    const { token, account } = await signIn('permissions@example.com')
    const client = createPublicClient({ chain: chain.viemChain, transport: http(chain.rpcUrl) })
    const signerKey = generatePrivateKey()
    const signer = privateKeyToAccount(signerKey).address
    const expiry = Math.floor(Date.now() / 1000) + 3600
    const grantRequest = (permission: Record<string, unknown>, address: Address = account.smartAccount) => ({
      method: 'wallet_grantPermissions',
      params: [
        {
          chainId: toHex(chain.chainId),
          address,
          expiry,
          signer: { type: 'key', data: { id: signer } },
          permissions: [permission],
        },
      ],
      chainId: chain.chainId,
    })
    const usdcLimit = {
      type: 'erc20-token-transfer',
      data: { address: chain.contracts.usdc, ticker: 'USDC' },
      policies: [{ type: 'token-allowance', data: { allowance: toHex(10_000_000n) } }],
      required: true,
    }
    // Refused before anything is shown: the EOA, and a type the account does not enforce.
    expect((await call('/api/sign/prepare', grantRequest(usdcLimit, account.eoa), token)).json).toMatchObject(
      {
        error: 'Permissions are granted by the smart account only: switch to your smart account first',
        code: 4200,
      },
    )
    const native = { type: 'native-token-transfer', data: { ticker: 'ETH' }, policies: [] }
    expect((await call('/api/sign/prepare', grantRequest(native), token)).json).toMatchObject({
      error: expect.stringContaining('Unsupported permission type native-token-transfer'),
      code: -32602,
    })
    expect((await call('/api/sign/prepare', grantRequest(usdcLimit), token)).json.summary).toMatchObject({
      title: 'Grant a spend permission',
      from: account.smartAccount,
      accountType: 'smartAccount',
    })

    const granted = await call('/api/sign', grantRequest(usdcLimit), token)
    expect(granted.status).toBe(200)
    const answer = granted.json.result as { permissionsContext: Hex }
    expect(answer).toMatchObject({
      address: account.smartAccount,
      expiry,
      grantedPermissions: [{ type: 'erc20-token-transfer', data: { address: chain.contracts.usdc } }],
    })
    expect(answer.permissionsContext).toMatch(/^0x[0-9a-f]{64}$/)

    const bundler = createBundlerClient({
      client,
      transport: http(bundlerEndpoint(rpc.origin, PROJECT_ID)),
      pollingInterval: 50,
    })
    const session = await toSandboxPermissionAccount(client as never, {
      owner: account.eoa,
      signerKey,
      permissionId: answer.permissionsContext,
    })
    const to = chain.accounts[6]?.address as Address
    const spend = (amount: bigint) =>
      bundler.sendUserOperation({
        account: session,
        calls: [{ to: chain.contracts.usdc, data: encodeTransfer(to, amount) }],
      })
    const before = await usdcOf(client, to)
    const hash = await spend(5_000_000n)
    expect((await bundler.waitForUserOperationReceipt({ hash })).success).toBe(true)
    expect(await usdcOf(client, to)).toBe(before + 5_000_000n)
    await expect(spend(20_000_000n)).rejects.toThrow(/AA24|signature/i)

    const revoke = {
      method: 'wallet_revokePermissions',
      params: [{ permissionsContext: answer.permissionsContext }],
      chainId: chain.chainId,
    }
    expect((await call('/api/sign', revoke, token)).json).toEqual({ result: null })
    await expect(spend(5_000_000n)).rejects.toThrow(/AA24|signature/i)
    expect(await usdcOf(client, to)).toBe(before + 5_000_000n)
    // Revoked already: nothing to revoke.
    expect((await call('/api/sign', revoke, token)).json).toMatchObject({
      error: 'No active permission has this permissionsContext',
      code: -32602,
    })
  })

  it('forwards read-only calls, refuses everything else and needs a session', async () => {
    const { token, account } = await signIn('reader@example.com')
    const block = await call('/api/rpc', { method: 'eth_blockNumber', chainId: chain.chainId }, token)
    expect(block.json.result).toMatch(/^0x[0-9a-f]+$/)
    const accounts = await call('/api/rpc', { method: 'eth_accounts', chainId: chain.chainId }, token)
    expect(accounts.json.result).toEqual([account.smartAccount, account.eoa])

    const refused = await call('/api/rpc', { method: 'eth_sign', params: [], chainId: chain.chainId }, token)
    expect(refused.json).toMatchObject({ error: 'Requested RPC call is not allowed', code: 4200 })
    const wrongChain = await call('/api/rpc', { method: 'eth_blockNumber', chainId: 1 }, token)
    expect(wrongChain.json).toMatchObject({ error: 'Chain is not supported', code: 4902 })
    expect((await call('/api/rpc', { method: 'eth_blockNumber', chainId: chain.chainId })).status).toBe(401)

    const preferred = await call('/api/preferred-account', { type: 'eoa' }, token)
    expect(preferred.json.account).toMatchObject({ preferredAccountType: 'eoa' })
    const after = await call('/api/rpc', { method: 'eth_accounts', chainId: chain.chainId }, token)
    expect(after.json.result).toEqual([account.eoa, account.smartAccount])
  })
})

describe('embedded wallet on Solana', () => {
  const SOL_CHAIN = SANDBOX_SOLANA_CHAIN_ID
  const solanaAccount = (account: unknown) => (account as { solana: string }).solana
  const connection = () => new Connection(solana.rpcUrl, 'confirmed')
  const sign = (token: string, method: string, params: unknown[], chainId: number | string = SOL_CHAIN) =>
    call('/api/sign', { method, params, chainId }, token)

  it('keeps the ed25519 key sealed as the EVM key is (AES-GCM, bound to the account and to its kind)', async () => {
    const { account } = await signIn('solana-keys@example.com')
    const address = solanaAccount(account)
    expect(new PublicKey(address).toBase58()).toBe(address)
    const { rows } = await db.pg.query<Record<string, unknown>>(
      'SELECT * FROM secure_accounts WHERE solana_address = $1',
      [address],
    )
    const row = rows[0]
    if (!row) throw new Error('no account row')
    const sealed = {
      iv: row.solana_key_iv as Uint8Array,
      tag: row.solana_key_tag as Uint8Array,
      ciphertext: row.solana_key_ciphertext as Uint8Array,
    }
    expect(sealed.ciphertext).toHaveLength(32)
    expect(sealed.iv).toHaveLength(12)
    expect(sealed.tag).toHaveLength(16)
    const seed = new KeyVault(SECRET).open(sealed, row.id as string, 'solana')
    const pair = Keypair.fromSeed(Buffer.from(seed.slice(2), 'hex'))
    expect(pair.publicKey.toBase58()).toBe(address)
    // At rest neither the seed nor the 64-byte secret key appears, in hex or base58.
    const rowText = JSON.stringify(row, (_k, value) =>
      value instanceof Uint8Array ? bytesToHex(value) : value,
    )
    expect(bytesToHex(sealed.ciphertext)).not.toBe(seed)
    expect(rowText.toLowerCase()).not.toContain(seed.slice(2).toLowerCase())
    expect(rowText).not.toContain(bs58.encode(pair.secretKey))
    expect(() => new KeyVault(randomBytes(32)).open(sealed, row.id as string, 'solana')).toThrow()
    expect(() => new KeyVault(SECRET).open(sealed, 'another-account', 'solana')).toThrow()
    // The kind is bound in: the Solana seed does not open as the account's EVM key, nor the EVM key as Solana's.
    expect(() => new KeyVault(SECRET).open(sealed, row.id as string)).toThrow()
    const evmSealed = {
      iv: row.key_iv as Uint8Array,
      tag: row.key_tag as Uint8Array,
      ciphertext: row.key_ciphertext as Uint8Array,
    }
    expect(() => new KeyVault(SECRET).open(evmSealed, row.id as string, 'solana')).toThrow()
  })

  it('airdrops 10 SOL to a new account on the sandbox Solana chain', async () => {
    const { account } = await signIn('solana-funded@example.com')
    const owner = new PublicKey(solanaAccount(account))
    await expect.poll(() => connection().getBalance(owner)).toBe(Number(SOLANA_AIRDROP_LAMPORTS))
    expect(SOLANA_AIRDROP_LAMPORTS).toBe(10n * BigInt(LAMPORTS_PER_SOL))
  })

  it('gives an account made before Solana keys its key (sealed and funded) when it is first used', async () => {
    const { token, account } = await signIn('solana-late@example.com')
    await db.pg.query(
      `UPDATE secure_accounts SET solana_address = NULL, solana_key_iv = NULL, solana_key_tag = NULL,
         solana_key_ciphertext = NULL WHERE address = $1`,
      [account.eoa],
    )
    const session = await call('/api/session', {}, token)
    const address = solanaAccount(session.json.account)
    expect(address).not.toBe(solanaAccount(account))
    expect((await call('/api/session', {}, token)).json.account).toMatchObject({ solana: address })
    await expect
      .poll(() => connection().getBalance(new PublicKey(address)))
      .toBe(Number(SOLANA_AIRDROP_LAMPORTS))
    const signed = await sign(token, 'solana_signMessage', [{ message: bs58.encode(Buffer.from('late')) }])
    const { signature } = signed.json.result as { signature: string }
    expect(
      nacl.sign.detached.verify(
        Buffer.from('late'),
        bs58.decode(signature),
        new PublicKey(address).toBytes(),
      ),
    ).toBe(true)
  })

  it('signs messages, signs transactions and sends them to the Solana RPC', async () => {
    const { token, account } = await signIn('solana-signer@example.com')
    const owner = new PublicKey(solanaAccount(account))
    await expect.poll(() => connection().getBalance(owner)).toBeGreaterThan(0)

    const message = new TextEncoder().encode('Hello from Solana')
    const prepared = await call(
      '/api/sign/prepare',
      { method: 'solana_signMessage', params: [{ message: bs58.encode(message) }], chainId: SOL_CHAIN },
      token,
    )
    expect(prepared.json.summary).toEqual({
      title: 'Sign message',
      from: owner.toBase58(),
      accountType: 'eoa',
      details: [
        { label: 'Message', value: 'Hello from Solana' },
        { label: 'Network', value: `Solana (${SOL_CHAIN})` },
      ],
    })
    const signed = await sign(token, 'solana_signMessage', [
      { message: bs58.encode(message), pubkey: owner.toBase58() },
    ])
    expect(signed.status).toBe(200)
    const signature = bs58.decode((signed.json.result as { signature: string }).signature)
    expect(nacl.sign.detached.verify(message, signature, owner.toBytes())).toBe(true)

    const to = Keypair.generate().publicKey
    const transfer = async (lamports: number) => {
      const { blockhash } = await connection().getLatestBlockhash()
      const tx = new Transaction({ feePayer: owner, recentBlockhash: blockhash }).add(
        SystemProgram.transfer({ fromPubkey: owner, toPubkey: to, lamports }),
      )
      return tx.serialize({ requireAllSignatures: false }).toString('base64')
    }

    // Signed, not sent: the wallet answers the transaction with its signature in place.
    const signOnly = await sign(token, 'solana_signTransaction', [
      { transaction: await transfer(LAMPORTS_PER_SOL) },
    ])
    expect(signOnly.status).toBe(200)
    const signedTx = VersionedTransaction.deserialize(
      Buffer.from((signOnly.json.result as { transaction: string }).transaction, 'base64'),
    )
    const [txSignature] = signedTx.signatures
    expect(
      nacl.sign.detached.verify(
        signedTx.message.serialize(),
        txSignature ?? new Uint8Array(),
        owner.toBytes(),
      ),
    ).toBe(true)
    expect(await connection().getBalance(to)).toBe(0)

    const sendSummary = await call(
      '/api/sign/prepare',
      {
        method: 'solana_signAndSendTransaction',
        params: [{ transaction: await transfer(2 * LAMPORTS_PER_SOL) }],
        chainId: SOL_CHAIN,
      },
      token,
    )
    expect(sendSummary.json.summary).toMatchObject({ title: 'Send transaction', from: owner.toBase58() })
    expect(JSON.stringify(sendSummary.json.summary)).toContain(`transfer 2 SOL to ${to.toBase58()}`)
    const sent = await sign(token, 'solana_signAndSendTransaction', [
      { transaction: await transfer(2 * LAMPORTS_PER_SOL), options: { preflightCommitment: 'confirmed' } },
    ])
    expect(sent.status).toBe(200)
    const sentSignature = (sent.json.result as { signature: string }).signature
    expect(bs58.decode(sentSignature)).toHaveLength(64)
    expect(await connection().getBalance(to)).toBe(2 * LAMPORTS_PER_SOL)
    const status = await connection().getSignatureStatus(sentSignature)
    expect(status.value?.err).toBeNull()
  })

  it("answers params of the wrong shape, strangers' keys and the wrong chain with clear errors", async () => {
    const { token, account } = await signIn('solana-strict@example.com')
    const owner = new PublicKey(solanaAccount(account))
    const invalid = { status: 400, json: { code: -32602 } }
    expect(await sign(token, 'solana_signMessage', [])).toMatchObject(invalid)
    expect(await sign(token, 'solana_signMessage', ['3mJr7AoUXx2Wqd'])).toMatchObject(invalid)
    expect(await sign(token, 'solana_signMessage', [{ msg: 'abc' }])).toMatchObject(invalid)
    const notBase58 = await sign(token, 'solana_signMessage', [{ message: 'O0Il' }])
    expect(notBase58).toMatchObject(invalid)
    expect(notBase58.json.error).toBe('solana_signMessage: message must be base58')
    expect(await sign(token, 'solana_signTransaction', [{ transaction: 'not base64!' }])).toMatchObject(
      invalid,
    )
    const garbage = await sign(token, 'solana_signTransaction', [{ transaction: 'AAAA' }])
    expect(garbage).toMatchObject(invalid)
    expect(garbage.json.error).toMatch(/^solana_signTransaction: Invalid transaction/)
    expect(
      await sign(token, 'solana_signAndSendTransaction', [{ transaction: 'AAAA', options: 'fast' }]),
    ).toMatchObject(invalid)

    // A transaction that does not ask for this account's signature is refused before anyone is asked.
    const stranger = Keypair.generate()
    const { blockhash } = await connection().getLatestBlockhash()
    const foreign = new Transaction({ feePayer: stranger.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({ fromPubkey: stranger.publicKey, toPubkey: owner, lamports: 1 }),
    )
    const refused = await sign(token, 'solana_signTransaction', [
      { transaction: foreign.serialize({ requireAllSignatures: false }).toString('base64') },
    ])
    expect(refused).toMatchObject(invalid)
    expect(refused.json.error).toContain(`does not ask for the signature of ${owner.toBase58()}`)
    const otherKey = await sign(token, 'solana_signMessage', [
      { message: bs58.encode(Buffer.from('x')), pubkey: stranger.publicKey.toBase58() },
    ])
    expect(otherKey).toMatchObject({ status: 400, json: { code: 4100 } })

    // Solana methods only on the Solana chain, eip155 ones only on the EVM chain.
    const message = [{ message: bs58.encode(Buffer.from('x')) }]
    expect(await sign(token, 'solana_signMessage', message, chain.chainId)).toMatchObject({
      json: { error: 'Chain is not supported', code: 4902 },
    })
    expect(
      await sign(token, 'solana_signMessage', message, 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'),
    ).toMatchObject({ json: { error: 'Chain is not supported', code: 4902 } })
    expect(await sign(token, 'personal_sign', [toHex('x'), account.eoa], SOL_CHAIN)).toMatchObject({
      json: { error: 'Chain is not supported', code: 4902 },
    })
    // A send the chain refuses (more SOL than the account has) comes back with the RPC's error.
    const tooMuch = new Transaction({ feePayer: owner, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({
        fromPubkey: owner,
        toPubkey: stranger.publicKey,
        lamports: 1_000 * LAMPORTS_PER_SOL,
      }),
    )
    const failed = await sign(token, 'solana_signAndSendTransaction', [
      { transaction: tooMuch.serialize({ requireAllSignatures: false }).toString('base64') },
    ])
    expect(failed).toMatchObject({ status: 400, json: { code: -32002 } })
    expect(failed.json.error).toMatch(/^Transaction simulation failed/)
  })
})

describe('e-mail change and stand-in identities', () => {
  it('changes the e-mail in two steps: a code to the current address, then one to the new', async () => {
    const { token } = await signIn('old@example.com')
    const start = await call('/api/email/update', { email: 'new@example.com' }, token)
    expect(start.json).toEqual({ action: 'VERIFY_PRIMARY_OTP' })
    const [primaryMail] = await site.mailbox('old@example.com')
    expect(primaryMail?.subject).toBe('Confirm changing your e-mail to new@example.com')
    expect(await site.mailbox('new@example.com')).toEqual([])

    expect((await call('/api/email/secondary', { otp: '123456' }, token)).status).toBe(409)
    const wrong = await call(
      '/api/email/primary',
      { otp: primaryMail?.code === '000000' ? '111111' : '000000' },
      token,
    )
    expect(wrong.json.error).toBe('Invalid code')
    const primary = await call('/api/email/primary', { otp: primaryMail?.code }, token)
    expect(primary.json).toEqual({ action: 'VERIFY_SECONDARY_OTP' })
    const secondary = await call('/api/email/secondary', { otp: await latestCode('new@example.com') }, token)
    expect(secondary.json).toMatchObject({
      newEmail: 'new@example.com',
      account: { email: 'new@example.com' },
    })
    expect((await call('/api/session', {}, token)).json.account).toMatchObject({ email: 'new@example.com' })
  })

  it('signs in through the social stand-in with a one-time token in the URL it redirects back to', async () => {
    const deviceId = device()
    const returnTo = 'http://127.0.0.1:4321/app?tab=1'
    const start = await call(
      '/api/social/start',
      { provider: 'github', deviceId, projectId: PROJECT_ID, sdkVersion: '1', returnTo },
      undefined,
    )
    const uri = start.json.uri as string
    expect(uri).toMatch(new RegExp(`^${site.origin}/social/github\\?state=`))
    const page = await fetch(uri)
    const html = await page.text()
    expect(html).toContain('Sign in as')
    expect(html).toContain('Continue')

    const state = new URL(uri).searchParams.get('state') ?? ''
    const submitted = await fetch(`${site.origin}/social/github`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ state, email: 'social@example.com' }).toString(),
      redirect: 'manual',
    })
    expect(submitted.status).toBe(303)
    const back = submitted.headers.get('location') ?? ''
    expect(back.startsWith('http://127.0.0.1:4321/app?tab=1&walletstate_social=')).toBe(true)

    expect((await call('/api/social/finish', { uri: back, deviceId: device() })).status).toBe(403)
    const done = await call('/api/social/finish', { uri: back, deviceId })
    expect(done.json.account).toMatchObject({ email: 'social@example.com' })
    expect((await call('/api/social/finish', { uri: back, deviceId })).status).toBe(410)

    const stranger = await call(
      '/api/social/start',
      { provider: 'x', deviceId, projectId: PROJECT_ID, sdkVersion: '1', returnTo: 'https://evil.test/' },
      undefined,
    )
    expect(stranger.status).toBe(403)
  })

  it('signs in through the Farcaster stand-in once its page is submitted', async () => {
    const deviceId = device()
    const start = await call('/api/farcaster/start', { deviceId })
    const channel = start.json.channel as string
    expect(start.json.url).toBe(`${site.origin}/farcaster?channel=${channel}`)
    expect((await call('/api/farcaster/poll', { channel, deviceId })).json).toEqual({ done: false })
    expect(await (await fetch(start.json.url as string)).text()).toContain('Username')
    const submitted = await fetch(`${site.origin}/farcaster`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ channel, username: 'alice-fc' }).toString(),
    })
    expect(submitted.status).toBe(200)
    const done = await call('/api/farcaster/poll', { channel, deviceId })
    expect(done.json).toMatchObject({
      done: true,
      account: { userName: 'alice-fc', preferredAccountType: 'smartAccount' },
    })
    expect(done.json.account).not.toHaveProperty('email')
  })

  it('shows every mail on the mailbox page, newest first', async () => {
    const html = await (await fetch(`${site.origin}/mailbox`)).text()
    expect(html).toContain('<h1>Mailbox</h1>')
    expect(html.indexOf('new@example.com')).toBeLessThan(html.indexOf('alice@example.com'))
  })
})

function encodeTransfer(to: Address, amount: bigint): Hex {
  // transfer(address,uint256)
  return `0xa9059cbb${to.slice(2).toLowerCase().padStart(64, '0')}${amount.toString(16).padStart(64, '0')}`
}

function usdcOf(client: ReturnType<typeof createPublicClient>, address: Address): Promise<bigint> {
  return client.readContract({
    address: chain.contracts.usdc,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address],
  })
}
