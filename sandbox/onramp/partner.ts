import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token'
import {
  Connection,
  Keypair,
  PublicKey,
  SystemProgram,
  type TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js'
import * as v from 'valibot'
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  type Chain as ViemChain,
} from 'viem'
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { createRouter, parseBody, type Route } from '../api/common.ts'
import type { SandboxDb } from '../api/db.ts'
import { abis, DEV_MNEMONIC } from '../chain/chain.ts'
import { errorJson, type SandboxResponse, type SandboxService, startService } from '../shared/http.ts'
import type { AllowedOrigins } from '../shared/origins.ts'
import { seedBytes } from '../solana/svm.ts'
import {
  claimForDelivery,
  confirmDelivery,
  failOrder,
  getOrder,
  markOpened,
  type OnrampOrder,
  ORDER_ID,
  recordDeliveryHash,
  releaseClaim,
} from './orders.ts'
import { orderPage, PARTNER_PAGE_HEADERS, PARTNER_SCRIPT, PARTNER_STYLE, partnerMessagePage } from './page.ts'
import { providerOf } from './pricing.ts'

/**
 * The sandbox's stand-in for the onramp providers' checkout (issue 19): its own HTTP server on its own origin.
 * The Data API's URL generator sends the buyer to `/order/{id}`; the page shows the order and a fake card or bank
 * account. "Complete purchase" has this server send the purchase from its funded account on the sandbox chain
 * (USDC `transfer`, or native ETH), wait for the receipt and mark the order `confirmed` with the hash; an order
 * on the sandbox Solana chain is sent from its funded Solana key (SOL by a system transfer, the sandbox USDC by an
 * SPL `transferChecked`, the buyer's associated token account created in the same transaction when missing) and
 * confirmed with the transaction's signature; "Complete
 * later" takes the payment but settles it a few seconds later (`laterMs`): the order is paid and pending
 * (`delivering`, listed as pending) when the window closes, then delivered and confirmed as above; "Fail
 * purchase" marks it `failed`; "Cancel" only closes the window (the order stays `pending`, never paid).
 *
 * - `GET /order/{id}`: the page (400 for an id of the wrong shape, 404 for an unknown order).
 * - `GET /api/orders/{id}`: the order as JSON ({@link PartnerOrderView}).
 * - `POST /api/orders/{id}/complete` `{ paymentMethod: 'card', cardNumber, expiry, cvc, name }` or
 *   `{ paymentMethod: 'ach_bank_account', accountHolder, routingNumber, accountNumber }`: delivers; 409 when the
 *   order is not pending (a second completion), 502 when the transfer could not be made.
 * - `POST /api/orders/{id}/later`, the same body: takes the payment now (202, the order `delivering`) and delivers
 *   it after `laterMs`; 409 when the order is not pending.
 * - `POST /api/orders/{id}/fail`: fails a pending order; 409 otherwise.
 * `/api/` is for this origin's own page and Node only (other pages' requests are refused with 403).
 */

/** Which key of the dev mnemonic the partner delivers from: the first one anvil does not fund, so nobody else uses it. */
export const PARTNER_ACCOUNT_INDEX = 10

/** What the partner account holds after start (topped up to it): enough for any number of test purchases. */
export const PARTNER_FUNDING = { usdc: 1_000_000n * 10n ** 6n, eth: 1_000n * 10n ** 18n } as const

/** The partner's fixed Solana key (public, for the local sandbox only, as the dev keys are). */
export function partnerSolanaKeypair(): Keypair {
  return Keypair.fromSeed(seedBytes('walletstate onramp partner solana'))
}

/** How long a delivery may take to be mined. */
const RECEIPT_TIMEOUT_MS = 60_000

/** How long a "Complete later" payment stays pending before the partner delivers it: a few seconds. */
export const PARTNER_LATER_MS = 5_000

