import * as v from 'valibot'
import { errorJson, type SandboxHandler, type SandboxRequest, type SandboxResponse } from '../shared/http.ts'

/** The three query parameters every provider API call carries (SPEC §7): project id, sdk type, sdk version. */
export interface SdkParams {
  projectId: string
  /** sdk type, e.g. `appkit` */
  st: string
  /** sdk version, e.g. `react-wagmi-1.0.0` */
  sv: string
}

/** The names, in the order they are checked, so the error names the first one missing. */
const SDK_PARAM_NAMES = ['projectId', 'st', 'sv'] as const

/** Generous bound: real values are a 32-hex id and short version strings. */
const MAX_SDK_PARAM_LENGTH = 200

export interface RouteContext {
  req: SandboxRequest
  /** Capture groups of the route's pattern, URL-decoded. */
  params: string[]
  /** Present on every route that does not opt out with `sdkParams: false`. */
  sdk: SdkParams
}

export interface Route {
  method: 'GET' | 'POST'
  /** Matched against the whole pathname. */
  pattern: RegExp
  /** `false` for sandbox-only paths (inspection, icons) that the kit never calls with SDK parameters. */
  sdkParams?: boolean
  handle(ctx: RouteContext): Promise<SandboxResponse> | SandboxResponse
}

export interface RouterOptions {
  /** When set, SDK calls with any other project id are refused with 403 ("invalid project id", SPEC §8). */
  projectIds?: readonly string[]
}

/**
 * Reads and checks the SDK query parameters; answers the 400 to send when one is missing or unusable.
 *
 * @example
 * const checked = readSdkParams(new URL('http://x/getWallets?projectId=p&st=appkit'))
 * // { error: { status: 400, json: { error: 'Missing query parameter: sv', ... } } }
 */
export function readSdkParams(url: URL): { sdk: SdkParams } | { error: SandboxResponse } {
  const values: Partial<Record<(typeof SDK_PARAM_NAMES)[number], string>> = {}
  for (const name of SDK_PARAM_NAMES) {
    const value = url.searchParams.get(name)
    if (value === null || value.trim() === '') {
      return { error: errorJson(400, `Missing query parameter: ${name}`, { parameter: name }) }
    }
    if (value.length > MAX_SDK_PARAM_LENGTH) {
      return { error: errorJson(400, `Query parameter too long: ${name}`, { parameter: name }) }
    }
    values[name] = value
  }
  return { sdk: { projectId: values.projectId!, st: values.st!, sv: values.sv! } }
}

/**
 * Builds a sandbox handler from a route table: unknown paths fall through to the service's 404, a known path
 * with the wrong method answers 405, and every SDK route is refused with 400 unless it carries projectId, st
 * and sv.
 *
 * @example
 * startService({ name: 'x', handler: createRouter([{ method: 'GET', pattern: /^\/ping$/, handle: () => ({ json: 1 }) }]) })
 */
export function createRouter(routes: readonly Route[], options: RouterOptions = {}): SandboxHandler {
  return async (req) => {
    const path = req.url.pathname
    const allowed: string[] = []
    for (const route of routes) {
      const match = route.pattern.exec(path)
      if (!match) continue
      if (route.method !== req.method) {
        allowed.push(route.method)
        continue
      }
      let params: string[]
      try {
        params = match.slice(1).map((part) => decodeURIComponent(part ?? ''))
      } catch {
        return errorJson(400, 'Malformed percent-encoding in path')
      }
      let sdk: SdkParams = { projectId: '', st: '', sv: '' }
      if (route.sdkParams !== false) {
        const checked = readSdkParams(req.url)
        if ('error' in checked) return checked.error
        sdk = checked.sdk
        if (options.projectIds && !options.projectIds.includes(sdk.projectId)) {
          return errorJson(403, 'Invalid project id', { parameter: 'projectId' })
        }
      }
      return route.handle({ req, params, sdk })
    }
    if (allowed.length > 0) {
      return {
        ...errorJson(405, `Method ${req.method} not allowed on ${path}`),
        headers: { Allow: allowed.join(', ') },
      }
    }
    return undefined
  }
}

/** Parses a JSON body against a schema, answering the 400 to send when it is not JSON or does not fit. */
export function parseBody<S extends v.GenericSchema>(
  body: string,
  schema: S,
  what: string,
): { value: v.InferOutput<S> } | { error: SandboxResponse } {
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    return { error: errorJson(400, `${what} body must be JSON`) }
  }
  const result = v.safeParse(schema, json)
  if (!result.success) return { error: errorJson(400, `Invalid ${what} body: ${v.summarize(result.issues)}`) }
  return { value: result.output }
}

/** Parses selected query parameters against a schema (absent parameters are `undefined`). */
export function parseQuery<S extends v.GenericSchema>(
  url: URL,
  names: readonly string[],
  schema: S,
): { value: v.InferOutput<S> } | { error: SandboxResponse } {
  const raw: Record<string, string | undefined> = {}
  for (const name of names) raw[name] = url.searchParams.get(name) ?? undefined
  const result = v.safeParse(schema, raw)
  if (!result.success) {
    const issue = result.issues[0]
    const key = issue.path?.map((item) => String(item.key)).join('.')
    return { error: errorJson(400, `Invalid query parameter${key ? ` ${key}` : ''}: ${issue.message}`) }
  }
  return { value: result.output }
}

/** 502 for a call the chain did not answer, with the first line of what went wrong. */
export function chainUnavailable(error: unknown): SandboxResponse {
  const detail = error instanceof Error ? error.message.split('\n')[0] : String(error)
  return errorJson(502, `Chain RPC unavailable: ${detail}`)
}
