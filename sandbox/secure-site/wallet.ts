import { readFileSync } from 'node:fs'
import * as v from 'valibot'
import {
  type Address,
  BaseError,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  erc20Abi,
  formatEther,
  getAddress,
  type Hex,
  hashTypedData,
  hexToString,
  http,
  isAddressEqual,
  type PublicClient,
  parseEventLogs,
  type SignableMessage,
  serializeErc6492Signature,
  type TypedDataDefinition,
  toHex,
} from 'viem'
import { type BundlerClient, createBundlerClient, type UserOperationReceipt } from 'viem/account-abstraction'
import { privateKeyToAccount, publicKeyToAddress } from 'viem/accounts'
import { CONTRACT_SOURCE, contractSourceHash } from './build-contract.ts'
import { smartAccountAbi, sourceHash } from './contracts/smart-account.gen.ts'
import { type AccountType, BATCH_CALL_RULE } from './shared.ts'
import {
  type AccountCall,
  CREATE2_DEPLOYER,
  smartAccountDeployData,
  toSandboxSmartAccount,
} from './smart-account.ts'

export {
  type AccountCall,
  CREATE2_DEPLOYER,
  SMART_ACCOUNT_ENTRY_POINT,
  SMART_ACCOUNT_FACTORY,
  SMART_ACCOUNT_FACTORY_SALT,
  SMART_ACCOUNT_SALT,
  smartAccountAddress,
  smartAccountDeployData,
  smartAccountFactoryArgs,
  smartAccountInitCode,
  toSandboxPermissionAccount,
  toSandboxSmartAccount,
} from './smart-account.ts'

/** Fails loudly when the contract source changed since `build-contract.ts` last ran. */
export function checkContractBuild(): void {
  if (contractSourceHash(readFileSync(CONTRACT_SOURCE, 'utf8')) !== sourceHash) {
    throw new Error(
      'sandbox/secure-site/contracts changed since the last build: run `npx tsx sandbox/secure-site/build-contract.ts`',
    )
  }
}

/** An error with the JSON-RPC / provider code the frame passes on to the kit. */
export class RpcFailure extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly status = 400,
  ) {
    super(message)
  }
}

/** The two addresses of an embedded wallet account and the key that controls both. */
export interface WalletAccount {
  eoa: Address
  smartAccount: Address
  preferredAccountType: AccountType
}

/** A signing request checked and ready to run: what it signs, with which account, and how to show it. */
export type PreparedSigning = {
  from: Address
  accountType: AccountType
  summary: {
    title: string
    from: Address
    accountType: AccountType
    details: Array<{ label: string; value: string }>
  }
} & (
  | { method: 'personal_sign'; message: SignableMessage }
  | { method: 'eth_signTypedData_v4'; typedData: TypedDataDefinition }
  | {
      method: 'eth_sendTransaction'
      tx: {
        to: Address | undefined
        value: bigint
        data: Hex
        gas: bigint | undefined
        nonce: bigint | undefined
      }
    }
  /** EIP-5792: the calls, in order, sent as one user operation of the smart account (atomic). */
  | { method: 'wallet_sendCalls'; calls: AccountCall[] }
  /** ERC-7715: one user operation of the smart account calling its own `grantPermission`. */
  | { method: 'wallet_grantPermissions'; grant: PermissionGrant; calls: AccountCall[] }
  /** ERC-7715: one user operation of the smart account calling its own `revokePermission`. */
  | { method: 'wallet_revokePermissions'; permissionId: Hex; calls: AccountCall[] }
)

/** An ERC-7715 permission as the smart account takes it: `signer` may transfer up to `limit` of `token` until `expiry`. */
export interface PermissionGrant {
  signer: Address
  token: Address
  limit: bigint
  /** Unix seconds. */
  expiry: number
}

/** The ERC-7715 permission type the smart account enforces, and its one policy. */
export const PERMISSION_TYPE = 'erc20-token-transfer'
const ALLOWANCE_POLICY = 'token-allowance'

export type SigningMethod = PreparedSigning['method']

/** EIP-5792's answer to `wallet_getCallsStatus` (v2.0.0): 100 pending, 200 confirmed, 500 reverted. */
export interface CallsStatus {
  version: '2.0.0'
  id: Hex
  chainId: Hex
  atomic: true
  status: 100 | 200 | 500
  receipts?: Array<{
    logs: Array<{ address: Address; data: Hex; topics: Hex[] }>
    status: '0x1' | '0x0'
    blockHash: Hex
    blockNumber: Hex
    gasUsed: Hex
    transactionHash: Hex
  }>
}

export interface FaucetOptions {
  /** A funded key (an anvil dev account) that pays new accounts. */
  privateKey: Hex
  /** Wei sent to each new account's EOA (its gas) and to its smart account; default 1 ETH. */
  wei?: bigint
  /** ERC-20 amounts sent the same way (both addresses). */
  tokens?: Array<{ address: Address; amount: bigint }>
}

