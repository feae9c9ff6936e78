import * as v from 'valibot'
import type { Config } from 'wagmi'
import { fromCallback, fromPromise } from 'xstate'
import { createPermissionsClient, type PermissionsClient } from '../chains/eip155/permissions'
import { STORED_PERMISSIONS_MAX } from '../constants'
import type {
  AccountKind,
  GrantedPermission,
  KitGrantRequest,
  PermissionStoreRequest,
  SmartSessionsAccount,
  SmartSessionsEvent,
} from '../machines/smartSessions/events'
import type { KitStore } from '../storage'

/**
 * The smart-sessions machine's slots (src/machines/smartSessions.ts) over a permissions client, and the store of
 * what was granted (none: nothing is stored).
 *
 * @example
 * const logic = smartSessionsMachine.provide({ actors: createSmartSessionsActors(createPermissionsClient(wagmi)) })
 */
export function createSmartSessionsActors(client: PermissionsClient, store?: KitStore) {
  return {
    accountKind: fromPromise<AccountKind, SmartSessionsAccount>(({ input }) => client.accountKind(input)),
    grant: fromPromise<GrantedPermission, { account: SmartSessionsAccount; request: KitGrantRequest }>(
      ({ input }) => client.grant(input),
    ),
    revoke: fromPromise<void, { account: SmartSessionsAccount; permissionId: string }>(({ input }) =>
      client.revoke(input),
    ),
    ...(store ? { permissionStore: createPermissionStore(store) } : {}),
  }
}

const Address = v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{40}$/))
/**
 * A granted permission's public record as the kit keeps it in storage (never a key): read back through this when
 * smart sessions start for an account, anything else dropped. The terms as the machine checks a grant's.
 */
const StoredPermissionSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^0x([0-9a-fA-F]{2})+$/), v.maxLength(2 + 2 * 1024)),
  address: Address,
  chainId: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(Number.MAX_SAFE_INTEGER)),
  signer: Address,
  token: Address,
  limit: v.pipe(
    v.string(),
    v.regex(/^[1-9]\d{0,77}$/),
    v.check((limit) => !/^\d+$/.test(limit) || BigInt(limit) < 2n ** 256n),
  ),
  expiry: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2 ** 48 - 1)),
})

/** A record of `account` (same address, any case, and chain). */
const permissionOf = (
  permission: { address: string; chainId: number },
  account: { address: string; chainId: number },
) =>
  permission.address.toLowerCase() === account.address.toLowerCase() && permission.chainId === account.chainId

/** The stored records that pass their schema (anything else in storage is ignored, and left out of the next save). */
function storedRecords(store: KitStore): GrantedPermission[] {
  const records: GrantedPermission[] = []
  for (const entry of store.read('grantedPermissions') ?? []) {
    const parsed = v.safeParse(StoredPermissionSchema, entry)
    if (parsed.success) records.push(parsed.output as GrantedPermission)
  }
  return records
}

/**
 * The slot `permissionStore` over the kit's storage (key `grantedPermissions`): the permissions' public records
 * (never a key), all accounts in one list, the newest STORED_PERMISSIONS_MAX. It answers the account it starts for, and each `load`, with that
 * account's records checked through their schema (`smartSessions.stored`, expired ones included: the machine drops
 * them); a `save` replaces the account's records, keeping the other accounts'.
 *
 * @example
 * smartSessionsMachine.provide({ actors: { permissionStore: createPermissionStore(createKitStore(localStorage)) } })
 */
export function createPermissionStore(store: KitStore, now: () => number = Date.now) {
  return fromCallback<PermissionStoreRequest, SmartSessionsAccount | undefined>(
    ({ input, receive, sendBack }) => {
      const load = (account: SmartSessionsAccount | undefined) => {
        if (!account) return
        const permissions = storedRecords(store).filter((p) => permissionOf(p, account))
        sendBack({
          type: 'smartSessions.stored',
          account,
          permissions,
          now: now(),
        } satisfies SmartSessionsEvent)
      }
      receive((request) => {
        if (request.type === 'load') return load(request.account)
        const others = storedRecords(store).filter((p) => !permissionOf(p, request.account))
        const records = [...others, ...request.permissions].map(
          ({ id, address, chainId, signer, token, limit, expiry }) => ({
            id,
            address,
            chainId,
            signer,
            token,
            limit,
            expiry,
          }),
        )
        // Over the cap, the oldest go first.
        if (records.length === 0) store.remove('grantedPermissions')
        else store.write('grantedPermissions', records.slice(-STORED_PERMISSIONS_MAX))
      })
      load(input)
    },
  )
}

/** The slots over wagmi's connected wallet, and the kit's storage. */
export const smartSessionsActorsFor = (wagmi: Config, store?: KitStore) =>
  createSmartSessionsActors(createPermissionsClient(wagmi), store)
