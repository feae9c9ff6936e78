import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { type InspectorServer, startInspectorServer } from './server.ts'

let server: InspectorServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function open(url: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  const ws = new WebSocket(url, { headers })
  await new Promise((resolve, reject) => {
    ws.once('open', resolve)
    ws.once('error', reject)
  })
  return ws
}

describe('the inspector server', () => {
  it('keeps the headers, machines and actors a late viewer needs when the buffer is full', async () => {
    server = await startInspectorServer({ bufferBytes: 20_000 })
    const page = await open(server.url)
    const send = (record: object) => page.send(JSON.stringify({ rid: 'r', ...record }))
    send({ type: '@walletstate.recording', seq: 1, startedAt: 'now' })
    send({ type: '@walletstate.machine', seq: 2, machine: { id: 'm', hash: 'h' } })
    send({ type: '@xstate.actor', seq: 3, sessionId: 'x:0', id: 'x:0' })
    for (let seq = 4; seq < 1_004; seq += 1) {
      send({ type: '@xstate.event', seq, sessionId: 'x:0', event: { type: 'tick', padding: 'x'.repeat(40) } })
    }
    await expect.poll(() => (server!.records().at(-1) as { seq: number }).seq).toBe(1_003)
    const kept = server.records() as { seq: number; type: string }[]
    expect(kept.slice(0, 3).map((r) => r.type)).toEqual([
      '@walletstate.recording',
      '@walletstate.machine',
      '@xstate.actor',
    ])
    expect(kept.length).toBeLessThan(300)
    // The newest survive, in order.
    const seqs = kept.map((r) => r.seq)
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b))
    expect(JSON.stringify(kept).length).toBeLessThan(20_000)

    // A viewer connecting now gets the same records.
    const viewer = new WebSocket(server.url)
    const received: { seq: number }[] = []
    viewer.on('message', (data) => received.push(JSON.parse(String(data))))
    await new Promise((resolve) => viewer.once('open', resolve))
    await expect.poll(() => received.length).toBe(kept.length)
    expect(received.map((r) => r.seq)).toEqual(seqs)
    page.close()
    viewer.close()
  })

  it('serves the viewer page, its script and elkjs from its own origin', async () => {
    server = await startInspectorServer()
    const page = await fetch(`${server.origin}/`)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(page.headers.get('content-security-policy')).toBe(
      `default-src 'none'; script-src 'self'; style-src 'self'; connect-src ws://127.0.0.1:${server.port} ws://localhost:${server.port}; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    )
    const html = await page.text()
    expect(html).toContain('<script type="module" src="/viewer.js"></script>')
    const script = await fetch(`${server.origin}/viewer.js`)
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/)
    const code = await script.text()
    // Bundled: no import left to resolve, the DOM code and the layout in one file.
    expect(code).not.toMatch(/^import /m)
    expect(code).toContain('hierarchyHandling')
    const elk = await fetch(`${server.origin}/elk.js`)
    expect(await elk.text()).toContain('ELK')
    expect((await fetch(`${server.origin}/viewer.css`)).headers.get('content-type')).toMatch(/^text\/css/)
  })

  it('refuses sockets from pages on other origins', async () => {
    server = await startInspectorServer()
    await expect(open(server.url, { Origin: 'https://evil.example' })).rejects.toThrow(/403/)
    const own = await open(server.url, { Origin: server.origin })
    own.close()
  })
})
