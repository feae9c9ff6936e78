import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { Duplex } from 'node:stream'
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMint2Instruction,
  createMintToInstruction,
  getAssociatedTokenAddressSync,
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token'
import { Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import { type WebSocket, WebSocketServer } from 'ws'
import type { FaultSwitch } from '../shared/fault.ts'
import { errorJson, parseJson, type SandboxService, startService } from '../shared/http.ts'
import {
  type AllowedOrigins,
  defaultAllowedOrigins,
  refuseForeignHost,
  refuseForeignUpgrade,
} from '../shared/origins.ts'
import { Ledger } from './ledger.ts'
import { answerJsonRpc, callMethod, RpcError } from './rpc.ts'
import { seedBytes } from './svm.ts'

/** How many dev keypairs are funded at start. */
export const SOLANA_DEV_ACCOUNT_COUNT = 10
/** What every dev keypair holds after start: 100 SOL and 10,000 USDC. */
export const SOLANA_DEV_FUNDING = {
  lamports: 100n * BigInt(LAMPORTS_PER_SOL),
  usdc: 10_000n * 10n ** 6n,
} as const
/** The sandbox USDC mint. */
export const SOLANA_USDC = { name: 'Sandbox USD Coin', symbol: 'USDC', decimals: 6 } as const

/** A dev keypair: base58 public key and the 64-byte secret key web3.js' `Keypair.fromSecretKey` takes. */
export interface SolanaAccount {
  publicKey: string
  secretKey: Uint8Array
}

/** A running sandbox Solana chain: litesvm behind the JSON-RPC and WebSocket subset web3.js uses. */
export interface Solana {
  /** `http://127.0.0.1:PORT`: JSON-RPC (POST /), plus `GET /__health` and `POST /__fault`. */
  rpcUrl: string
  /** `ws://127.0.0.1:PORT+1`, where a validator (and web3.js' default) puts it; the RPC port upgrades too. */
  wsUrl: string
  port: number
  /** Deterministic dev keypairs (the same on every start), each with 100 SOL and 10,000 USDC. */
  accounts: SolanaAccount[]
  /** The USDC mint's address (6 decimals). */
  mints: { usdc: string }
  /** The USDC mint authority (mints more, e.g. for a faucet). */
  mintAuthority: SolanaAccount
  /** The shared fault switch: applies to RPC requests and WebSocket upgrades alike. */
  fault: FaultSwitch
  ledger: Ledger
  /** Stops both ports and closes every socket. Safe to call twice. */
  close(): Promise<void>
}

export interface StartSolanaOptions {
  /** The RPC port (the WebSocket takes the next one); 0 (the default) picks a free pair. */
  port?: number
  /** Page origins that get CORS and may open the WebSocket. Default: loopback pages. */
  origins?: AllowedOrigins
  /** More owners (base58) funded as the dev keys are (SOL and USDC), e.g. the sandbox Solana wallet's. */
  fund?: readonly string[]
}

const keypair = (seed: string) => Keypair.fromSeed(seedBytes(seed))
const asAccount = (pair: Keypair): SolanaAccount => ({
  publicKey: pair.publicKey.toBase58(),
  secretKey: pair.secretKey,
})
/** Tries to find a free port pair (RPC, RPC+1) before giving up. */
const PORT_PAIR_TRIES = 20

/**
 * Starts the sandbox Solana chain on 127.0.0.1: an in-process SVM with funded dev keypairs and a USDC mint
 * (every dev key holds 10,000 USDC in its associated token account, minted by real transactions at start),
 * served as JSON-RPC on `rpcUrl` and subscriptions on `wsUrl`.
 *
 * @example
 * const solana = await startSolana()
 * const connection = new Connection(solana.rpcUrl, 'confirmed')
 * await connection.getBalance(new PublicKey(solana.accounts[0].publicKey))
 * await solana.close()
 */
export async function startSolana(options: StartSolanaOptions = {}): Promise<Solana> {
  const ledger = new Ledger()
  const { accounts, mint, authority } = seed(
    ledger,
    (options.fund ?? []).map((owner) => new PublicKey(owner)),
  )
  const origins = options.origins ?? defaultAllowedOrigins()

  const wss = new WebSocketServer({ noServer: true, maxPayload: 1_000_000 })
  const stalled = new Set<Duplex>()
  let service: SandboxService | undefined
  let wsServer: Server | undefined
  for (let attempt = 0; ; attempt++) {
    const candidate = await startService({
      name: 'solana',
      port: options.port ?? 0,
      origins,
      // web3.js' Connection sends `solana-client: js/<version>` on every request; a validator's RPC allows it.
      allowHeaders: ['solana-client'],
      handler: (req) => {
        if (req.url.pathname !== '/') return undefined
        if (req.method !== 'POST') return errorJson(405, 'JSON-RPC takes POST')
        const body = parseJson(req.body)
        if (body === undefined) {
          return { json: { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null } }
        }
        const answer = answerJsonRpc(body, (method, params) => callMethod(ledger, method, params))
        return answer === undefined ? { status: 204 } : { json: answer }
      },
      onClose: () => {
        for (const client of wss.clients) client.terminate()
        for (const socket of stalled) socket.destroy()
      },
    })
    const next = createServer((req, res) => {
      if (!refuseForeignHost(req, res)) res.writeHead(426).end()
    })
    const bound = await new Promise<boolean>((resolve) => {
      next.once('error', () => resolve(false))
      next.listen(candidate.port + 1, '127.0.0.1', () => resolve(true))
    })
    if (bound) {
      service = candidate
      wsServer = next
      break
    }
    await candidate.close()
    if (options.port !== undefined && options.port !== 0) {
      throw new Error(`Solana WebSocket port ${options.port + 1} is in use`)
    }
    if (attempt >= PORT_PAIR_TRIES) throw new Error('No free port pair for the Solana RPC and WebSocket')
  }
  const { fault } = service

  const upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (refuseForeignUpgrade(req, socket, origins)) return
    const applied =
      fault.current.mode === 'hostile'
        ? undefined
        : fault.take(new URL(req.url ?? '/', 'http://127.0.0.1').pathname)
    if (applied?.mode === 'stall') {
      stalled.add(socket)
      socket.on('close', () => stalled.delete(socket))
      return
    }
    if (applied?.mode === 'drop') return void socket.destroy()
    if (applied) {
      const status = applied.mode === '429' ? '429 Too Many Requests' : '500 Internal Server Error'
      const retry = applied.mode === '429' ? `Retry-After: ${applied.retryAfterSeconds ?? 1}\r\n` : ''
      return void socket.end(`HTTP/1.1 ${status}\r\n${retry}Content-Length: 0\r\nConnection: close\r\n\r\n`)
    }
    wss.handleUpgrade(req, socket, head, (ws) => subscriptions(ws, ledger))
  }
  wsServer.on('upgrade', upgrade)
  service.server.on('upgrade', upgrade)

  let closing: Promise<void> | undefined
  const ws = wsServer
  const rpc = service
  return {
    rpcUrl: rpc.origin,
    wsUrl: `ws://127.0.0.1:${rpc.port + 1}`,
    port: rpc.port,
    accounts: accounts.map(asAccount),
    mints: { usdc: mint.toBase58() },
    mintAuthority: asAccount(authority),
    fault,
    ledger,
    close() {
      closing ??= (async () => {
        await rpc.close()
        ws.closeAllConnections()
        await new Promise<void>((resolve) => ws.close(() => resolve()))
        await new Promise<void>((resolve) => wss.close(() => resolve()))
      })()
      return closing
    },
  }
}