const HexData = v.pipe(v.string(), v.regex(/^0x([0-9a-fA-F]{2})*$/, 'must be 0x-prefixed hex bytes'))
const Quantity = v.pipe(
  v.string(),
  v.regex(/^0x[0-9a-fA-F]{1,64}$/, 'must be a 0x-prefixed hex quantity'),
  v.transform((text) => BigInt(text)),
)
const AddressParam = v.pipe(
  v.string(),
  v.regex(/^0x[0-9a-fA-F]{40}$/, 'must be an address'),
  v.transform((text) => getAddress(text.toLowerCase())),
)
const TransactionSchema = v.object({
  from: v.optional(AddressParam),
  to: v.optional(v.nullable(AddressParam)),
  value: v.optional(Quantity),
  data: v.optional(HexData),
  input: v.optional(HexData),
  gas: v.optional(Quantity),
  nonce: v.optional(Quantity),
  chainId: v.optional(Quantity),
})
/** EIP-5792 `wallet_sendCalls` parameters; each call checked against SPEC §5's rule first. */
const BatchCallSchema = v.object({
  to: v.pipe(v.string(), v.regex(/^0x/, BATCH_CALL_RULE)),
  data: v.optional(v.pipe(v.string(), v.regex(/^0x/, BATCH_CALL_RULE))),
  value: v.optional(Quantity),
})
const SendCallsSchema = v.object({
  version: v.optional(v.pipe(v.string(), v.maxLength(20))),
  chainId: v.optional(Quantity),
  from: v.optional(AddressParam),
  calls: v.pipe(v.array(BatchCallSchema), v.minLength(1, 'wallet_sendCalls needs calls'), v.maxLength(20)),
  atomicRequired: v.optional(v.boolean()),
  capabilities: v.optional(v.record(v.string(), v.unknown())),
})
/** ERC-7715's signer: a key (its address, or its uncompressed secp256k1 public key), or an account's address. */
const PermissionSignerSchema = v.variant('type', [
  v.object({
    type: v.picklist(['key', 'account']),
    data: v.object({
      id: v.optional(v.string()),
      address: v.optional(v.string()),
      publicKey: v.optional(v.string()),
    }),
  }),
  v.object({
    type: v.literal('keys'),
    data: v.object({ ids: v.pipe(v.array(v.string()), v.maxLength(10)) }),
  }),
])
const PermissionSchema = v.object({
  type: v.union([
    v.pipe(v.string(), v.maxLength(100)),
    v.object({ custom: v.pipe(v.string(), v.maxLength(100)) }),
  ]),
  data: v.looseObject({
    address: v.optional(v.string()),
    allowance: v.optional(Quantity),
    limit: v.optional(Quantity),
  }),
  policies: v.optional(
    v.pipe(
      v.array(v.object({ type: v.union([v.string(), v.object({ custom: v.string() })]), data: v.unknown() })),
      v.maxLength(10),
    ),
    [],
  ),
  required: v.optional(v.boolean()),
})
/** ERC-7715 `wallet_grantPermissions` parameters (one request). */
const GrantPermissionsSchema = v.object({
  chainId: v.optional(Quantity),
  address: v.optional(AddressParam),
  expiry: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2 ** 48 - 1)),
  signer: PermissionSignerSchema,
  permissions: v.pipe(
    v.array(PermissionSchema),
    v.minLength(1, 'wallet_grantPermissions needs permissions'),
    v.maxLength(10),
  ),
})
/** ERC-7715 `wallet_revokePermissions` parameters: the context a grant answered. */
const RevokePermissionsSchema = v.object({
  permissionsContext: v.pipe(
    v.string(),
    v.regex(/^0x[0-9a-fA-F]{64}$/, 'a permissions context is a 32-byte hex'),
  ),
  address: v.optional(AddressParam),
})
/** A batch's id: the user operation's hash. */
const CallsIdSchema = v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{64}$/, 'a calls id is a 32-byte hex'))
const TypedDataSchema = v.object({
  types: v.record(
    v.pipe(v.string(), v.maxLength(100)),
    v.pipe(v.array(v.object({ name: v.string(), type: v.string() })), v.maxLength(100)),
  ),
  primaryType: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  domain: v.optional(
    v.object({
      name: v.optional(v.string()),
      version: v.optional(v.string()),
      chainId: v.optional(v.union([v.number(), v.string()])),
      verifyingContract: v.optional(AddressParam),
      salt: v.optional(HexData),
    }),
    {},
  ),
  message: v.record(v.string(), v.unknown()),
})

const PREVIEW_CHARS = 600

/**
 * The embedded wallet's chain side: reads forwarded to the RPC, signatures made with the account's key, and
 * transactions signed locally and broadcast as raw transactions (the RPC host holds no keys).
 */
