import { describe, expect, it } from 'vitest'
import {
  type ActorRefFrom,
  createActor,
  createMachine,
  fromCallback,
  fromPromise,
  SimulatedClock,
} from 'xstate'
import type { DomainVerification } from '../../src/api/verify'
import { ON_DEMAND_LOAD_TIMEOUT_MS, RPC_METHOD_NOT_ALLOWED_ALERT_DELAY_MS } from '../../src/constants'
import { ALERTS } from '../../src/errors/base'
import {
  type ChainId,
  type ConnectionEvent,
  type ConnectOutput,
  connectionMachine,
  type ReconnectOutput,
} from '../../src/machines/connection'
import { kitMachine, selectAlerts } from '../../src/machines/kit'
import type { toastMachine } from '../../src/machines/toast'
import { kitTestInput, testAccount } from './kit.fixtures'

/** Alerts the kit raises on its own clock (issue 13 item 11), and its on-demand loads' time limit. */
describe('kit alerts and on-demand loads', () => {
  it("RPC_METHOD_NOT_ALLOWED is shown 300 ms after the frame refuses a method (SPEC §8 'shown after 300 ms')", () => {
    const clock = new SimulatedClock()
    const kit = createActor(kitMachine, { input: kitTestInput('alerts'), clock }).start()
    const codes = () => selectAlerts(kit.getSnapshot()).map((a) => a.code)
    kit.send({ type: 'embedded.rpcNotAllowed', method: 'eth_sign' })
    clock.increment(RPC_METHOD_NOT_ALLOWED_ALERT_DELAY_MS - 1)
    expect(codes()).not.toContain('RPC_METHOD_NOT_ALLOWED')
    clock.increment(1)
    expect(selectAlerts(kit.getSnapshot())).toContainEqual(ALERTS.RPC_METHOD_NOT_ALLOWED)
    // A second refusal does not stack a second alert.
    kit.send({ type: 'embedded.rpcNotAllowed', method: 'eth_sign' })
    clock.increment(RPC_METHOD_NOT_ALLOWED_ALERT_DELAY_MS)
    expect(codes().filter((c) => c === 'RPC_METHOD_NOT_ALLOWED')).toHaveLength(1)
    kit.stop()
  })

  it('a capability whose code never loads fails after its time limit, and the next load tries again', () => {
    const clock = new SimulatedClock()
    let loads = 0
    const machine = kitMachine.provide({
      actors: {
        loadWallets: fromPromise(() => {
          loads += 1
          return new Promise<never>(() => {})
        }) as never, // a chunk that never arrives: its output type does not matter
      },
    })
    const kit = createActor(machine, { input: kitTestInput('loads'), clock }).start()
    kit.send({ type: 'listing.load' })
    expect(kit.getSnapshot().matches({ wallets: 'loading' })).toBe(true)
    clock.increment(ON_DEMAND_LOAD_TIMEOUT_MS - 1)
    expect(kit.getSnapshot().matches({ wallets: 'loading' })).toBe(true)
    clock.increment(1)
    expect(kit.getSnapshot().matches({ wallets: 'failed' })).toBe(true)
    kit.send({ type: 'listing.load' })
    expect(kit.getSnapshot().matches({ wallets: 'loading' })).toBe(true)
    expect(loads).toBe(2)
    kit.stop()
  })
})

describe('the login frame failed to load', () => {
  it('"Try again" clears EMBEDDED_WALLET_LOAD_FAILED (a new failure raises it again); other alerts stay', async () => {
    const frame = createMachine({})
    const machine = kitMachine.provide({
      actors: { loadEmbedded: fromPromise(async () => ({ logic: frame, restored: undefined })) as never },
    })
    const kit = createActor(machine, { input: kitTestInput('frame-retry') }).start()
    kit.send({ type: 'embedded.load' })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(kit.getSnapshot().matches({ embedded: 'running' })).toBe(true)
    const codes = () => selectAlerts(kit.getSnapshot()).map((a) => a.code)
    const failed = {
      type: 'embedded.failed',
      error: { name: 'FrameLoadError', message: 'Unable to load email login dependency' },
      alert: ALERTS.EMBEDDED_WALLET_LOAD_FAILED,
    } as const
    kit.send(failed)
    kit.send({ type: 'wallets.projectRefused', status: 403 })
    expect(codes()).toEqual(['EMBEDDED_WALLET_LOAD_FAILED', 'INVALID_PROJECT_ID'])
    kit.send({ type: 'frame.retry' })
    expect(codes()).toEqual(['INVALID_PROJECT_ID'])
    kit.send(failed)
    expect(codes()).toEqual(['INVALID_PROJECT_ID', 'EMBEDDED_WALLET_LOAD_FAILED'])
    kit.stop()
  })
})

