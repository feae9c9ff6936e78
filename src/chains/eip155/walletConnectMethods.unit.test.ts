import { readFileSync } from 'node:fs'
import { describe, expect, it, vi } from 'vitest'
import { walletConnect } from 'wagmi/connectors'
import { KIT_EIP155_METHODS } from '../../constants'
import { createInnerWalletConnect } from './walletConnectInner'

// wagmi's connector, as it is, with what the kit gives it seen.
vi.mock('wagmi/connectors', async (importOriginal) => {
  const actual = await importOriginal<typeof import('wagmi/connectors')>()
  return { ...actual, walletConnect: vi.fn(actual.walletConnect) }
})

/** WalletConnect's default optional eip155 methods, read from the vendored provider itself. */
function vendoredDefaultMethods(): string[] {
  const dir = new URL('./vendor/', import.meta.url)
  const file = readFileSync(new URL('wc-BuiBnsVg.js', dir), 'utf8')
  const list = /Y = \["eth_sendTransaction", "personal_sign"\], wt = \[([^\]]*)\]/.exec(file)
  if (!list) throw new Error('the vendored provider has no default method list where expected')
  return [...list[1]!.matchAll(/"([a-zA-Z0-9_]+)"/g)].map((match) => match[1]!)
}

describe('the WalletConnect proposal asks for the methods the kit uses', () => {
  const proposed = () => {
    createInnerWalletConnect({
      projectId: 'p'.repeat(32),
      relayUrl: 'ws://127.0.0.1:1',
      metadata: { name: 'Test', description: 'Test', url: 'https://app.example', icons: [] },
      hasStoredSession: () => false,
    })
    const parameters = vi.mocked(walletConnect).mock.calls.at(-1)![0] as { optionalMethods?: string[] }
    return parameters.optionalMethods ?? []
  }

  it('names SPEC §7 methods WalletConnect does not ask for by default', () => {
    const methods = proposed()
    for (const method of [
      'wallet_sendCalls',
      'wallet_getCallsStatus',
      'wallet_showCallsStatus',
      'wallet_getAssets',
      'wallet_grantPermissions',
      'wallet_revokePermissions',
    ])
      expect(methods).toContain(method)
    expect(methods).toEqual([...KIT_EIP155_METHODS])
  })

  it('keeps every one of WalletConnect’s defaults (a list of optional methods replaces them)', () => {
    const defaults = vendoredDefaultMethods()
    expect(defaults.length).toBeGreaterThan(10)
    const methods = proposed()
    for (const method of defaults) expect(methods).toContain(method)
    expect(defaults).not.toContain('wallet_getAssets')
  })
})
