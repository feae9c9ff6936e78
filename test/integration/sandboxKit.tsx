import { type ChildProcess, spawn } from 'node:child_process'
import { request as httpRequest } from 'node:http'
import { createInterface } from 'node:readline'
import { act, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { type Address, createPublicClient, http } from 'viem'
import { afterAll, beforeAll, expect } from 'vitest'
import { SimulatedClock } from 'xstate'
import { createKitMachine, defineEvmNetwork, type KitActorRef } from '../../src'
import { ConnectButton, KitRoot } from '../../src/react'
import { memoryStorage } from '../../src/storage'
import { truncateAddress } from '../../src/utils/format'
import { Capture } from '../model-based/ui-kit'

/*
 * The real kit rendered (happy-dom) against the sandbox's real chain (anvil), RPC host and Data API, all on
 * loopback in a process of their own (`sandbox-services.ts`), for the integration UI tests (account.ui, swap.ui).
 * The wallet is a small EIP-1193 provider announced by EIP-6963 that hands every call to anvil (whose dev
 * accounts are unlocked), so it approves what it is asked: a wallet's own prompt is the end-to-end tests' business.
 */

// The views wait on real I/O here (anvil, the Data API): a findBy/waitFor gets the 10 s that expect.poll gets
// (vitest.config.ts), not testing-library's 1 s, which a loaded machine running two files at a time can exceed.
// A condition that never holds still fails, after 10 s.
configure({ asyncUtilTimeout: 10_000 })

export interface Services {
  rpcUrl: string
  chainId: number
  rpcOrigin: string
  apiOrigin: string
  accounts: Address[]
  tokens: { address: Address; symbol: string; decimals: number }[]
  /** The sandbox's swap router (the kit's `swapRouters` entry for the chain). */
  router: Address
}

/**
 * Starts the sandbox services before the file's tests and stops them after. Returns getters: the services once
 * they run, and a viem reader of their chain.
 */
export function sandboxServices() {
  let services: Services | undefined
  let reader: ReturnType<typeof createPublicClient> | undefined
  let child: ChildProcess | undefined
  beforeAll(async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'test/integration/sandbox-services.ts'], {
      stdio: ['pipe', 'pipe', 'inherit'],
    })
    const firstLine = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: child!.stdout! })
      lines.once('line', resolve)
      child!.once('exit', (code) => reject(new Error(`sandbox services exited (${code})`)))
    })
    services = JSON.parse(firstLine) as Services
    reader = createPublicClient({ transport: http(services.rpcUrl) })
  }, 120_000)
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve))
      child.stdin?.end()
      await exited
    }
  })
  const running = () => {
    if (!services || !reader) throw new Error('the sandbox services are not running')
    return { services, reader }
  }
  return { services: () => running().services, reader: () => running().reader }
}

/** From the test's Node side: the Data API's fault switch refuses pages, and happy-dom's `fetch` is a page's. */
export function setFault(apiOrigin: string, fault: object): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const req = httpRequest(new URL('/__fault', apiOrigin), { method: 'POST' }, (res) => {
      res.resume()
      res.on('end', () =>
        res.statusCode === 200 ? resolve() : reject(new Error(`__fault: ${res.statusCode}`)),
      )
    })
    req.on('error', reject)
    req.end(JSON.stringify(fault))
  })
}

export interface TestWalletOptions {
  /** Awaited before the wallet sends its n-th transaction (1-based): the visitor thinking it over. */
  beforeTransaction?: (n: number) => Promise<void> | undefined
}

