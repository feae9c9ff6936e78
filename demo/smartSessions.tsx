import { useState } from 'react'
import { createPublicClient, defineChain, erc20Abi, http, parseUnits } from 'viem'
import { createBundlerClient } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { smartAccountAbi } from '../sandbox/secure-site/contracts/smart-account.gen'
import { toSandboxPermissionAccount } from '../sandbox/secure-site/smart-account'
import { type GrantedPermission, useKitAccount, useKitSmartSessions } from '../src/react'
import { sandboxConfig } from './sandbox-config'

/** A value of the app's session in this tab (sessionStorage), made once. */
function appSession<T extends string>(key: string, make: () => T): T {
  const name = `walletstate-demo.smartSessions.${key}`
  const kept = sessionStorage.getItem(name)
  if (kept) return kept as T
  const value = make()
  sessionStorage.setItem(name, value)
  return value
}

/**
 * `?smartSessions=1`: ERC-7715 permissions through the kit. "Grant 10 USDC" asks the smart account (one approval
 * in the login frame) to let the app's own signer (a fresh key made in this page, never sent anywhere) spend up
 * to 10 USDC for an hour. "Spend 5 as the app" / "Spend 20 as the app": the signer alone sends a user operation
 * through the sandbox's bundler endpoint (no wallet prompt), a USDC transfer to a fresh recipient
 * (`demo-sessions-recipient`); the account enforces the limit on chain. "Revoke" ends the permission. Each outcome
 * goes to `demo-sessions-result`. The permissions the kit lists (`granted`, kept across a reload by the kit) are in
 * `demo-sessions-granted`; Spend and Revoke act on the one granted last. The app's signer key and recipient are the
 * app's session, kept in this tab's sessionStorage (never in the kit's storage), so the app can still spend after a
 * reload.
 */
export function SmartSessions({ usdcOf }: { usdcOf: (chainId: number) => Promise<`0x${string}`> }) {
  const { isConnected, namespace, chainId } = useKitAccount()
  const { grant, revoke, status, granted } = useKitSmartSessions()
  const [signerKey] = useState(() => appSession('signerKey', generatePrivateKey))
  const [recipient] = useState(() =>
    appSession('recipient', () => privateKeyToAccount(generatePrivateKey()).address),
  )
  const [grantedHere, setPermission] = useState<GrantedPermission>()
  const permission = grantedHere ?? granted.at(-1)
  const [result, setResult] = useState('')
  const run = (task: () => Promise<string>) => {
    setResult('')
    task()
      .then(setResult)
      .catch((error: unknown) => {
        const e = error as { shortMessage?: string; message?: string; details?: string }
        const short = e.shortMessage ?? e.message ?? String(error)
        setResult(`failed: ${e.details && e.details !== short ? `${short} (${e.details})` : short}`)
      })
  }
  const onGrant = () =>
    run(async () => {
      const granted = await grant({
        signer: privateKeyToAccount(signerKey).address,
        token: await usdcOf(chainId as number),
        limit: parseUnits('10', 6),
        expiry: Math.floor(Date.now() / 1000) + 3600,
      })
      setPermission(granted)
      return `granted ${granted.id}`
    })
  /** The app's signer spends `amount` USDC with the permission: a user operation of its own, no prompt. */
  const spend = (amount: string) =>
    run(async () => {
      if (!permission || !sandboxConfig.chain || !sandboxConfig.endpoints.bundler)
        throw new Error('Grant a permission first')
      const { id, name, rpcUrl } = sandboxConfig.chain
      const chain = defineChain({
        id,
        name,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [rpcUrl] } },
      })
      const client = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 200 })
      const owner = await client.readContract({
        address: permission.address,
        abi: smartAccountAbi,
        functionName: 'owner',
      })
      const account = await toSandboxPermissionAccount(client, {
        owner,
        signerKey,
        permissionId: permission.id,
      })
      const query = new URLSearchParams({
        chainId: `eip155:${permission.chainId}`,
        projectId: sandboxConfig.projectId,
        bundler: 'pimlico',
      })
      const bundler = createBundlerClient({
        client,
        transport: http(`${sandboxConfig.endpoints.bundler.replace(/\/$/, '')}/v1/bundler?${query}`),
        pollingInterval: 200,
      })
      const hash = await bundler.sendUserOperation({
        account,
        calls: [
          {
            to: permission.token,
            abi: erc20Abi,
            functionName: 'transfer',
            args: [recipient, parseUnits(amount, 6)],
          },
        ],
      })
      const receipt = await bundler.waitForUserOperationReceipt({ hash })
      if (!receipt.success) throw new Error(`The transfer of ${amount} USDC reverted`)
      return `spent ${amount} USDC (${receipt.receipt.transactionHash})`
    })
  const evm = isConnected && namespace !== 'solana'
  return (
    <>
      <p data-testid="demo-sessions-key-note">
        This demo keeps the app's signer key in this tab's sessionStorage, readable by any script on the page,
        so that it can spend after a reload. A real app keeps a session key where its own threat model asks (a
        server, or a non-extractable WebCrypto key); the kit never stores it.
      </p>
      <button type="button" disabled={!evm || status === 'pending'} onClick={onGrant}>
        Grant 10 USDC
      </button>
      <button type="button" disabled={!permission} onClick={() => spend('5')}>
        Spend 5 as the app
      </button>
      <button type="button" disabled={!permission} onClick={() => spend('20')}>
        Spend 20 as the app
      </button>
      <button
        type="button"
        disabled={!permission || status === 'pending'}
        onClick={() =>
          run(async () => {
            const revoked = permission!
            await revoke(revoked.id)
            // Still the app's to try: spending with it is refused on chain now.
            setPermission(revoked)
            return `revoked ${revoked.id}`
          })
        }
      >
        Revoke
      </button>
      <ul aria-label="Granted permissions" data-testid="demo-sessions-granted">
        {granted.map((p) => (
          <li key={p.id}>
            {p.id}: {p.limit} of {p.token} for {p.signer} until {new Date(p.expiry * 1000).toISOString()}
          </li>
        ))}
      </ul>
      <output data-testid="demo-sessions-recipient">{recipient}</output>
      <output data-testid="demo-sessions-result" aria-live="polite">
        {result}
      </output>
    </>
  )
}
