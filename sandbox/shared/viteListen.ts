import type { ViteDevServer } from 'vite'

/** How many times a free port is asked for again when another process took the one Vite probed. */
const FREE_PORT_ATTEMPTS = 5

/**
 * Starts a Vite dev server listening. Asked for port 0 (a free one), Vite probes for a free port and then binds
 * it: between the two, another process on this shared machine can take it ("Port N is already in use"). Only that
 * error, and only for port 0, is answered by asking again; a fixed port that is taken fails at once.
 *
 * @example
 * await listenOnFreePort(server, 0)
 */
export async function listenOnFreePort(server: ViteDevServer, port: number): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await server.listen()
      return
    } catch (error) {
      const taken = error instanceof Error && /^Port \d+ is already in use$/.test(error.message)
      if (port !== 0 || !taken || attempt >= FREE_PORT_ATTEMPTS) throw error
    }
  }
}