export interface OnrampPartnerOptions {
  /** The sandbox chain (`startChain()`): anvil's own RPC (cheat codes), its accounts (the first owns USDC), USDC. */
  chain: {
    rpcUrl: string
    viemChain: ViemChain
    accounts: ReadonlyArray<{ address: Address; privateKey: Hex }>
    contracts: { usdc: Address }
  }
  /** The database the Data API keeps orders in (shared). */
  db: SandboxDb
  /** 0 (the default) binds a free port. */
  port?: number
  /** Page origins whose requests get CORS headers (the pages of `/order/`); `/api/` is this origin's own. */
  origins?: AllowedOrigins
  /** The key the partner delivers from; default: dev mnemonic key {@link PARTNER_ACCOUNT_INDEX}. */
  privateKey?: Hex
  /** What the account is topped up to at start; default {@link PARTNER_FUNDING}. */
  funding?: { usdc: bigint; eth: bigint }
  /** How long a "Complete later" payment stays pending before it is delivered; default {@link PARTNER_LATER_MS}. */
  laterMs?: number
  /**
   * The sandbox Solana chain, for orders delivered there: its RPC, its USDC mint and the partner's key there
   * (default {@link partnerSolanaKeypair}), funded with SOL and USDC by the chain's start (`startSolana({ fund })`).
   * Without it a Solana order fails to deliver (502).
   */
  solana?: { rpcUrl: string; usdcMint: string; keypair?: Keypair }
}

export interface OnrampPartner extends SandboxService {
  /** The account purchases are delivered from. */
  address: Address
  /** The Solana key purchases on Solana are delivered from (base58), when the partner has the chain. */
  solanaAddress: string | undefined
  /** The page of an order. */
  orderUrl(id: string): string
}

/** `GET /api/orders/{id}` and the answers of complete and fail. */
export interface PartnerOrderView {
  id: string
  provider: string
  providerName: string
  status: OnrampOrder['status']
  /** 0x on eip155, base58 on Solana. */
  address: string
  network: string
  purchaseCurrency: string
  purchaseAmount: string
  /** The token delivered (an SPL mint on Solana), `null` for the native currency. */
  tokenAddress: string | null
  paymentCurrency: string
  paymentMethod: string
  paymentTotal: string
  paymentSubtotal: string
  fee: string
  /** The delivery transaction, once sent. */
  hash: string | null
}

const view = (order: OnrampOrder): PartnerOrderView => ({
  id: order.id,
  provider: order.provider,
  providerName: providerOf(order.provider).name,
  status: order.status,
  address: order.address,
  network: order.network,
  purchaseCurrency: order.purchaseCurrency,
  purchaseAmount: order.purchaseAmount,
  tokenAddress: order.tokenAddress,
  paymentCurrency: order.paymentCurrency,
  paymentMethod: order.paymentMethod,
  paymentTotal: order.paymentTotal,
  paymentSubtotal: order.paymentSubtotal,
  fee: order.fee,
  hash: order.txHash,
})

/** Luhn's check digit, as card numbers carry it. */
function luhn(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}

const HolderSchema = (name: string) =>
  v.pipe(
    v.string(`${name} must be a string`),
    v.trim(),
    v.minLength(1, `${name} must not be empty`),
    v.maxLength(100, `${name} is too long`),
  )

/** `POST /api/orders/{id}/complete`: the fake payment details, checked for shape only. */
export const CompleteBodySchema = v.variant(
  'paymentMethod',
  [
    v.object({
      paymentMethod: v.literal('card'),
      cardNumber: v.pipe(
        v.string('cardNumber must be a string'),
        v.maxLength(40, 'cardNumber is too long'),
        v.transform((value) => value.replace(/[\s-]/g, '')),
        v.regex(/^\d{12,19}$/, 'cardNumber must be 12 to 19 digits'),
        v.check(luhn, 'cardNumber is not a valid card number (check digit)'),
      ),
      expiry: v.pipe(
        v.string('expiry must be a string'),
        v.regex(/^(0[1-9]|1[0-2])\/\d{2}$/, 'expiry must be MM/YY'),
      ),
      cvc: v.pipe(v.string('cvc must be a string'), v.regex(/^\d{3,4}$/, 'cvc must be 3 or 4 digits')),
      name: HolderSchema('name'),
    }),
    v.object({
      paymentMethod: v.literal('ach_bank_account'),
      accountHolder: HolderSchema('accountHolder'),
      routingNumber: v.pipe(
        v.string('routingNumber must be a string'),
        v.regex(/^\d{9}$/, 'routingNumber must be 9 digits'),
      ),
      accountNumber: v.pipe(
        v.string('accountNumber must be a string'),
        v.regex(/^\d{4,17}$/, 'accountNumber must be 4 to 17 digits'),
      ),
    }),
  ],
  'paymentMethod must be card or ach_bank_account',
)

/** Why an order that is not pending cannot be completed or failed. */
function notPending(order: OnrampOrder): SandboxResponse {
  const reason =
    order.status === 'confirmed'
      ? 'Order already completed'
      : order.status === 'delivering'
        ? 'Order is being completed'
        : 'Order already failed'
  return errorJson(409, reason, { order: view(order) })
}

