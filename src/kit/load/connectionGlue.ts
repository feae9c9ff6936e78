import type { ActorRefFrom } from 'xstate'
import type { CapabilityKit } from '../../machines/capability'
import type { ChainNamespace, ConnectorInfo, defineConnectionMachine } from '../../machines/connection'
import { followConnectorsOf } from '../followConnectors'

/**
 * The glue of a namespace's connection capability (Solana's, Bitcoin's), as createKit's followers are the eip155
 * connection's: its connectors for Connect (now, and whenever they change), and its failures for the kit's error
 * telemetry (SPEC §7: a connect declined or failed on any namespace is reported, not only on eip155). A module of
 * its own, loaded with those capabilities: not in the first click.
 */
export function connectionGlueOf(namespace: ChainNamespace) {
  return (connection: ActorRefFrom<ReturnType<typeof defineConnectionMachine>>, kit: CapabilityKit) => {
    const tell = (connectors: readonly ConnectorInfo[]) =>
      kit.send({ type: 'kit.connectors', connectors, namespace })
    const now = connection.getSnapshot().context.connectors
    if (now.length > 0) tell(now)
    const stop = followConnectorsOf(connection, tell)
    const failures = connection.on('connection.failed', ({ event, report }) =>
      kit.send({ type: 'kit.reportError', event, report }),
    )
    return () => {
      stop()
      failures.unsubscribe()
    }
  }
}
