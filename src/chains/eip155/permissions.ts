import * as v from 'valibot'
import { getAddress } from 'viem'
import { grantPermissions } from 'viem/experimental'
import type { Config } from 'wagmi'
import { getConnectorClient } from 'wagmi/actions'
import { InvalidPermissionsAnswerError } from '../../errors/permissions'
import type {
  GrantedPermission,
  KitGrantRequest,
  SmartSessionsAccount,
} from '../../machines/smartSessions/events'
import { createCallsClient } from './calls'

/** What the smart-sessions machine asks of the connected wallet (src/machines/smartSessions.ts). */
export interface PermissionsClient {
  /** The account's kind on the chain: a smart account batches atomically (EIP-5792 `wallet_getCapabilities`). */
  accountKind(account: SmartSessionsAccount): Promise<'smartAccount' | 'eoa'>
  grant(parameters: { account: SmartSessionsAccount; request: KitGrantRequest }): Promise<GrantedPermission>
  revoke(parameters: { account: SmartSessionsAccount; permissionId: string }): Promise<void>
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
  const calls = createCallsClient(wagmi)
  return {
    async accountKind(account) {
      const atomic = await calls.capabilities(account)
      return atomic === 'supported' || atomic === 'ready' ? 'smartAccount' : 'eoa'
    },
    async grant({ account, request }) {
      const client = await getConnectorClient(wagmi, { chainId: account.chainId, account: account.address })
      const answer = await grantPermissions(client, {
        expiry: request.expiry,
        signer: { type: 'key', data: { id: request.signer } },
        permissions: [
          {
            type: 'erc20-token-transfer',
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