const html = (status: number, body: string): SandboxResponse => ({
  status,
  headers: PARTNER_PAGE_HEADERS,
  body,
})

const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]!

/**
 * Starts the partner page: tops its account up (ETH with anvil's `setBalance`, USDC minted by the token's owner,
 * the chain's first account) and serves the pages.
 *
 * @example
 * const partner = await startOnrampPartner({ chain, db })
 * const api = await startDataApi({ ..., db, onrampPartner: partner })
 */
export async function startOnrampPartner(options: OnrampPartnerOptions): Promise<OnrampPartner> {
  const { chain, db } = options
  const account = options.privateKey
    ? privateKeyToAccount(options.privateKey)
    : mnemonicToAccount(DEV_MNEMONIC, { addressIndex: PARTNER_ACCOUNT_INDEX })
  const transport = http(chain.rpcUrl, { retryCount: 0, timeout: 30_000 })
  const reader = createPublicClient({ chain: chain.viemChain, transport, pollingInterval: 50 })
  const wallet = createWalletClient({ account, chain: chain.viemChain, transport })
  await fund(options, account.address, reader)

  // One delivery at a time: each reads the account's next nonce after the previous one was mined.
  let queue: Promise<unknown> = Promise.resolve()
  const serially = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task)
    queue = run.catch(() => undefined)
    return run
  }

  const svm = options.solana && {
    connection: new Connection(options.solana.rpcUrl, 'confirmed'),
    keypair: options.solana.keypair ?? partnerSolanaKeypair(),
    usdcMint: new PublicKey(options.solana.usdcMint),
  }

  /**
   * Sends a Solana order: SOL by a system transfer, an SPL token by `transferChecked` after creating the buyer's
   * associated token account when it is missing (idempotent: no failure when it exists). Answers the signature and
   * what confirms it.
   */
  async function sendOnSolana(order: OnrampOrder) {
    if (!svm) throw new Error('the partner has no Solana chain')
    const payer = svm.keypair.publicKey
    const buyer = new PublicKey(order.address)
    let instructions: TransactionInstruction[]
    if (order.tokenAddress) {
      const mint = new PublicKey(order.tokenAddress)
      if (!mint.equals(svm.usdcMint)) throw new Error(`the partner does not hold ${order.tokenAddress}`)
      const to = getAssociatedTokenAddressSync(mint, buyer)
      instructions = [
        createAssociatedTokenAccountIdempotentInstruction(payer, to, buyer, mint),
        createTransferCheckedInstruction(
          getAssociatedTokenAddressSync(mint, payer),
          mint,
          to,
          payer,
          order.purchaseBase,
          order.decimals,
        ),
      ]
    } else {
      instructions = [
        SystemProgram.transfer({ fromPubkey: payer, toPubkey: buyer, lamports: order.purchaseBase }),
      ]
    }
    const { blockhash, lastValidBlockHeight } = await svm.connection.getLatestBlockhash('confirmed')
    const message = new TransactionMessage({ payerKey: payer, recentBlockhash: blockhash, instructions })
    const transaction = new VersionedTransaction(message.compileToV0Message())
    transaction.sign([svm.keypair])
    const signature = await svm.connection.sendRawTransaction(transaction.serialize())
    return { signature, blockhash, lastValidBlockHeight }
  }

  /** Delivers a Solana order and confirms it (or fails it) by its signature. */
  async function deliverOnSolana(order: OnrampOrder): Promise<SandboxResponse> {
    let sent: Awaited<ReturnType<typeof sendOnSolana>>
    try {
      sent = await serially(() => sendOnSolana(order))
    } catch (error) {
      await releaseClaim(db, order.id)
      return errorJson(502, `The partner could not send the purchase: ${firstLine(error)}`)
    }
    await recordDeliveryHash(db, order.id, sent.signature)
    try {
      const outcome = await svm!.connection.confirmTransaction(sent, 'confirmed')
      if (outcome.value.err) {
        const failed = await failOrder(db, order.id, 'delivering', 'The delivery transaction failed')
        return errorJson(502, 'The delivery transaction failed', failed ? { order: view(failed) } : {})
      }
    } catch (error) {
      const failed = await failOrder(db, order.id, 'delivering', `Not confirmed: ${firstLine(error)}`)
      return errorJson(
        502,
        `The delivery was not confirmed: ${firstLine(error)}`,
        failed ? { order: view(failed) } : {},
      )
    }
    const confirmed = await confirmDelivery(db, order.id, sent.signature)
    if (!confirmed) return errorJson(500, 'The order changed while it was delivered')
    return { json: view(confirmed) }
  }

  async function deliver(order: OnrampOrder): Promise<SandboxResponse> {
    if (order.chainId.startsWith('solana:')) return deliverOnSolana(order)
    const token = order.tokenAddress as Address | null
    const to = order.address as Address
    let hash: Hex
    try {
      hash = await serially(() =>
        token
          ? wallet.writeContract({
              address: token,
              abi: erc20Abi,
              functionName: 'transfer',
              args: [to, order.purchaseBase],
            })
          : wallet.sendTransaction({ to, value: order.purchaseBase }),
      )
    } catch (error) {
      // Nothing was sent: the order is pending again and may be completed later.
      await releaseClaim(db, order.id)
      return errorJson(502, `The partner could not send the purchase: ${firstLine(error)}`)
    }
    await recordDeliveryHash(db, order.id, hash)
    try {
      const receipt = await reader.waitForTransactionReceipt({ hash, timeout: RECEIPT_TIMEOUT_MS })
      if (receipt.status !== 'success') {
        const failed = await failOrder(db, order.id, 'delivering', 'The delivery transaction reverted')
        return errorJson(502, 'The delivery transaction reverted', failed ? { order: view(failed) } : {})
      }
    } catch (error) {
      const failed = await failOrder(db, order.id, 'delivering', `No receipt: ${firstLine(error)}`)
      return errorJson(
        502,
        `The delivery was not mined: ${firstLine(error)}`,
        failed ? { order: view(failed) } : {},
      )
    }
    const confirmed = await confirmDelivery(db, order.id, hash)
    if (!confirmed) return errorJson(500, 'The order changed while it was delivered')
    return { json: view(confirmed) }
  }

  // "Complete later" payments waiting to be delivered: their timers, and the deliveries under way.
  const later = new Map<string, ReturnType<typeof setTimeout>>()
  const laterDeliveries = new Set<Promise<unknown>>()
  const laterMs = options.laterMs ?? PARTNER_LATER_MS
  function deliverLater(order: OnrampOrder): void {
    const timer = setTimeout(() => {
      later.delete(order.id)
      const delivery = deliver(order).catch(() => undefined)
      laterDeliveries.add(delivery)
      void delivery.finally(() => laterDeliveries.delete(delivery))
    }, laterMs)
    later.set(order.id, timer)
  }

  /** The order of an `/api/` path, or the answer to send instead. */
  const orderOf = async (id: string): Promise<OnrampOrder | SandboxResponse> => {
    if (!ORDER_ID.test(id)) return errorJson(400, 'Invalid order id: must be 32 hex characters')
    return (await getOrder(db, id)) ?? errorJson(404, 'Order not found')
  }
  const isOrder = (value: OnrampOrder | SandboxResponse): value is OnrampOrder => 'provider' in value
  /**
   * The order paid with the method it was opened for, and claimed for delivery (no second completion); else the
   * answer that says why not.
   */
  const claimPaid = async (id: string, body: string): Promise<OnrampOrder | SandboxResponse> => {
    const order = await orderOf(id)
    if (!isOrder(order)) return order
    const parsed = parseBody(body, CompleteBodySchema, 'payment')
    if ('error' in parsed) return parsed.error
    if (parsed.value.paymentMethod !== order.paymentMethod) {
      return errorJson(400, `This order is paid by ${order.paymentMethod}, not ${parsed.value.paymentMethod}`)
    }
    return (await claimForDelivery(db, id)) ?? notPending((await getOrder(db, id)) ?? order)
  }

  let origin = ''
  const routes: Route[] = [
    {
      method: 'GET',
      pattern: /^\/$/,
      sdkParams: false,
      handle: () =>
        html(
          200,
          partnerMessagePage(
            'Walletstate onramp partner (sandbox)',
            'Orders open here from the wallet kit: /order/{id}.',
          ),
        ),
    },
    {
      method: 'GET',
      pattern: /^\/partner\.js$/,
      sdkParams: false,
      handle: () => ({
        headers: {
          'Content-Type': 'text/javascript; charset=utf-8',
          'Cache-Control': 'no-cache',
          'X-Content-Type-Options': 'nosniff',
        },
        body: PARTNER_SCRIPT,
      }),
    },
    {
      method: 'GET',
      pattern: /^\/partner\.css$/,
      sdkParams: false,
      handle: () => ({
        headers: {
          'Content-Type': 'text/css; charset=utf-8',
          'Cache-Control': 'no-cache',
          'X-Content-Type-Options': 'nosniff',
        },
        body: PARTNER_STYLE,
      }),
    },
    {
      method: 'GET',
      pattern: /^\/order\/([^/]*)$/,
      sdkParams: false,
      handle: async ({ params: [id = ''] }) => {
        if (!ORDER_ID.test(id)) {
          return html(400, partnerMessagePage('Invalid order', 'This link has no valid order id.', 'error'))
        }
        const order = await getOrder(db, id)
        if (!order) return html(404, partnerMessagePage('Order not found', 'No order has this id.', 'error'))
        await markOpened(db, id)
        return html(200, orderPage(order))
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/orders\/([^/]*)$/,
      sdkParams: false,
      handle: async ({ params: [id = ''] }) => {
        const order = await orderOf(id)
        return isOrder(order) ? { json: view(order) } : order
      },
    },
    {
      method: 'POST',
      pattern: /^\/api\/orders\/([^/]*)\/complete$/,
      sdkParams: false,
      handle: async ({ req, params: [id = ''] }) => {
        const claimed = await claimPaid(id, req.body)
        return isOrder(claimed) ? deliver(claimed) : claimed
      },
    },
    {
      method: 'POST',
      pattern: /^\/api\/orders\/([^/]*)\/later$/,
      sdkParams: false,
      handle: async ({ req, params: [id = ''] }) => {
        // Paid now, settled later: the order is claimed (no second completion) and stays pending meanwhile.
        const claimed = await claimPaid(id, req.body)
        if (!isOrder(claimed)) return claimed
        deliverLater(claimed)
        return { status: 202, json: view(claimed) }
      },
    },
    {
      method: 'POST',
      pattern: /^\/api\/orders\/([^/]*)\/fail$/,
      sdkParams: false,
      handle: async ({ params: [id = ''] }) => {
        const order = await orderOf(id)
        if (!isOrder(order)) return order
        const failed = await failOrder(db, id, 'pending', 'Failed on the partner page')
        if (!failed) return notPending((await getOrder(db, id)) ?? order)
        return { json: view(failed) }
      },
    },
  ]

  const service = await startService({
    name: 'onramp-partner',
    port: options.port ?? 0,
    handler: createRouter(routes),
    privatePaths: ['/api'],
    ...(options.origins ? { origins: options.origins } : {}),
    onClose: async () => {
      // Payments still waiting are not delivered: they go back to pending (nothing was sent).
      const waiting = [...later.entries()]
      later.clear()
      for (const [, timer] of waiting) clearTimeout(timer)
      await Promise.all(waiting.map(([id]) => releaseClaim(db, id).catch(() => undefined)))
      // A delivery under way finishes (or fails) before the database it writes to may close.
      await Promise.all([...laterDeliveries])
      await queue
    },
  })
  origin = service.origin
  return Object.assign(service, {
    address: account.address,
    solanaAddress: svm?.keypair.publicKey.toBase58(),
    orderUrl: (id: string) => `${origin}/order/${id}`,
  })
}

