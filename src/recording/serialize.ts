import type { Json } from './format'

/**
 * Values to JSON and back, for recordings: events carry bigints (amounts), errors, actor refs and, from I/O
 * slots, objects with functions and cycles (a wagmi connector). Every value JSON cannot hold is tagged (see
 * `Json` in `./format`); what cannot come back (a function, a cycle, logic) is named instead.
 */
export interface EncodeOptions {
  /** Called on every string with its property key: returns the string to keep (redaction). */
  string?: (value: string, key: string | undefined) => string | Json
  /** Called on every object property before it is encoded: a value to record instead, or `undefined`. */
  property?: (key: string, value: unknown) => Json | undefined
  /** Deeper values are `{ $truncated: true }`. Default 12. */
  maxDepth?: number
  /** Longer arrays keep their first items and end with `{ $truncated: n }`. Default 500. */
  maxItems?: number
}

export function encode(value: unknown, options: EncodeOptions = {}): Json {
  const maxDepth = options.maxDepth ?? 12
  const maxItems = options.maxItems ?? 500
  const ancestors: object[] = []
  const walk = (value: unknown, key: string | undefined, depth: number): Json => {
    switch (typeof value) {
      case 'string':
        return options.string ? options.string(value, key) : value
      case 'number':
        return Number.isFinite(value) ? value : { $number: String(value) }
      case 'boolean':
        return value
      case 'bigint':
        return { $bigint: value.toString() }
      case 'undefined':
        return { $undefined: true }
      case 'symbol':
        return { $symbol: value.description ?? '' }
      case 'function':
        return { $function: value.name || 'anonymous' }
    }
    if (value === null) return null
    const object = value as object
    if (ancestors.includes(object)) return { $circular: true }
    if (depth >= maxDepth) return { $truncated: true }
    if (isActorRef(object)) return { $actor: object.sessionId }
    if (isLogic(object)) return { $logic: logicName(object) }
    if (object instanceof Date)
      return { $date: Number.isNaN(object.getTime()) ? 'invalid' : object.toISOString() }
    if (object instanceof Uint8Array) return { $bytes: toHex(object) }
    ancestors.push(object)
    try {
      if (object instanceof Error) {
        const fields: { [key: string]: Json } = { name: object.name, message: object.message }
        for (const [k, v] of Object.entries(object)) if (!(k in fields)) fields[k] = property(k, v, depth)
        if ('cause' in object && object.cause !== undefined)
          fields.cause = walk(object.cause, 'cause', depth + 1)
        return { $error: fields }
      }
      if (Array.isArray(object)) {
        const items = object.slice(0, maxItems).map((item) => walk(item, key, depth + 1))
        if (object.length > maxItems) items.push({ $truncated: object.length - maxItems })
        return items
      }
      if (object instanceof Map) return { $map: walk([...object.entries()], key, depth) }
      if (object instanceof Set) return { $set: walk([...object], key, depth) }
      const out: { [key: string]: Json } = {}
      for (const [k, v] of Object.entries(object)) {
        if (v === undefined) continue
        out[k] = property(k, v, depth)
      }
      return out
    } finally {
      ancestors.pop()
    }
  }
  const property = (key: string, value: unknown, depth: number): Json =>
    options.property?.(key, value) ?? walk(value, key, depth + 1)
  return walk(value, undefined, 0)
}

export interface DecodeOptions {
  /** An error class by its recorded `name`, so `instanceof` holds after a replay. */
  errorClass?: (name: string) => (new (...args: never[]) => Error) | undefined
  /** What an actor ref (`{ $actor }`) becomes. Default: the session id string. */
  actor?: (sessionId: string) => unknown
  /** What actor logic (`{ $logic }`) becomes. Default: the name string. */
  logic?: (name: string) => unknown
}

export function decode(json: Json | undefined, options: DecodeOptions = {}): unknown {
  const walk = (value: Json | undefined): unknown => {
    if (value === null || typeof value !== 'object') return value
    if (Array.isArray(value)) return value.map(walk)
    const keys = Object.keys(value)
    if (keys.length === 1) {
      const tag = keys[0]!
      const inner = value[tag]
      switch (tag) {
        case '$bigint':
          return BigInt(String(inner))
        case '$undefined':
          return undefined
        case '$number':
          return Number(inner)
        case '$date':
          return new Date(String(inner))
        case '$bytes':
          return fromHex(String(inner))
        case '$map':
          return new Map(walk(inner) as [unknown, unknown][])
        case '$set':
          return new Set(walk(inner) as unknown[])
        case '$actor':
          return options.actor ? options.actor(String(inner)) : String(inner)
        case '$logic':
          return options.logic ? options.logic(String(inner)) : String(inner)
        case '$error':
          return decodeError(inner, walk, options)
        case '$redacted':
          return `[redacted ${String(inner)}]`
        case '$function':
        case '$symbol':
        case '$circular':
        case '$truncated':
          return undefined
      }
    }
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = walk(v)
    return out
  }
  return walk(json)
}

function decodeError(
  fields: Json | undefined,
  walk: (value: Json | undefined) => unknown,
  options: DecodeOptions,
) {
  const record = fields && typeof fields === 'object' && !Array.isArray(fields) ? fields : {}
  const name = typeof record.name === 'string' ? record.name : 'Error'
  const ErrorClass = options.errorClass?.(name) ?? Error
  const error = Object.create(ErrorClass.prototype) as Error & Record<string, unknown>
  for (const [k, v] of Object.entries(record)) {
    Object.defineProperty(error, k, {
      value: walk(v),
      writable: true,
      configurable: true,
      enumerable: k !== 'message',
    })
  }
  return error
}

interface ActorRefLike {
  sessionId: string
  send: unknown
}

function isActorRef(value: object): value is ActorRefLike {
  return (
    'sessionId' in value &&
    typeof (value as ActorRefLike).sessionId === 'string' &&
    typeof (value as ActorRefLike).send === 'function'
  )
}

function isLogic(value: object): boolean {
  return (
    'transition' in value &&
    typeof (value as { transition: unknown }).transition === 'function' &&
    'getInitialSnapshot' in value
  )
}

function logicName(value: object): string {
  const id = (value as { id?: unknown }).id
  return typeof id === 'string' ? id : 'logic'
}

function toHex(bytes: Uint8Array): string {
  let out = ''
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0')
  return out
}

function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(Math.floor(hex.length / 2))
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return out
}