describe('a wallet request runs out of time', () => {
  // One payment, one transaction: the embedded wallet's request left open at the time limit is withdrawn, so the
  // request sent again is the only one the visitor can approve (the old kit only raised the alert).
  it('the login frame is told to withdraw its open signing requests, beside REQUEST_TIMED_OUT', async () => {
    const told: string[] = []
    const frame = createMachine({ on: { '*': { actions: ({ event }) => told.push(event.type) } } })
    const machine = kitMachine.provide({
      actors: { loadEmbedded: fromPromise(async () => ({ logic: frame, restored: undefined })) as never },
    })
    const kit = createActor(machine, { input: kitTestInput('withdraw') }).start()
    // No frame yet: only the alert.
    kit.send({ type: 'request.timedOut', request: 'send' })
    expect(selectAlerts(kit.getSnapshot()).map((a) => a.code)).toContain('REQUEST_TIMED_OUT')
    kit.send({ type: 'embedded.load' })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(told).not.toContain('frame.rejectRpcRequests')
    kit.send({ type: 'request.timedOut', request: 'send' })
    expect(told).toContain('frame.rejectRpcRequests')
    kit.stop()
  })
})

describe('the WalletConnect session ends', () => {
  function kitConnectedThroughWalletConnect() {
    const account = testAccount('walletConnect')
    const connection = connectionMachine.provide({
      actors: {
        reconnect: fromPromise<ReconnectOutput>(async () => ({
          account,
          connections: { [account.connectorId]: { accounts: account.addresses, chainId: account.chainId } },
          recentWallets: [],
        })),
      },
    })
    return createActor(kitMachine.provide({ actors: { connection } }), {
      input: kitTestInput('expiry'),
    }).start()
  }
  const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

  it('by its expiry: disconnected, and SESSION_EXPIRED is shown (SPEC §8)', async () => {
    const kit = kitConnectedThroughWalletConnect()
    await flush()
    expect(kit.getSnapshot().context.connected?.connectorId).toBe('walletConnect')
    kit.send({ type: 'remoteSessions.sessionEnded', topic: 't', outcome: 'expired' })
    await flush()
    expect(kit.getSnapshot().context.connected).toBeUndefined()
    expect(selectAlerts(kit.getSnapshot())).toContainEqual(ALERTS.SESSION_EXPIRED)
    kit.stop()
  })

  it('deleted by the wallet: disconnected, no session-expired alert', async () => {
    const kit = kitConnectedThroughWalletConnect()
    await flush()
    kit.send({ type: 'remoteSessions.sessionEnded', topic: 't', outcome: 'peerDisconnected' })
    await flush()
    expect(kit.getSnapshot().context.connected).toBeUndefined()
    expect(selectAlerts(kit.getSnapshot()).map((a) => a.code)).not.toContain('SESSION_EXPIRED')
    kit.stop()
  })
})

describe('the page’s domain for a WalletConnect pairing (SPEC §3 Verify context)', () => {
  const URI = `wc:${'ab'.repeat(32)}@2?relay-protocol=irn&symKey=${'cd'.repeat(32)}`
  function kitPairing(answer: DomainVerification | Error) {
    const asked: string[] = []
    const connection = connectionMachine.provide({
      actors: {
        reconnect: fromPromise<ReconnectOutput>(async () => ({
          account: undefined,
          connections: {},
          recentWallets: [],
        })),
        connect: fromPromise<ConnectOutput, { connectorId: string }>(() => new Promise(() => {})),
        watchPairing: fromCallback<ConnectionEvent, { connectorId: string }>(({ sendBack }) => {
          sendBack({ type: 'connection.wcUri', uri: URI, expiry: Date.now() + 300_000 })
          return () => {}
        }),
        verifyDomain: fromPromise<DomainVerification, { uri: string }>(async ({ input }) => {
          asked.push(input.uri)
          if (answer instanceof Error) throw answer
          return answer
        }),
      },
    })
    const kit = createActor(kitMachine.provide({ actors: { connection } }), {
      input: kitTestInput('verify'),
    }).start()
    return { kit, asked }
  }
  const flush = () => new Promise((resolve) => setTimeout(resolve, 0))
  const connect = (kit: ReturnType<typeof kitPairing>['kit']) =>
    kit.send({
      type: 'wallet.select',
      wallet: { id: 'walletConnect', name: 'WalletConnect', connectorId: 'walletConnect' },
    } as never)

  for (const [name, answer, alerted] of [
    [
      'not one of the project’s domains (INVALID): UNVERIFIED_DOMAIN',
      { validation: 'INVALID', isScam: false },
      true,
    ],
    ['a known scam, even if listed: UNVERIFIED_DOMAIN', { validation: 'VALID', isScam: true }, true],
    ['VALID: no alert', { validation: 'VALID', isScam: false }, false],
    ['UNKNOWN (the project lists no domains): no alert', { validation: 'UNKNOWN', isScam: false }, false],
  ] as const) {
    it(name, async () => {
      const { kit, asked } = kitPairing({ origin: 'http://127.0.0.1:5173', ...answer })
      await flush()
      connect(kit)
      await flush()
      await flush()
      expect(asked).toEqual([URI])
      const codes = selectAlerts(kit.getSnapshot()).map((a) => a.code)
      expect(codes.includes('UNVERIFIED_DOMAIN')).toBe(alerted)
      kit.stop()
    })
  }

  it('no answer from the Verify service: UNKNOWN, no alert', async () => {
    const { kit, asked } = kitPairing(new Error('Verify unreachable'))
    await flush()
    connect(kit)
    await flush()
    await flush()
    expect(asked).toEqual([URI])
    expect(selectAlerts(kit.getSnapshot()).map((a) => a.code)).not.toContain('UNVERIFIED_DOMAIN')
    kit.stop()
  })
})