export class ChainWallet {
  readonly chain: Chain
  readonly client: PublicClient
  readonly #rpcUrl: string
  readonly #faucet: FaucetOptions | undefined
  /** The ERC-4337 bundler the smart account's user operations go to; unset: the smart account cannot send. */
  readonly #bundler: BundlerClient | undefined
  /** One queue per sending address, so nonces of concurrent sends never collide. */
  readonly #queues = new Map<string, Promise<unknown>>()
  /** The batches sent here (EIP-5792 ids, the user operations' hashes), by id: whose they are. */
  readonly #batches = new Map<Hex, Address>()

  constructor(options: { rpcUrl: string; chainId: number; faucet?: FaucetOptions; bundlerUrl?: string }) {
    this.#rpcUrl = options.rpcUrl
    this.#faucet = options.faucet
    this.chain = defineChain({
      id: options.chainId,
      name: `Chain ${options.chainId}`,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [options.rpcUrl] } },
    })
    this.client = createPublicClient({
      chain: this.chain,
      transport: http(options.rpcUrl, { retryCount: 0, timeout: 30_000 }),
      pollingInterval: 100,
    })
    this.#bundler =
      options.bundlerUrl === undefined
        ? undefined
        : createBundlerClient({
            client: this.client,
            transport: http(options.bundlerUrl, { retryCount: 0, timeout: 30_000 }),
            pollingInterval: 100,
          })
  }

  async isDeployed(address: Address): Promise<boolean> {
    const code = await this.client.getCode({ address })
    return code !== undefined && code !== '0x'
  }

  /** Forwards one read-only call to the RPC and answers its result, or throws its JSON-RPC error. */
  forward(method: string, params: unknown[] | undefined): Promise<unknown> {
    return callJsonRpc(this.#rpcUrl, method, params)
  }

  /**
   * Checks a signing request against the account (the address must be one of its two) and the chain, and
   * describes it for the approval view. Throws {@link RpcFailure} with -32602 for malformed parameters.
   */
  prepare(method: SigningMethod, params: unknown[], account: WalletAccount): PreparedSigning {
    const own = (address: Address): AccountType => {
      if (isAddressEqual(address, account.eoa)) return 'eoa'
      if (isAddressEqual(address, account.smartAccount)) return 'smartAccount'
      throw new RpcFailure(`The address ${address} is not an account of this wallet`, 4100)
    }
    const preferred = account.preferredAccountType === 'eoa' ? account.eoa : account.smartAccount
    const summary = (title: string, from: Address, details: Array<{ label: string; value: string }>) => ({
      title,
      from,
      accountType: own(from),
      details,
    })

    if (method === 'personal_sign') {
      const [data, addressParam] = params
      const message = v.safeParse(v.pipe(v.string(), v.maxLength(100_000)), data)
      if (!message.success) throw invalidParams('personal_sign needs [message, address]')
      const from =
        addressParam === undefined ? preferred : parseAddress(addressParam, 'personal_sign address')
      const raw = /^0x([0-9a-fA-F]{2})*$/.test(message.output)
      const signable: SignableMessage = raw ? { raw: message.output as Hex } : message.output
      const shown = raw ? readableText(message.output as Hex) : message.output
      return {
        method,
        from,
        accountType: own(from),
        message: signable,
        summary: summary('Sign message', from, [{ label: 'Message', value: preview(shown) }]),
      }
    }

    if (method === 'eth_signTypedData_v4') {
      const [addressParam, data] = params
      const from = parseAddress(addressParam, 'eth_signTypedData_v4 address')
      let json: unknown = data
      if (typeof data === 'string') {
        try {
          json = JSON.parse(data)
        } catch {
          throw invalidParams('eth_signTypedData_v4: the typed data is not JSON')
        }
      }
      const parsed = v.safeParse(TypedDataSchema, json)
      if (!parsed.success) throw invalidParams(`eth_signTypedData_v4: ${v.summarize(parsed.issues)}`)
      const { domain, types, primaryType, message } = parsed.output
      let chainId: number | undefined
      if (domain.chainId !== undefined) {
        const raw = domain.chainId
        chainId =
          typeof raw === 'number'
            ? raw
            : /^(0x[0-9a-fA-F]{1,13}|\d{1,15})$/.test(raw)
              ? Number(raw)
              : Number.NaN
        if (Number.isNaN(chainId))
          throw invalidParams('eth_signTypedData_v4: domain.chainId is not a chain id')
        if (chainId !== this.chain.id) {
          throw invalidParams(
            `The typed data is for chain ${chainId}, the wallet is on chain ${this.chain.id}`,
          )
        }
      }
      const typedData = {
        domain: { ...domain, ...(chainId === undefined ? {} : { chainId }) },
        types,
        primaryType,
        message,
      } as unknown as TypedDataDefinition
      try {
        hashTypedData(typedData)
      } catch (error) {
        throw invalidParams(`eth_signTypedData_v4: ${describe(error)}`)
      }
      const domainText = [domain.name, domain.version && `v${domain.version}`].filter(Boolean).join(' ')
      return {
        method,
        from,
        accountType: own(from),
        typedData,
        summary: summary('Sign typed data', from, [
          ...(domainText ? [{ label: 'Domain', value: domainText }] : []),
          { label: 'Type', value: primaryType },
          { label: 'Message', value: preview(JSON.stringify(message, null, 2)) },
        ]),
      }
    }

    if (method === 'wallet_grantPermissions' || method === 'wallet_revokePermissions') {
      return this.#preparePermission(method, params, account, own)
    }

    if (method === 'wallet_sendCalls') {
      const batch = v.safeParse(SendCallsSchema, params[0])
      if (!batch.success) {
        const rule = batch.issues.some((issue) => issue.message === BATCH_CALL_RULE)
        throw invalidParams(rule ? BATCH_CALL_RULE : `wallet_sendCalls: ${v.summarize(batch.issues)}`)
      }
      const { chainId, calls } = batch.output
      if (chainId !== undefined && chainId !== BigInt(this.chain.id)) {
        throw invalidParams(`The calls are for chain ${chainId}, the wallet is on chain ${this.chain.id}`)
      }
      const from = batch.output.from ?? account.smartAccount
      if (own(from) !== 'smartAccount') {
        // EIP-5792's code for a batch the account cannot run atomically: only the smart account can.
        throw new RpcFailure('Batched calls are sent from the smart account: switch to it first', 5760)
      }
      const parsedCalls: AccountCall[] = []
      for (const call of calls) {
        const to = v.safeParse(AddressParam, call.to)
        const data = v.safeParse(v.optional(HexData), call.data)
        if (!to.success || !data.success) throw invalidParams(BATCH_CALL_RULE)
        parsedCalls.push({ to: to.output, value: call.value ?? 0n, data: (data.output ?? '0x') as Hex })
      }
      const details = parsedCalls.map((call, index) => ({
        label: `Call ${index + 1}`,
        value: [
          `To ${call.to}`,
          `${formatEther(call.value)} ETH`,
          ...(call.data === '0x' ? [] : [`Data ${preview(call.data)}`]),
        ].join('\n'),
      }))
      details.push({ label: 'Network', value: `Chain ${this.chain.id}` })
      return {
        method,
        from,
        accountType: 'smartAccount',
        calls: parsedCalls,
        summary: summary(`Send ${parsedCalls.length} calls in one batch`, from, details),
      }
    }

    const parsed = v.safeParse(TransactionSchema, params[0])
    if (!parsed.success) throw invalidParams(`eth_sendTransaction: ${v.summarize(parsed.issues)}`)
    const tx = parsed.output
    if (tx.chainId !== undefined && tx.chainId !== BigInt(this.chain.id)) {
      throw invalidParams(
        `The transaction is for chain ${tx.chainId}, the wallet is on chain ${this.chain.id}`,
      )
    }
    if (tx.data !== undefined && tx.input !== undefined && tx.data !== tx.input) {
      throw invalidParams('eth_sendTransaction: data and input differ')
    }
    const from = tx.from ?? preferred
    const data = (tx.data ?? tx.input ?? '0x') as Hex
    const to = tx.to ?? undefined
    const value = tx.value ?? 0n
    const details = [
      { label: 'To', value: to ?? 'New contract' },
      { label: 'Amount', value: `${formatEther(value)} ETH` },
      { label: 'Network', value: `Chain ${this.chain.id}` },
    ]
    if (data !== '0x') details.push({ label: 'Data', value: preview(data) })
    return {
      method,
      from,
      accountType: own(from),
      // The nonce the kit asks for is kept: a payment sent again after a time limit reuses its nonce, so at most
      // one of the two can be mined.
      tx: { to, value, data, gas: tx.gas, nonce: tx.nonce },
      summary: summary('Send transaction', from, details),
    }
  }

  /**
   * ERC-7715: a grant or a revoke, checked, as the smart account's call to itself. Only the smart account takes
   * permissions (the EOA cannot enforce them), and only the type it enforces: one `erc20-token-transfer` with its
   * allowance (in its data, or as a `token-allowance` policy).
   */
  #preparePermission(
    method: 'wallet_grantPermissions' | 'wallet_revokePermissions',
    params: unknown[],
    account: WalletAccount,
    own: (address: Address) => AccountType,
  ): PreparedSigning {
    const network = { label: 'Network', value: `Chain ${this.chain.id}` }
    const smartAccount = (address: Address | undefined): Address => {
      const from = address ?? (account.preferredAccountType === 'eoa' ? account.eoa : account.smartAccount)
      if (own(from) !== 'smartAccount') {
        throw new RpcFailure(
          'Permissions are granted by the smart account only: switch to your smart account first',
          4200,
        )
      }
      return from
    }
    const selfCall = (data: Hex, from: Address): AccountCall[] => [{ to: from, value: 0n, data }]
    if (method === 'wallet_revokePermissions') {
      const parsed = v.safeParse(RevokePermissionsSchema, params[0])
      if (!parsed.success) throw invalidParams(`wallet_revokePermissions: ${v.summarize(parsed.issues)}`)
      const from = smartAccount(parsed.output.address)
      const permissionId = parsed.output.permissionsContext.toLowerCase() as Hex
      return {
        method,
        from,
        accountType: 'smartAccount',
        permissionId,
        calls: selfCall(
          encodeFunctionData({
            abi: smartAccountAbi,
            functionName: 'revokePermission',
            args: [permissionId],
          }),
          from,
        ),
        summary: {
          title: 'Revoke a permission',
          from,
          accountType: 'smartAccount',
          details: [{ label: 'Permission', value: permissionId }, network],
        },
      }
    }
    const parsed = v.safeParse(GrantPermissionsSchema, params[0])
    if (!parsed.success) throw invalidParams(`wallet_grantPermissions: ${v.summarize(parsed.issues)}`)
    const request = parsed.output
    if (request.chainId !== undefined && request.chainId !== BigInt(this.chain.id)) {
      throw invalidParams(
        `The permissions are for chain ${request.chainId}, the wallet is on chain ${this.chain.id}`,
      )
    }
    const from = smartAccount(request.address)
    const [permission, ...more] = request.permissions
    const type = typeof permission!.type === 'string' ? permission!.type : permission!.type.custom
    if (more.length > 0 || type !== PERMISSION_TYPE) {
      throw new RpcFailure(
        `Unsupported permission type ${more.length > 0 ? '(more than one permission)' : type}: this wallet grants one ${PERMISSION_TYPE} permission`,
        -32602,
      )
    }
    const token = parseAddress(permission!.data.address, `${PERMISSION_TYPE} data.address`)
    const allowances: bigint[] = []
    if (permission!.data.allowance !== undefined) allowances.push(permission!.data.allowance)
    if (permission!.data.limit !== undefined) allowances.push(permission!.data.limit)
    for (const policy of permission!.policies) {
      const policyType = typeof policy.type === 'string' ? policy.type : policy.type.custom
      if (policyType !== ALLOWANCE_POLICY)
        throw new RpcFailure(`Unsupported permission policy ${policyType}`, -32602)
      const allowance = v.safeParse(v.object({ allowance: Quantity }), policy.data)
      if (!allowance.success) throw invalidParams(`${ALLOWANCE_POLICY} needs data.allowance (a hex quantity)`)
      allowances.push(allowance.output.allowance)
    }
    if (allowances.length !== 1) {
      throw invalidParams(
        `${PERMISSION_TYPE} needs exactly one allowance (data.allowance or a ${ALLOWANCE_POLICY} policy)`,
      )
    }
    const limit = allowances[0]!
    if (request.expiry <= Math.floor(Date.now() / 1000))
      throw invalidParams('The permission expires in the past')
    const signer = permissionSigner(request.signer)
    if (isAddressEqual(signer, from) || isAddressEqual(token, from)) {
      throw invalidParams('The signer and the token must be other than the account itself')
    }
    const grant: PermissionGrant = { signer, token, limit, expiry: request.expiry }
    return {
      method,
      from,
      accountType: 'smartAccount',
      grant,
      calls: selfCall(
        encodeFunctionData({
          abi: smartAccountAbi,
          functionName: 'grantPermission',
          args: [signer, token, limit, request.expiry],
        }),
        from,
      ),
      summary: {
        title: 'Grant a spend permission',
        from,
        accountType: 'smartAccount',
        details: [
          { label: 'Signer', value: signer },
          { label: 'Token', value: token },
          { label: 'Limit', value: `${limit} (smallest units)` },
          { label: 'Expires', value: new Date(request.expiry * 1000).toISOString() },
          network,
        ],
      },
    }
  }

  /**
   * ERC-7715 `wallet_grantPermissions`: the grant as one user operation of the smart account, waited for; answers
   * ERC-7715's response, the permission's on-chain id as its `permissionsContext` (what `wallet_revokePermissions`
   * and the signer's user operations name it by).
   */
  async grantPermissions(
    prepared: Extract<PreparedSigning, { method: 'wallet_grantPermissions' }>,
    privateKey: Hex,
    account: WalletAccount,
  ) {
    const receipt = await this.#mined(prepared.calls, privateKey, account, 'The permission was not granted')
    const [event] = parseEventLogs({
      abi: smartAccountAbi,
      eventName: 'PermissionGranted',
      logs: receipt.logs,
    })
    if (!event) throw new RpcFailure('The permission was not granted: no PermissionGranted event', -32603)
    const { grant } = prepared
    return {
      chainId: toHex(this.chain.id),
      address: account.smartAccount,
      expiry: grant.expiry,
      signer: { type: 'account', data: { id: grant.signer } },
      grantedPermissions: [
        {
          type: PERMISSION_TYPE,
          data: { address: grant.token, allowance: toHex(grant.limit) },
          policies: [{ type: ALLOWANCE_POLICY, data: { allowance: toHex(grant.limit) } }],
          required: true,
        },
      ],
      permissionsContext: event.args.id,
      signerData: { submitToAddress: account.smartAccount },
    }
  }

  /** ERC-7715 `wallet_revokePermissions`: an active permission of this account ended by one user operation. */
  async revokePermissions(
    prepared: Extract<PreparedSigning, { method: 'wallet_revokePermissions' }>,
    privateKey: Hex,
    account: WalletAccount,
  ): Promise<null> {
    const active =
      (await this.isDeployed(account.smartAccount)) &&
      (
        await this.client.readContract({
          address: account.smartAccount,
          abi: smartAccountAbi,
          functionName: 'permissions',
          args: [prepared.permissionId],
        })
      )[5]
    if (!active) throw invalidParams('No active permission has this permissionsContext')
    await this.#mined(prepared.calls, privateKey, account, 'The permission was not revoked')
    return null
  }

  /** One user operation of the smart account, waited for until mined; its receipt (a revert fails). */
  async #mined(calls: AccountCall[], privateKey: Hex, account: WalletAccount, failed: string) {
    if (!isAddressEqual(privateKeyToAccount(privateKey).address, account.eoa))
      throw new Error('The stored key does not match the account')
    try {
      const receipt = await this.#queued(account.eoa, async () => {
        const hash = await this.#sendUserOperation(privateKey, calls)
        return this.#requireBundler().waitForUserOperationReceipt({ hash, timeout: 60_000 })
      })
      if (!receipt.success)
        throw new RpcFailure(`${failed}${receipt.reason ? `: ${receipt.reason}` : ''}`, -32603)
      return receipt
    } catch (error) {
      if (error instanceof RpcFailure) throw error
      throw new RpcFailure(`${failed}: ${describe(error)}`, -32603)
    }
  }

  /**
   * Runs a prepared request with the account's key: a signature (ERC-6492-wrapped for a smart account not yet
   * deployed, so verifiers can check it counterfactually) or the hash of the transaction (from the smart account:
   * of the bundle that carried its user operation, once mined). Batches go to {@link sendCalls}.
   */
  async execute(prepared: PreparedSigning, privateKey: Hex, account: WalletAccount): Promise<Hex> {
    const signer = privateKeyToAccount(privateKey)
    if (!isAddressEqual(signer.address, account.eoa))
      throw new Error('The stored key does not match the account')
    try {
      if (prepared.method === 'eth_sendTransaction') return await this.#send(prepared, privateKey, account)
      if (prepared.method !== 'personal_sign' && prepared.method !== 'eth_signTypedData_v4')
        throw invalidParams(`${prepared.method} is not a signature`)
      const signature =
        prepared.method === 'personal_sign'
          ? await signer.signMessage({ message: prepared.message })
          : await signer.signTypedData(prepared.typedData)
      if (prepared.accountType === 'eoa' || (await this.isDeployed(account.smartAccount))) return signature
      return serializeErc6492Signature({
        address: CREATE2_DEPLOYER,
        data: smartAccountDeployData(account.eoa),
        signature,
      })
    } catch (error) {
      if (error instanceof RpcFailure) throw error
      throw new RpcFailure(describe(error), -32603)
    }
  }

  async #send(
    prepared: Extract<PreparedSigning, { method: 'eth_sendTransaction' }>,
    privateKey: Hex,
    account: WalletAccount,
  ): Promise<Hex> {
    const wallet = createWalletClient({
      account: privateKeyToAccount(privateKey),
      chain: this.chain,
      transport: http(this.#rpcUrl, { retryCount: 0, timeout: 30_000 }),
    })
    const { tx } = prepared
    return this.#queued(account.eoa, async () => {
      if (prepared.accountType === 'eoa') {
        return wallet.sendTransaction({
          to: tx.to ?? null,
          value: tx.value,
          data: tx.data,
          gas: tx.gas,
          ...(tx.nonce === undefined ? {} : { nonce: Number(tx.nonce) }),
        })
      }
      if (tx.to === undefined) {
        throw new RpcFailure('The smart account cannot create contracts: send from the EOA instead', -32602)
      }
      // A user operation through the bundler (deploying the account on its first one); the kit waits for a
      // transaction, so the answer is the hash of the bundle that carried it, once it is mined.
      const hash = await this.#sendUserOperation(privateKey, [{ to: tx.to, value: tx.value, data: tx.data }])
      const receipt = await this.#requireBundler().waitForUserOperationReceipt({ hash, timeout: 60_000 })
      if (!receipt.success) {
        throw new RpcFailure(
          `The smart account's call reverted${receipt.reason ? `: ${receipt.reason}` : ''}`,
          -32603,
        )
      }
      return receipt.receipt.transactionHash
    })
  }

  /**
   * EIP-5792 `wallet_sendCalls`: the prepared calls as one user operation of the smart account (`executeBatch`,
   * deploying the account on its first one). Answers `{ id }`, the operation's hash, once the bundler took it;
   * {@link callsStatus} follows it to its receipt.
   */
  async sendCalls(
    prepared: Extract<PreparedSigning, { method: 'wallet_sendCalls' }>,
    privateKey: Hex,
    account: WalletAccount,
  ): Promise<{ id: Hex }> {
    if (!isAddressEqual(privateKeyToAccount(privateKey).address, account.eoa))
      throw new Error('The stored key does not match the account')
    try {
      const id = await this.#queued(account.eoa, async () => {
        const deployed = await this.isDeployed(account.smartAccount)
        const hash = await this.#sendUserOperation(privateKey, prepared.calls)
        // An operation that deploys the account is waited for: the next one must not carry the factory again.
        if (!deployed) await this.#requireBundler().waitForUserOperationReceipt({ hash, timeout: 60_000 })
        return hash
      })
      this.#batches.set(id.toLowerCase() as Hex, account.smartAccount)
      return { id }
    } catch (error) {
      if (error instanceof RpcFailure) throw error
      throw new RpcFailure(describe(error), -32603)
    }
  }

  /** Signs and sends one user operation of the key's smart account; answers its hash (bundler accepted it). */
  async #sendUserOperation(privateKey: Hex, calls: AccountCall[]): Promise<Hex> {
    const bundler = this.#requireBundler()
    const account = await toSandboxSmartAccount(this.client, privateKey)
    return bundler.sendUserOperation({ account, calls })
  }

  #requireBundler(): BundlerClient {
    if (this.#bundler === undefined) {
      throw new RpcFailure('The smart account cannot send here: no bundler is configured', -32603)
    }
    return this.#bundler
  }

  /**
   * EIP-5792 `wallet_getCallsStatus` for a batch sent here: pending (100) until the bundler has its user
   * operation's receipt (`eth_getUserOperationReceipt`), then confirmed (200) or reverted (500), with the
   * receipt of the transaction that carried it (the operation's own logs). Unknown ids and other accounts'
   * batches: EIP-5792's 5730.
   */
  async callsStatus(params: unknown[] | undefined, account: WalletAccount): Promise<CallsStatus> {
    const id = v.safeParse(CallsIdSchema, params?.[0])
    if (!id.success) throw invalidParams('wallet_getCallsStatus needs [id]')
    const hash = id.output.toLowerCase() as Hex
    const owner = this.#batches.get(hash)
    if (owner === undefined || !isAddressEqual(owner, account.smartAccount)) {
      throw new RpcFailure('Unknown bundle id', 5730)
    }
    const base = { version: '2.0.0', id: hash, chainId: toHex(this.chain.id), atomic: true } as const
    let receipt: UserOperationReceipt | null
    try {
      receipt = await this.#requireBundler().getUserOperationReceipt({ hash })
    } catch (error) {
      // viem throws when the bundler answers null: not mined yet.
      if (error instanceof BaseError && error.name === 'UserOperationReceiptNotFoundError') {
        return { ...base, status: 100 }
      }
      throw error
    }
    if (receipt === null) return { ...base, status: 100 }
    const tx = receipt.receipt
    return {
      ...base,
      status: receipt.success ? 200 : 500,
      receipts: [
        {
          logs: receipt.logs.map((log) => ({ address: log.address, data: log.data, topics: log.topics })),
          status: receipt.success ? '0x1' : '0x0',
          blockHash: tx.blockHash,
          blockNumber: toHex(tx.blockNumber),
          gasUsed: toHex(tx.gasUsed),
          transactionHash: tx.transactionHash,
        },
      ],
    }
  }

  /**
   * EIP-5792 `wallet_getCapabilities` for this chain: the smart account batches atomically (one user operation) and
   * grants ERC-7715 permissions (what `wallet_grantPermissions` takes here: a key signer, one
   * `erc20-token-transfer` with its `token-allowance`); the EOA does neither.
   */
  capabilities(
    params: unknown[] | undefined,
    account: WalletAccount,
  ): Record<Hex, { atomic: { status: string }; permissions?: Record<string, unknown> }> {
    const address = v.safeParse(AddressParam, params?.[0])
    if (!address.success) throw invalidParams('wallet_getCapabilities needs [address]')
    const type = isAddressEqual(address.output, account.smartAccount)
      ? 'smartAccount'
      : isAddressEqual(address.output, account.eoa)
        ? 'eoa'
        : undefined
    if (type === undefined)
      throw new RpcFailure(`The address ${address.output} is not an account of this wallet`, 4100)
    const supported = type === 'smartAccount' && this.#bundler !== undefined
    if (!supported) return { [toHex(this.chain.id)]: { atomic: { status: 'unsupported' } } }
    return {
      [toHex(this.chain.id)]: {
        atomic: { status: 'supported' },
        permissions: {
          supported: true,
          signerTypes: ['key', 'keys', 'account'],
          permissionTypes: [PERMISSION_TYPE],
          policyTypes: [ALLOWANCE_POLICY],
        },
      },
    }
  }

  /** Sends the faucet's ETH and tokens to a new account's two addresses; a no-op without a faucet. */
  async fund(addresses: Address[]): Promise<void> {
    const faucet = this.#faucet
    if (!faucet) return
    const funder = privateKeyToAccount(faucet.privateKey)
    const wallet = createWalletClient({
      account: funder,
      chain: this.chain,
      transport: http(this.#rpcUrl, { retryCount: 0, timeout: 30_000 }),
    })
    const wei = faucet.wei ?? 10n ** 18n
    await this.#queued(funder.address, async () => {
      let last: Hex | undefined
      for (const to of addresses) {
        if (wei > 0n) last = await wallet.sendTransaction({ to, value: wei })
        for (const token of faucet.tokens ?? []) {
          last = await wallet.writeContract({
            address: token.address,
            abi: erc20Abi,
            functionName: 'transfer',
            args: [to, token.amount],
          })
        }
      }
      if (last) await this.client.waitForTransactionReceipt({ hash: last, timeout: 30_000 })
    })
  }

  #queued<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#queues.get(key) ?? Promise.resolve()
    const next = previous.then(task, task)
    const settled = next.catch(() => undefined)
    this.#queues.set(key, settled)
    void settled.then(() => {
      if (this.#queues.get(key) === settled) this.#queues.delete(key)
    })
    return next
  }
}

