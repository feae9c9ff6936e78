import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { registerAttestation } from '../../src/api/verify'
import { VerifyApiError } from '../../src/errors/api'
import { type Relay, startRelay } from './relay.ts'

/**
 * The relay's Verify stand-in (SPEC §3 Verify context) against the kit's own client (src/api/verify.ts): the
 * page's origin comes from the Origin header a browser sets, the answer is how wallets will see it, and a wallet
 * reads the same attestation by pairing topic.
 */
describe('Verify stand-in on the relay', () => {
  let relay: Relay
  const PAGE = 'http://127.0.0.1:5173'
  const topic = (n: number) => n.toString(16).padStart(64, '0')
  const uri = (n: number) => `wc:${topic(n)}@2?relay-protocol=irn&symKey=${'ef'.repeat(32)}&expiryTimestamp=1`
  /** `fetch` as a page on `origin` calls it: the browser adds the Origin header. */
  const fromPage =
    (origin: string): typeof fetch =>
    (input, init) =>
      fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), origin } })
  const register = (n: number, origin = PAGE) =>
    registerAttestation({ verifyUrl: relay.origin, projectId: 'p1', uri: uri(n), fetch: fromPage(origin) })
  const control = (body: unknown, origin?: string) =>
    fetch(`${relay.origin}/__verify`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: origin ? { origin } : {},
    })

  beforeAll(async () => {
    relay = await startRelay()
  })
  afterAll(async () => {
    await relay.close()
  })
  afterEach(async () => {
    relay.verify.setProjectDomains(() => [])
    expect((await control({ scamOrigins: [], verifiedDomains: null })).status).toBe(200)
  })

  it('a project without verified domains: UNKNOWN', async () => {
    expect(await register(1)).toEqual({ origin: PAGE, validation: 'UNKNOWN', isScam: false })
  })

  it("VALID on one of the project's domains (patterns too), INVALID elsewhere", async () => {
    relay.verify.setProjectDomains((projectId) => (projectId === 'p1' ? ['http://127.0.0.1:*'] : []))
    expect((await register(2)).validation).toBe('VALID')
    expect(await register(3, 'https://evil.example')).toEqual({
      origin: 'https://evil.example',
      validation: 'INVALID',
      isScam: false,
    })
  })

  it('a scam origin is flagged whatever its validation; the control is for Node only', async () => {
    expect((await control({ scamOrigins: ['https://evil.example'] }, PAGE)).status).toBe(403)
    expect((await register(4, 'https://evil.example')).isScam).toBe(false)
    expect((await control({ scamOrigins: ['https://evil.example'] })).status).toBe(200)
    expect((await register(5, 'https://evil.example')).isScam).toBe(true)
    expect((await control({ scamOrigins: ['not an origin'] })).status).toBe(400)
  })

  it('a wallet reads the attestation by pairing topic; a second page cannot take the topic over', async () => {
    expect((await control({ verifiedDomains: [PAGE] })).status).toBe(200)
    await register(6)
    await register(6, 'https://evil.example')
    const read = await fetch(`${relay.origin}/v1/attestation/${topic(6)}`)
    expect(await read.json()).toEqual({ origin: PAGE, validation: 'VALID', isScam: false })
    expect((await fetch(`${relay.origin}/v1/attestation/${topic(7)}`)).status).toBe(404)
  })

  it('only a page registers, with a pairing topic; the symmetric key never leaves the page', async () => {
    // Node sends no Origin: refused, as a request from no page.
    await expect(
      registerAttestation({ verifyUrl: relay.origin, projectId: 'p1', uri: uri(8) }),
    ).rejects.toBeInstanceOf(VerifyApiError)
    await expect(
      registerAttestation({
        verifyUrl: relay.origin,
        projectId: 'p1',
        uri: 'wc:nope@2',
        fetch: fromPage(PAGE),
      }),
    ).rejects.toMatchObject({ kind: 'input' })
    let sent = ''
    await registerAttestation({
      verifyUrl: relay.origin,
      projectId: 'p1',
      uri: uri(9),
      fetch: (input, init) => {
        sent = `${String(input)} ${String(init?.body)}`
        return fromPage(PAGE)(input, init)
      },
    })
    expect(sent).toContain(topic(9))
    expect(sent).not.toContain('ef'.repeat(32))
  })

  it('answers of the wrong shape or no answer are errors, never a verdict', async () => {
    const answering =
      (body: unknown, status = 200): typeof fetch =>
      async () =>
        new Response(JSON.stringify(body), { status })
    for (const body of [
      {},
      { origin: PAGE, validation: 'OK', isScam: false },
      { origin: PAGE, validation: 'VALID' },
    ]) {
      await expect(
        registerAttestation({
          verifyUrl: relay.origin,
          projectId: 'p1',
          uri: uri(10),
          fetch: answering(body),
        }),
      ).rejects.toMatchObject({ kind: 'malformed' })
    }
    relay.fault.set({ mode: 'stall', path: '/v1/attestation' })
    await expect(
      registerAttestation({
        verifyUrl: relay.origin,
        projectId: 'p1',
        uri: uri(11),
        fetch: fromPage(PAGE),
        timeoutMs: 200,
      }),
    ).rejects.toMatchObject({ kind: 'timeout' })
    relay.fault.set({ mode: 'off' })
  })
})
