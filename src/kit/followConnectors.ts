import type { ConnectorInfo } from '../machines/connection'

/**
 * Calls `onChange` with a connection's connectors whenever they change (the eip155 connection's follower in
 * createKit, Solana's connection capability's glue); returns the stop.
 */
export function followConnectorsOf(
  connection: unknown,
  onChange: (connectors: readonly ConnectorInfo[]) => void,
): () => void {
  const actor = connection as
    | {
        subscribe: (fn: (s: { context: { connectors: readonly ConnectorInfo[] } }) => void) => {
          unsubscribe(): void
        }
      }
    | undefined
  let last: readonly ConnectorInfo[] | undefined
  const subscription = actor?.subscribe((snapshot) => {
    if (snapshot.context.connectors === last) return
    last = snapshot.context.connectors
    onChange(last)
  })
  return () => subscription?.unsubscribe()
}