/** An EIP-1193 wallet for one dev account over anvil, announced by EIP-6963. Returns its uninstall. */
export function installWallet(services: Services, account: Address, options: TestWalletOptions = {}) {
  let id = 0
  let transactions = 0
  const provider = {
    async request({ method, params }: { method: string; params?: unknown }) {
      if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [account]
      if (method === 'eth_chainId') return `0x${services.chainId.toString(16)}`
      if (method === 'wallet_switchEthereumChain') return null
      if (method === 'wallet_requestPermissions' || method === 'wallet_getPermissions')
        return [{ parentCapability: 'eth_accounts' }]
      if (method === 'eth_sendTransaction') await options.beforeTransaction?.(++transactions)
      const response = await fetch(services.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params: params ?? [] }),
      })
      const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string } }
      if (body.error) throw Object.assign(new Error(body.error.message), { code: body.error.code })
      return body.result
    },
    on() {},
    removeListener() {},
  }
  const detail = Object.freeze({
    info: {
      uuid: '7b0f7f2e-8d1e-4c55-9a57-5f0b1f6c7a10',
      name: 'UI Test Wallet',
      icon: 'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg"/%3E',
      rdns: 'io.walletstate.uitest',
    },
    provider,
  })
  const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
  window.addEventListener('eip6963:requestProvider', announce)
  announce()
  return () => window.removeEventListener('eip6963:requestProvider', announce)
}

export const dialog = () => screen.getByRole('dialog')
export const shownView = () => dialog().querySelector('[data-view]')?.getAttribute('data-view')
export const button = (name: string | RegExp) =>
  within(dialog()).getByRole('button', { name }) as HTMLButtonElement
export const textbox = (name: string) => within(dialog()).getByRole('textbox', { name }) as HTMLInputElement
export const type = (input: HTMLInputElement, value: string) => fireEvent.change(input, { target: { value } })
export const toast = () => document.querySelector('.ws-toast')

/** Waits until the modal shows `name`, its code loaded. */
export async function showView(name: string) {
  await waitFor(() => expect(shownView()).toBe(name), { timeout: 10_000 })
  await waitFor(() => expect(dialog().querySelector('.ws-loading')).toBeNull(), { timeout: 10_000 })
}

export interface ConnectedKitOptions extends TestWalletOptions {
  projectId: string
  accountIndex: number
  /** The Data API the kit calls (default the sandbox's; a test may put a proxy in between). */
  apiOrigin?: string
}

/**
 * Renders a kit on the sandbox and connects the dev account `accountIndex` through the modal, as a visitor
 * would: the modal is left open on Account. The kit runs on a simulated clock: `advance` moves it.
 */
export async function renderConnectedKit(services: Services, options: ConnectedKitOptions) {
  const account = services.accounts[options.accountIndex]!
  const uninstall = installWallet(services, account, options)
  const machine = createKitMachine({
    projectId: options.projectId,
    features: { allWallets: false, analytics: false, email: false, socials: false },
    storage: memoryStorage(),
    swapRouters: { [`eip155:${services.chainId}`]: services.router },
    endpoints: {
      api: options.apiOrigin ?? services.apiOrigin,
      walletsApi: 'http://127.0.0.1:9',
      rpc: services.rpcOrigin,
      relay: 'ws://127.0.0.1:9',
      frame: 'http://127.0.0.1:9',
      telemetry: 'http://127.0.0.1:9',
    },
    networks: [
      defineEvmNetwork({
        id: services.chainId,
        name: 'Walletstate Sandbox',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [services.rpcUrl] } },
        testnet: true,
      }),
    ],
  })
  const clock = new SimulatedClock()
  let kit: KitActorRef | undefined
  render(
    <KitRoot machine={machine} options={{ clock }}>
      <ConnectButton />
      <Capture
        onActor={(actor) => {
          kit = actor
        }}
      />
    </KitRoot>,
  )
  fireEvent.click(screen.getByRole('button', { name: 'Connect Wallet' }))
  await showView('Connect')
  fireEvent.click(await within(dialog()).findByRole('button', { name: /UI Test Wallet/ }))
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 10_000 })
  // The host button shows the truncated address; its accessible name adds the account's name once it has one.
  const shown = new RegExp(`^${truncateAddress(account).replace(/\./g, '\\.')}( \\(.+\\))?$`)
  await waitFor(() => expect(screen.getByRole('button', { name: shown })).toBeDefined())
  fireEvent.click(screen.getByRole('button', { name: shown }))
  await showView('Account')
  return {
    account,
    kit: kit!,
    uninstall,
    /** Time passes on the kit's clock (toasts, the modal's animations, the machines' delays). */
    advance: async (ms: number) => {
      await act(async () => {
        clock.increment(ms)
        for (let i = 0; i < 10; i++) await Promise.resolve()
      })
    },
  }
}