/** Funds the dev keys and creates the USDC mint and their token accounts, by transactions through the SVM. */
function seed(ledger: Ledger, others: PublicKey[]) {
  const accounts = Array.from({ length: SOLANA_DEV_ACCOUNT_COUNT }, (_, i) =>
    keypair(`walletstate solana dev account ${i}`),
  )
  const owners = [...accounts.map((account) => account.publicKey), ...others]
  const authority = keypair('walletstate solana usdc mint authority')
  const mintKeypair = keypair('walletstate solana usdc mint')
  const mint = mintKeypair.publicKey
  for (const owner of owners) ledger.airdrop(owner.toBytes(), SOLANA_DEV_FUNDING.lamports)
  ledger.airdrop(authority.publicKey.toBytes(), 1_000n * BigInt(LAMPORTS_PER_SOL))

  const run = (tx: Transaction, signers: Keypair[]) => {
    tx.recentBlockhash = ledger.latestBlockhash().blockhash
    tx.feePayer = authority.publicKey
    tx.sign(...signers)
    const outcome = ledger.send(tx.serialize())
    if (outcome.err !== null) {
      throw new Error(
        `Solana sandbox setup failed: ${JSON.stringify(outcome.err)}\n${outcome.logs.join('\n')}`,
      )
    }
  }
  run(
    new Transaction().add(
      SystemProgram.createAccount({
        fromPubkey: authority.publicKey,
        newAccountPubkey: mint,
        lamports: ledger.minimumBalanceForRentExemption(MINT_SIZE),
        space: MINT_SIZE,
        programId: TOKEN_PROGRAM_ID,
      }),
      createInitializeMint2Instruction(mint, SOLANA_USDC.decimals, authority.publicKey, null),
    ),
    [authority, mintKeypair],
  )
  for (const owner of owners) {
    const ata = getAssociatedTokenAddressSync(mint, owner)
    run(
      new Transaction().add(
        createAssociatedTokenAccountIdempotentInstruction(
          authority.publicKey,
          ata,
          owner,
          mint,
          TOKEN_PROGRAM_ID,
          ASSOCIATED_TOKEN_PROGRAM_ID,
        ),
        createMintToInstruction(mint, ata, authority.publicKey, SOLANA_DEV_FUNDING.usdc),
      ),
      [authority],
    )
  }
  return { accounts, mint, authority }
}