/** Tops the partner account up to its funding: ETH by anvil's `setBalance`, USDC minted by the token's owner. */
async function fund(
  options: OnrampPartnerOptions,
  partner: Address,
  reader: ReturnType<typeof createPublicClient>,
): Promise<void> {
  const { chain } = options
  const funding = options.funding ?? PARTNER_FUNDING
  const owner = chain.accounts[0]
  if (!owner) throw new Error('startOnrampPartner: the chain has no accounts (the first owns USDC)')
  const eth = await reader.getBalance({ address: partner })
  if (eth < funding.eth) {
    const test = createTestClient({ mode: 'anvil', chain: chain.viemChain, transport: http(chain.rpcUrl) })
    await test.setBalance({ address: partner, value: funding.eth })
  }
  const usdc = await reader.readContract({
    address: chain.contracts.usdc,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [partner],
  })
  if (usdc < funding.usdc) {
    const minter = createWalletClient({
      account: privateKeyToAccount(owner.privateKey),
      chain: chain.viemChain,
      transport: http(chain.rpcUrl, { retryCount: 0, timeout: 30_000 }),
    })
    const hash = await minter.writeContract({
      address: chain.contracts.usdc,
      abi: abis.erc20,
      functionName: 'mint',
      args: [partner, funding.usdc - usdc],
    })
    const receipt = await reader.waitForTransactionReceipt({ hash, timeout: RECEIPT_TIMEOUT_MS })
    if (receipt.status !== 'success') throw new Error(`startOnrampPartner: minting USDC reverted (${hash})`)
  }
}
