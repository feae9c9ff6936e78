import { describe, expect, it } from 'vitest'
import { type ActorRefFrom, createActor, fromPromise, SimulatedClock } from 'xstate'
import { CONNECT_TIMEOUT_MS, DISCONNECT_TIMEOUT_MS } from '../../src/constants'
import { ALERTS } from '../../src/errors/base'
import { type ConnectOutput, connectionMachine, type ReconnectOutput } from '../../src/machines/connection'
import { type KitEvent, kitMachine, selectAlerts } from '../../src/machines/kit'
import type { toastMachine } from '../../src/machines/toast'
import { kitTestInput, testAccount } from './kit.fixtures'

/**
 * The kit with its real connection and toast machines, over a wallet that never answers (issue 13 item 2):
 * what the visitor sees when a time limit runs out. The wallet slots are promises that never settle (a hostile
 * wallet); the clock is simulated, so the time limits are the machine's own.
 */
const never = <T>() => new Promise<T>(() => {})

function kitOverSilentWallet(connected: boolean) {
  const clock = new SimulatedClock()
  const account = testAccount('io.metamask')
  const connection = connectionMachine.provide({
    actors: {
      reconnect: fromPromise<ReconnectOutput>(async () =>
        connected
          ? {
              account,
              connections: {
                [account.connectorId]: { accounts: account.addresses, chainId: account.chainId },
              },
              recentWallets: [],
            }
          : { account: undefined, connections: {}, recentWallets: [] },
      ),
      connect: fromPromise<ConnectOutput, { connectorId: string }>(() => never()),
      disconnect: fromPromise<void, { connectorId: string | undefined }>(() => never()),
    },
  })
  const kit = createActor(kitMachine.provide({ actors: { connection } }), {
    input: kitTestInput('timeouts'),
    clock,
  }).start()
  const child = () => kit.getSnapshot().children.connection as ActorRefFrom<typeof connection>
  const toast = () => kit.getSnapshot().children.toast as ActorRefFrom<typeof toastMachine>
  return { kit, clock, child, toast, send: (event: KitEvent) => kit.send(event) }
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('the kit over a wallet that never answers', () => {
  it('a connect request times out: the connection fails clearly and REQUEST_TIMED_OUT is shown', async () => {
    const t = kitOverSilentWallet(false)
    await flush()
    expect(t.child().getSnapshot().value).toEqual({ disconnected: 'idle' })
    t.send({ type: 'connection.connect', connectorId: 'io.metamask' })
    t.clock.increment(CONNECT_TIMEOUT_MS - 1)
    expect(selectAlerts(t.kit.getSnapshot()).map((a) => a.code)).not.toContain('REQUEST_TIMED_OUT')
    t.clock.increment(1)
    expect(t.child().getSnapshot().value).toEqual({ disconnected: 'failed' })
    expect(t.child().getSnapshot().context.error?.name).toBe('ConnectTimeoutError')
    expect(selectAlerts(t.kit.getSnapshot())).toContainEqual(ALERTS.REQUEST_TIMED_OUT)
    t.kit.stop()
  })

  it('a send request times out: the same alert (the send flow’s notice, through its follower)', () => {
    const t = kitOverSilentWallet(false)
    t.send({ type: 'request.timedOut', request: 'send' })
    expect(selectAlerts(t.kit.getSnapshot())).toContainEqual(ALERTS.REQUEST_TIMED_OUT)
    // Shown once, however often it happens.
    t.send({ type: 'request.timedOut', request: 'send' })
    expect(selectAlerts(t.kit.getSnapshot()).filter((a) => a.code === 'REQUEST_TIMED_OUT')).toHaveLength(1)
    t.kit.stop()
  })

  it('a disconnect that never settles reaches disconnected; "Failed to disconnect" is toasted', async () => {
    const t = kitOverSilentWallet(true)
    await flush()
    expect(t.child().getSnapshot().value).toEqual({ connected: 'idle' })
    expect(t.kit.getSnapshot().context.connected).toBeDefined()
    t.send({ type: 'connection.disconnect' })
    t.clock.increment(DISCONNECT_TIMEOUT_MS)
    expect(t.child().getSnapshot().value).toEqual({ disconnected: 'idle' })
    expect(t.kit.getSnapshot().context.connected).toBeUndefined()
    expect(t.toast().getSnapshot().context.current).toEqual({
      variant: 'error',
      message: 'Failed to disconnect',
    })
    t.kit.stop()
  })
})