/**
 * One WebSocket client's subscriptions, as a validator's PubSub answers them: `signatureSubscribe` notifies
 * once when the signature lands (at once if it already has), `slotSubscribe` on every new slot,
 * `accountSubscribe` when the account changes. Each `*Unsubscribe` answers whether the id was live.
 */
function subscriptions(ws: WebSocket, ledger: Ledger): void {
  let nextId = 0
  const live = new Map<number, () => void>()
  const notify = (method: string, subscription: number, result: unknown) => {
    if (ws.readyState === ws.OPEN)
      ws.send(JSON.stringify({ jsonrpc: '2.0', method, params: { result, subscription } }))
  }
  const watch = (id: number, onSlot: (slot: number) => boolean | undefined) => {
    const off = ledger.onSlot((slot) => {
      if (onSlot(slot)) stop(id)
    })
    live.set(id, off)
  }
  const stop = (id: number) => {
    const off = live.get(id)
    live.delete(id)
    off?.()
    return off !== undefined
  }
  ws.on('close', () => {
    for (const id of [...live.keys()]) stop(id)
  })

  const methods: Record<string, (params: unknown[]) => unknown> = {
    signatureSubscribe: ([signature]) => {
      if (typeof signature !== 'string') throw new RpcError(-32602, 'Invalid params: signature')
      const id = nextId++
      const check = () => {
        const status = ledger.status(signature)
        if (!status) return false
        notify('signatureNotification', id, { context: { slot: status.slot }, value: { err: status.err } })
        return true
      }
      // The notification must follow the subscription's answer: queue the check behind it.
      queueMicrotask(() => {
        if (live.has(id) && check()) stop(id)
      })
      watch(id, check)
      return id
    },
    slotSubscribe: () => {
      const id = nextId++
      watch(id, (slot) => {
        notify('slotNotification', id, { parent: slot - 1, root: slot - 1, slot })
        return false
      })
      return id
    },
    accountSubscribe: ([pubkey, config]) => {
      let last = JSON.stringify(read(pubkey, config))
      const id = nextId++
      watch(id, (slot) => {
        const now = JSON.stringify(read(pubkey, config))
        if (now !== last) {
          last = now
          notify('accountNotification', id, { context: { slot }, value: JSON.parse(now) })
        }
        return false
      })
      return id
    },
    ping: () => 'pong',
  }
  const read = (pubkey: unknown, config: unknown) =>
    (
      callMethod(ledger, 'getAccountInfo', config === undefined ? [pubkey] : [pubkey, config]) as {
        value: unknown
      }
    ).value
  for (const name of ['signature', 'slot', 'account']) {
    methods[`${name}Unsubscribe`] = ([id]) => {
      if (typeof id !== 'number') throw new RpcError(-32602, 'Invalid params: subscription id')
      return stop(id)
    }
  }

  ws.on('message', (data) => {
    const body = parseJson(data.toString())
    const answer =
      body === undefined
        ? { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null }
        : answerJsonRpc(body, (method, params) => {
            const handler = methods[method]
            if (!handler) throw new RpcError(-32601, `Method not found: ${method}`)
            if (params !== undefined && !Array.isArray(params)) throw new RpcError(-32602, 'Invalid params')
            return handler(params ?? [])
          })
    if (answer !== undefined) ws.send(JSON.stringify(answer))
  })
}
