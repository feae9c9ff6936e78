import * as v from 'valibot'
import { getAddress } from 'viem'
import { grantPermissions } from 'viem/experimental'
import type { Config } from 'wagmi'
import { getConnectorClient } from 'wagmi/actions'
import { InvalidPermissionsAnswerError } from '../../errors/permissions'
import type {
  AccountKind,
  GrantedPermission,
  KitGrantRequest,
  SmartSessionsAccount,
} from '../../machines/smartSessions/events'
import { atomicStatusOf, NO_EIP5792, walletCapabilitiesOf } from './calls'

/** What the smart-sessions machine asks of the connected wallet (src/machines/smartSessions.ts). */
export interface PermissionsClient {
  /**
   * The account's kind on the chain, from EIP-5792 `wallet_getCapabilities`: a smart account batches atomically;
   * `permissions`: the wallet reports ERC-7715 permissions the kit can ask for there ({@link grantsPermissionsOf}).
   */
  accountKind(account: SmartSessionsAccount): Promise<AccountKind>
  grant(parameters: { account: SmartSessionsAccount; request: KitGrantRequest }): Promise<GrantedPermission>
  revoke(parameters: { account: SmartSessionsAccount; permissionId: string }): Promise<void>
}

/** What the kit asks for: a key signer (ERC-7715 `signer.type`; early drafts said `keys`) and this permission. */
const SIGNER_TYPES = ['key', 'keys']
const PERMISSION_TYPE = 'erc20-token-transfer'
const Strings = v.optional(v.pipe(v.array(v.string()), v.maxLength(256)), [])
/** ERC-7715's capability in `wallet_getCapabilities`, by hex chain id (`0x0`: every chain). */
const PermissionsCapabilities = v.record(
  v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{1,16}$/)),
  v.looseObject({
    permissions: v.optional(
      v.looseObject({ supported: v.boolean(), signerTypes: Strings, permissionTypes: Strings }),
    ),
  }),
)

/**
 * Whether a `wallet_getCapabilities` answer reports ERC-7715 permissions on `chainId` that the kit can ask for
 * (`permissions: { supported: true, signerTypes: ['key', …], permissionTypes: ['erc20-token-transfer', …] }`): that
 * chain's entry, else the one for every chain (`0x0`). Anything else, malformed included: no.
 *
 * @example
 * grantsPermissionsOf({ '0x7a69': { permissions: { supported: true, signerTypes: ['key'], permissionTypes: ['erc20-token-transfer'] } } }, 31337) // true
 */
export function grantsPermissionsOf(answer: unknown, chainId: number): boolean {
  const parsed = v.safeParse(PermissionsCapabilities, answer)
  if (!parsed.success) return false
  const byChain = new Map(Object.entries(parsed.output).map(([key, value]) => [BigInt(key), value]))
  const permissions = (byChain.get(BigInt(chainId)) ?? byChain.get(0n))?.permissions
  return (
    permissions?.supported === true &&
    permissions.signerTypes.some((type) => SIGNER_TYPES.includes(type)) &&
    permissions.permissionTypes.includes(PERMISSION_TYPE)
  )
}

/** ERC-7715's answer, as far as the kit reads it. */
const GrantAnswerSchema = v.object({
  permissionsContext: v.pipe(v.string(), v.regex(/^0x([0-9a-fA-F]{2})+$/, 'permissionsContext: hex')),
  expiry: v.pipe(v.number(), v.integer()),
  grantedPermissions: v.pipe(v.array(v.unknown()), v.minLength(1)),
})

/**
 * The wallet wagmi has connected, for ERC-7715: `wallet_grantPermissions` through viem's own action (one
 * `erc20-token-transfer` with a `token-allowance` policy, for a key signer), `wallet_revokePermissions` as ERC-7715
 * has it (`{ permissionsContext }`). The answer is checked before the kit keeps it.
 */
export function createPermissionsClient(wagmi: Config): PermissionsClient {
  return {
    async accountKind({ address, chainId }) {
      const answer = await walletCapabilitiesOf(wagmi, { address, chainId })
      // A wallet without EIP-5792 has neither batching nor permissions.
      if (answer === NO_EIP5792) return { kind: 'eoa', permissions: false }
      const atomic = atomicStatusOf(answer, chainId)
      return {
        kind: atomic === 'supported' || atomic === 'ready' ? 'smartAccount' : 'eoa',
        permissions: grantsPermissionsOf(answer, chainId),
      }
    },
    async grant({ account, request }) {
      const client = await getConnectorClient(wagmi, { chainId: account.chainId, account: account.address })
      const answer = await grantPermissions(client, {
        expiry: request.expiry,
        signer: { type: 'key', data: { id: request.signer } },
        permissions: [
          {
            type: PERMISSION_TYPE,
            data: { address: request.token, ticker: '' },
            policies: [{ type: 'token-allowance', data: { allowance: BigInt(request.limit) } }],
            required: true,
          },
        ],
      })
      const parsed = v.safeParse(GrantAnswerSchema, answer)
      if (!parsed.success) throw new InvalidPermissionsAnswerError({ details: v.summarize(parsed.issues) })
      return {
        id: parsed.output.permissionsContext.toLowerCase() as `0x${string}`,
        address: getAddress(account.address),
        chainId: account.chainId,
        signer: getAddress(request.signer),
        token: getAddress(request.token),
        limit: request.limit,
        expiry: parsed.output.expiry,
      }
    },
    async revoke({ account, permissionId }) {
      const client = await getConnectorClient(wagmi, { chainId: account.chainId, account: account.address })
      await client.request(
        { method: 'wallet_revokePermissions', params: [{ permissionsContext: permissionId }] } as never,
        { retryCount: 0 },
      )
    },
  }
}