/** A kit connected at start through `connectorId` (the real connection machine), its switches recorded. */
function kitConnectedThrough(connectorId: string) {
  const account = testAccount(connectorId)
  const switches: ChainId[] = []
  const connection = connectionMachine.provide({
    actors: {
      reconnect: fromPromise<ReconnectOutput>(async () => ({
        account,
        connections: { [account.connectorId]: { accounts: account.addresses, chainId: account.chainId } },
        recentWallets: [],
      })),
      switchChain: fromPromise<ChainId, { chainId: ChainId }>(async ({ input }) => {
        switches.push(input.chainId)
        return input.chainId
      }),
    },
  })
  const kit = createActor(kitMachine.provide({ actors: { connection } }), {
    input: kitTestInput('network-not-found'),
  }).start()
  return { kit, switches }
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('a network switch to a chain the app did not configure', () => {
  it('shows NETWORK_NOT_FOUND and never asks the wallet; a configured chain is switched to (SPEC §8)', async () => {
    const { kit, switches } = kitConnectedThrough('injected')
    await settle()
    expect(kit.getSnapshot().context.connected?.connectorId).toBe('injected')
    kit.send({ type: 'connection.switchChain', chainId: 1 })
    await settle()
    expect(selectAlerts(kit.getSnapshot())).toContainEqual(ALERTS.NETWORK_NOT_FOUND)
    expect(ALERTS.NETWORK_NOT_FOUND.shortMessage).toBe('Network Not Found')
    expect(switches).toEqual([])
    expect(kit.getSnapshot().children.connection!.getSnapshot().matches({ connected: 'idle' })).toBe(true)
    // The app's own network goes to the wallet as before.
    kit.send({ type: 'connection.switchChain', chainId: 31337 })
    await settle()
    expect(switches).toEqual([31337])
    kit.stop()
  })

  it('a configured chain raises no alert', async () => {
    const { kit } = kitConnectedThrough('injected')
    await settle()
    kit.send({ type: 'connection.switchChain', chainId: 31337 })
    await settle()
    expect(selectAlerts(kit.getSnapshot()).map((a) => a.code)).not.toContain('NETWORK_NOT_FOUND')
    kit.stop()
  })
})

describe('an embedded-wallet-only action without the embedded wallet', () => {
  const toastOf = (kit: ReturnType<typeof kitConnectedThrough>['kit']) =>
    (kit.system.get('toast') as ActorRefFrom<typeof toastMachine>).getSnapshot().context.current

  it('updating the e-mail or the account type while connected through another wallet is "Address or auth connector not found"', async () => {
    const { kit } = kitConnectedThrough('injected')
    await settle()
    kit.send({ type: 'frame.updateEmail', email: 'new@example.com' })
    expect(toastOf(kit)).toEqual({ variant: 'error', message: 'Address or auth connector not found' })
    kit.send({ type: 'toast.hide' })
    kit.send({ type: 'frame.setAccountType', accountType: 'eoa' })
    expect(toastOf(kit)).toEqual({ variant: 'error', message: 'Address or auth connector not found' })
    kit.stop()
  })

  it('connected through the embedded wallet, no such error', async () => {
    const { kit } = kitConnectedThrough('walletstateEmbedded')
    await settle()
    kit.send({ type: 'frame.updateEmail', email: 'new@example.com' })
    expect(toastOf(kit)).toBeUndefined()
    kit.stop()
  })
})
