import { createServer } from 'node:net'
import {
  createAssociatedTokenAccountInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token'
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  sendAndConfirmTransaction,
  Transaction,
} from '@solana/web3.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { AllowedOrigins } from '../shared/origins.ts'
import { SOLANA_DEV_FUNDING, type Solana, startSolana } from './solana.ts'
import { base58Encode } from './svm.ts'

interface RpcAnswer {
  id?: unknown
  result?: unknown
  error: { code: number; message: string }
}

async function rpc(solana: Solana, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(solana.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  return {
    status: response.status,
    headers: response.headers,
    json: (await response.json()) as RpcAnswer & RpcAnswer[],
  }
}

/** Whether something still listens on a loopback port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', () => resolve(true))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(false)))
  })
}

describe('startSolana', () => {
  let solana: Solana
  let connection: Connection
  beforeAll(async () => {
    solana = await startSolana({ origins: new AllowedOrigins(['http://127.0.0.1:5173']) })
    // No wsEndpoint: web3.js finds the WebSocket at port + 1, as with a local validator.
    connection = new Connection(solana.rpcUrl, 'confirmed')
  })
  afterAll(async () => {
    await solana?.close()
  })

  it('funds the dev keys with SOL and USDC, the same keys on every start', async () => {
    expect(solana.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(solana.wsUrl).toBe(`ws://127.0.0.1:${solana.port + 1}`)
    expect(solana.accounts.length).toBeGreaterThanOrEqual(5)
    expect(await connection.getGenesisHash()).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
    expect(await connection.getVersion()).toHaveProperty('solana-core')
    const usdc = new PublicKey(solana.mints.usdc)
    for (const account of solana.accounts) {
      const owner = new PublicKey(account.publicKey)
      expect(Keypair.fromSecretKey(account.secretKey).publicKey.equals(owner)).toBe(true)
      expect(await connection.getBalance(owner)).toBe(Number(SOLANA_DEV_FUNDING.lamports))
      const balance = await connection.getTokenAccountBalance(getAssociatedTokenAddressSync(usdc, owner))
      expect(balance.value).toMatchObject({ amount: '10000000000', decimals: 6, uiAmountString: '10000' })
    }
    const again = await startSolana()
    try {
      expect(again.accounts.map((a) => a.publicKey)).toEqual(solana.accounts.map((a) => a.publicKey))
      expect(again.mints.usdc).toBe(solana.mints.usdc)
    } finally {
      await again.close()
    }
  })

  it('sends 0.5 SOL with sendAndConfirmTransaction, confirmed through the WebSocket', async () => {
    const from = Keypair.fromSecretKey(solana.accounts[0]!.secretKey)
    const to = new PublicKey(solana.accounts[1]!.publicKey)
    const [fromBefore, toBefore] = [
      await connection.getBalance(from.publicKey),
      await connection.getBalance(to),
    ]
    const tx = new Transaction().add(
      SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports: LAMPORTS_PER_SOL / 2 }),
    )
    const priced = new Transaction({ feePayer: from.publicKey, ...(await connection.getLatestBlockhash()) })
    const fee = await connection.getFeeForMessage(priced.add(...tx.instructions).compileMessage())
    expect(fee.value).toBe(5000)
    const signature = await sendAndConfirmTransaction(connection, tx, [from])
    expect(await connection.getBalance(to)).toBe(toBefore + LAMPORTS_PER_SOL / 2)
    expect(await connection.getBalance(from.publicKey)).toBe(fromBefore - LAMPORTS_PER_SOL / 2 - 5000)
    const status = await connection.getSignatureStatus(signature)
    expect(status.value).toMatchObject({ err: null, confirmationStatus: 'finalized' })
  })

  it('notifies WebSocket subscribers of a signature and of new slots', async () => {
    const from = Keypair.fromSecretKey(solana.accounts[3]!.secretKey)
    const tx = new Transaction({ feePayer: from.publicKey, ...(await connection.getLatestBlockhash()) }).add(
      SystemProgram.transfer({
        fromPubkey: from.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports: LAMPORTS_PER_SOL,
      }),
    )
    tx.sign(from)
    const signature = base58Encode(tx.signature!)
    const slots: number[] = []
    const slotSub = connection.onSlotChange((info) => slots.push(info.slot))
    const landed = new Promise((resolve) => connection.onSignature(signature, resolve, 'confirmed'))
    // web3.js subscribes once its socket is open: give it a moment before the transaction lands.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await connection.sendRawTransaction(tx.serialize())).toBe(signature)
    expect(await landed).toEqual({ err: null })
    await connection.removeSlotChangeListener(slotSub)
    expect(slots).toContain(await connection.getSlot())
  })

  it('sends 10 USDC to a fresh key, creating its associated token account', async () => {
    const from = Keypair.fromSecretKey(solana.accounts[2]!.secretKey)
    const to = Keypair.generate().publicKey
    const mint = new PublicKey(solana.mints.usdc)
    const source = getAssociatedTokenAddressSync(mint, from.publicKey)
    const destination = getAssociatedTokenAddressSync(mint, to)
    const tx = new Transaction().add(
      createAssociatedTokenAccountInstruction(from.publicKey, destination, to, mint),
      createTransferCheckedInstruction(source, mint, destination, from.publicKey, 10_000_000n, 6),
    )
    await sendAndConfirmTransaction(connection, tx, [from])

    const parsed = await connection.getParsedTokenAccountsByOwner(to, { mint })
    expect(parsed.value).toHaveLength(1)
    expect(parsed.value[0]!.pubkey.equals(destination)).toBe(true)
    expect(parsed.value[0]!.account.data.parsed.info).toMatchObject({
      mint: mint.toBase58(),
      owner: to.toBase58(),
      state: 'initialized',
      tokenAmount: { amount: '10000000', decimals: 6, uiAmount: 10, uiAmountString: '10' },
    })
    const raw = await connection.getTokenAccountsByOwner(to, { mint })
    expect(raw.value[0]!.account.data.length).toBe(165)
    const rest = await connection.getTokenAccountBalance(source)
    expect(rest.value.uiAmountString).toBe('9990')
    const info = await connection.getParsedAccountInfo(mint)
    expect(info.value?.data).toMatchObject({
      program: 'spl-token',
      parsed: { type: 'mint', info: { decimals: 6 } },
    })
  })

  it('refuses a failing transaction at preflight with the program logs', async () => {
    const poor = Keypair.generate()
    await connection.confirmTransaction({
      signature: await connection.requestAirdrop(poor.publicKey, LAMPORTS_PER_SOL),
      ...(await connection.getLatestBlockhash()),
    })
    const tx = new Transaction().add(
      SystemProgram.transfer({
        fromPubkey: poor.publicKey,
        toPubkey: Keypair.generate().publicKey,
        lamports: 2 * LAMPORTS_PER_SOL,
      }),
    )
    await expect(sendAndConfirmTransaction(connection, tx, [poor])).rejects.toThrow(/simulation failed/i)
    expect(await connection.getBalance(poor.publicKey)).toBe(LAMPORTS_PER_SOL)
  })

  it('answers malformed requests with JSON-RPC errors', async () => {
    const unknown = await rpc(solana, { jsonrpc: '2.0', id: 1, method: 'getEverything', params: [] })
    expect(unknown.status).toBe(200)
    expect(unknown.json.error).toMatchObject({ code: -32601 })
    const badKey = await rpc(solana, { jsonrpc: '2.0', id: 2, method: 'getBalance', params: ['not-a-key'] })
    expect(badKey.json).toMatchObject({ id: 2, error: { code: -32602 } })
    expect(badKey.json.error.message).toMatch(/base58 public key/)
    const noParams = await rpc(solana, { jsonrpc: '2.0', id: 3, method: 'getBalance' })
    expect(noParams.json.error.code).toBe(-32602)
    expect((await rpc(solana, '{nope')).json.error.code).toBe(-32700)
    expect((await rpc(solana, { id: 4, method: 'getSlot' })).json.error.code).toBe(-32600)
    const batch = await rpc(solana, [
      { jsonrpc: '2.0', id: 5, method: 'getHealth' },
      { jsonrpc: '2.0', id: 6, method: 'getSlot', params: [{ commitment: 'bogus' }] },
    ])
    expect(batch.json[0]).toMatchObject({ id: 5, result: 'ok' })
    expect(batch.json[1]).toMatchObject({ id: 6, error: { code: -32602 } })
    await expect(connection.getBalance(Keypair.generate().publicKey, 'confirmed')).resolves.toBe(0)
  })

  it('gives CORS to the configured origins only', async () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'getHealth' }
    const allowed = await rpc(solana, body, { origin: 'http://127.0.0.1:5173' })
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173')
    const other = await rpc(solana, body, { origin: 'http://127.0.0.1:9999' })
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('fails calls while the fault switch is on', async () => {
    const set = (fault: unknown) =>
      fetch(`${solana.rpcUrl}/__fault`, { method: 'POST', body: JSON.stringify(fault) }).then((r) => r.json())
    await set({ mode: 'fail', times: 1 })
    await expect(connection.getSlot()).rejects.toThrow(/500/)
    expect(await connection.getSlot()).toBeGreaterThan(0)
    await set({ mode: '429', times: 1, retryAfterSeconds: 0 })
    const limited = await fetch(solana.rpcUrl, { method: 'POST', body: '{}' })
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('0')
    expect((await set({ mode: 'off' })).fault).toEqual({ mode: 'off' })
  })

  it('stops both ports', async () => {
    const started = await startSolana()
    const socket = new WebSocket(started.wsUrl)
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
    await started.close()
    await started.close()
    expect(await listening(started.port)).toBe(false)
    expect(await listening(started.port + 1)).toBe(false)
  })
})
