import type { KitRootProps } from '../src/react'

/** Records held while the socket opens; past it the oldest go (a socket that never opens holds no more). */
const MAX_PENDING = 10_000

/**
 * Streams the kit's records (`createRecorder`, the recording format) to the local inspector server at `url`,
 * one JSON text per record. Records made before the socket opens are sent once it does; once it has closed,
 * records are dropped. The recorder's code loads only when this is called.
 */
export async function streamToInspector(url: string): Promise<NonNullable<KitRootProps['inspect']>> {
  const { createRecorder } = await import('../src/recording/recorder')
  const socket = new WebSocket(url)
  let pending: string[] = []
  socket.addEventListener('open', () => {
    for (const text of pending) socket.send(text)
    pending = []
  })
  socket.addEventListener('close', () => {
    pending = []
  })
  const send = (text: string) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(text)
    else if (socket.readyState === WebSocket.CONNECTING) {
      pending.push(text)
      if (pending.length > MAX_PENDING) pending.shift()
    }
  }
  const recorder = createRecorder({ onRecord: (record) => send(JSON.stringify(record)) })
  return recorder.inspect
}
