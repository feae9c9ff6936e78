import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A local HTTP server (127.0.0.1, port 0) that answers what a test scripts, hostile answers included, and
 * records what was asked: a Data API client's tests at its boundary (src/api/*.test.ts).
 */

/** One request as the server saw it. */
export interface Asked {
  method: string
  path: string
  query: Record<string, string>
  body: unknown
}

/** The scripted answer: a status and a JSON body, a raw text body, or `'hang'` (never answered). */
export type ScriptedAnswer = { status?: number; body?: unknown; raw?: string } | 'hang'

export interface ScriptedServer {
  /** The server's URL with `path` (`http://127.0.0.1:<port>/api`). */
  base: string
  close(): Promise<void>
}

async function read(request: IncomingMessage): Promise<string> {
  const parts: Buffer[] = []
  for await (const chunk of request) parts.push(chunk as Buffer)
  return Buffer.concat(parts).toString('utf8')
}

/** Starts the server: each request is pushed to `asked`, then answered by `answer`. */
export async function startScriptedServer(
  answer: (asked: Asked) => ScriptedAnswer,
  asked: Asked[],
  path = '/api',
): Promise<ScriptedServer> {
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost')
    const text = await read(request)
    const entry: Asked = {
      method: request.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: text ? JSON.parse(text) : undefined,
    }
    asked.push(entry)
    const scripted = answer(entry)
    if (scripted === 'hang') return
    response.writeHead(scripted.status ?? 200, { 'content-type': 'application/json' })
    response.end(scripted.raw ?? JSON.stringify(scripted.body))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