/**
 * One JSON-RPC call over HTTP (the EVM RPC or the Solana one): its result, or {@link RpcFailure} with the
 * RPC's own error code and message, or -32603 when the RPC cannot be reached or answers no JSON-RPC.
 */
export async function callJsonRpc(rpcUrl: string, method: string, params: unknown): Promise<unknown> {
  let response: Response
  try {
    response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: params ?? [] }),
      signal: AbortSignal.timeout(30_000),
    })
  } catch {
    throw new RpcFailure('The chain RPC did not answer', -32603, 502)
  }
  let json: unknown
  try {
    json = await response.json()
  } catch {
    throw new RpcFailure(`The chain RPC answered HTTP ${response.status} with no JSON`, -32603, 502)
  }
  const parsed = v.safeParse(
    v.object({
      result: v.optional(v.unknown()),
      error: v.optional(v.object({ code: v.number(), message: v.string() })),
    }),
    json,
  )
  if (!parsed.success)
    throw new RpcFailure('The chain RPC answered something that is not JSON-RPC', -32603, 502)
  if (parsed.output.error) throw new RpcFailure(parsed.output.error.message, parsed.output.error.code)
  return parsed.output.result ?? null
}

/** The address an ERC-7715 signer stands for: an address as its id, or the address of its public key. */
function permissionSigner(signer: v.InferOutput<typeof PermissionSignerSchema>): Address {
  const ids =
    signer.type === 'keys'
      ? signer.data.ids
      : [signer.data.id ?? signer.data.address ?? signer.data.publicKey]
  const [id, ...more] = ids
  if (id === undefined || more.length > 0) throw invalidParams('The permission needs exactly one signer key')
  if (/^0x[0-9a-fA-F]{40}$/.test(id)) return getAddress(id.toLowerCase())
  if (/^0x04[0-9a-fA-F]{128}$/.test(id)) return publicKeyToAddress(id as Hex)
  throw invalidParams('The signer is an address or an uncompressed secp256k1 public key (0x04…)')
}

function parseAddress(value: unknown, what: string): Address {
  const parsed = v.safeParse(AddressParam, value)
  if (!parsed.success) throw invalidParams(`${what} must be an address`)
  return parsed.output
}

export function invalidParams(message: string): RpcFailure {
  return new RpcFailure(message, -32602)
}

/** The message as text when its bytes are printable UTF-8, else the hex itself. */
function readableText(hex: Hex): string {
  try {
    const text = hexToString(hex)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is tested
    return /[\u0000-\u0008\u000e-\u001f\ufffd]/.test(text) ? hex : text
  } catch {
    return hex
  }
}

export function preview(text: string): string {
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text
}

/** viem's short message (its first line), else the error's message. */
export function describe(error: unknown): string {
  if (error instanceof BaseError) return error.shortMessage
  return error instanceof Error ? error.message : String(error)
}
