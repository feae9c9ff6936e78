import * as v from 'valibot'
import { originMatches } from '../secure-site/shared.ts'
import { errorJson, type SandboxRequest, type SandboxResponse } from '../shared/http.ts'

/**
 * The relay's Verify stand-in (SPEC §3 "Verify context: origin, validation (VALID, INVALID, UNKNOWN),
 * isScam"), the local double of WalletConnect's hosted Verify service.
 *
 * - `POST /v1/attestation?projectId=…` `{ pairingTopic }` from a page: records the page's origin, taken from the
 *   browser's `Origin` header (page script cannot forge it), for that pairing, and answers how wallets will see
 *   it: `VALID` when the origin is one of the project's verified domains, `INVALID` when the project lists
 *   domains and this is not one, `UNKNOWN` when it lists none; `isScam` when the origin is on the scam list.
 * - `GET /v1/attestation/{pairingTopic}`: what a wallet reads for a proposal on that pairing (404 when none).
 * - `POST /__verify` `{ scamOrigins?, verifiedDomains? }` (Node only): the scam list, and verified domains that
 *   replace the project's (`null` goes back to the project's).
 *
 * The project's verified domains are its allowed origins on the wallet-listing API (the sandbox wires that
 * lookup once the listing API runs; until then every domain is UNKNOWN).
 */

/** Path of the sandbox-only control; the relay lists it as private (Node only). */
export const VERIFY_CONTROL_PATH = '/__verify'

/** Attestations kept at most; the oldest goes first. Bounds memory whatever pages post. */
const MAX_ATTESTATIONS = 10_000
/** An attestation outlives its pairing URI (5 min) a little. */
const ATTESTATION_TTL_MS = 10 * 60_000

export type Validation = 'VALID' | 'INVALID' | 'UNKNOWN'

export interface Attestation {
  origin: string
  validation: Validation
  isScam: boolean
}

const RegisterSchema = v.strictObject({ pairingTopic: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)) })
const OriginSchema = v.pipe(v.string(), v.maxLength(2_048), v.regex(/^https?:\/\/[^/\s]+$/))
const ControlSchema = v.strictObject({
  scamOrigins: v.optional(v.pipe(v.array(OriginSchema), v.maxLength(1_000))),
  verifiedDomains: v.optional(
    v.nullable(v.pipe(v.array(v.pipe(v.string(), v.maxLength(2_048))), v.maxLength(1_000))),
  ),
})

export class VerifyService {
  readonly #attestations = new Map<string, Attestation & { expiresAt: number }>()
  #scam = new Set<string>()
  #override: string[] | null = null
  #projectDomains: (projectId: string) => string[] = () => []
  readonly #now: () => number

  constructor(now: () => number = Date.now) {
    this.#now = now
  }

  /** Where a project's verified domains come from (the listing API's allowed origins in the sandbox). */
  setProjectDomains(lookup: (projectId: string) => string[]): void {
    this.#projectDomains = lookup
  }

  /** Changes the scam list and the verified domains (`null`: the project's again). */
  configure(control: v.InferOutput<typeof ControlSchema>): void {
    if (control.scamOrigins) this.#scam = new Set(control.scamOrigins)
    if (control.verifiedDomains !== undefined) this.#override = control.verifiedDomains
  }

  /** How wallets see `origin` for `projectId`. */
  judge(projectId: string, origin: string): Attestation {
    const domains = this.#override ?? this.#projectDomains(projectId)
    const validation: Validation =
      domains.length === 0 ? 'UNKNOWN' : domains.some((d) => originMatches(d, origin)) ? 'VALID' : 'INVALID'
    return { origin, validation, isScam: this.#scam.has(origin) }
  }

  /** The attestation recorded for a pairing topic, if any and not expired. */
  attestation(pairingTopic: string): Attestation | undefined {
    const entry = this.#attestations.get(pairingTopic)
    if (!entry) return undefined
    if (entry.expiresAt <= this.#now()) {
      this.#attestations.delete(pairingTopic)
      return undefined
    }
    const { expiresAt: _, ...attestation } = entry
    return attestation
  }

  /** Answers the Verify routes and the control; `undefined` for any other path. */
  handle(req: SandboxRequest): SandboxResponse | undefined {
    const path = req.url.pathname
    if (path === VERIFY_CONTROL_PATH && req.method === 'POST') {
      const parsed = v.safeParse(ControlSchema, parseJson(req.body))
      if (!parsed.success) return errorJson(400, `Invalid Verify control: ${v.summarize(parsed.issues)}`)
      this.configure(parsed.output)
      return { json: { scamOrigins: [...this.#scam], verifiedDomains: this.#override } }
    }
    if (path === '/v1/attestation' && req.method === 'POST') {
      const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined
      if (!origin || !v.is(OriginSchema, origin)) {
        return errorJson(400, 'An attestation is registered by a page: the request has no Origin')
      }
      const projectId = req.url.searchParams.get('projectId') ?? ''
      if (projectId === '') return errorJson(400, 'projectId is required')
      const parsed = v.safeParse(RegisterSchema, parseJson(req.body))
      if (!parsed.success) return errorJson(400, `Invalid attestation: ${v.summarize(parsed.issues)}`)
      const attestation = this.judge(projectId, origin)
      this.#remember(parsed.output.pairingTopic, attestation)
      return { json: attestation }
    }
    const match = /^\/v1\/attestation\/([0-9a-f]{64})$/.exec(path)
    if (match && req.method === 'GET') {
      const attestation = this.attestation(match[1]!)
      return attestation ? { json: attestation } : errorJson(404, 'No attestation for this pairing')
    }
    return undefined
  }

  #remember(pairingTopic: string, attestation: Attestation): void {
    // A pairing keeps the first page that attested it: a second page cannot take over a topic it learnt.
    if (this.attestation(pairingTopic)) return
    if (this.#attestations.size >= MAX_ATTESTATIONS) {
      const oldest = this.#attestations.keys().next().value
      if (oldest !== undefined) this.#attestations.delete(oldest)
    }
    this.#attestations.set(pairingTopic, { ...attestation, expiresAt: this.#now() + ATTESTATION_TTL_MS })
  }
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body)
  } catch {
    return undefined
  }
}
