/*
 * The login frame page's message boundary, without the DOM: which messages from the embedding page are let
 * in, which are answered with an error, and which reach a command. The page (main.ts) hands it its I/O: the
 * parent's exact origin and window, how a reply is posted, and the command implementations. Tests drive it
 * with plain objects (handler.fuzz.test.ts).
 */
import * as v from 'valibot'
import {
  type CommandPayload,
  CommandPayloads,
  EnvelopeSchema,
  type FrameCommand,
  type FrameReply,
  RequestSchema,
} from '../../../src/frame/protocol.ts'

/** Reply texts are capped (the kit's reply schema refuses longer ones). */
const MAX_ERROR_CHARS = 500
/** How many answered request ids are remembered, so a reused one is refused (the oldest are forgotten). */
export const REMEMBERED_IDS = 8192

/** A failure a command answers with: its message, and its code when it has one. */
export class FrameError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message)
  }
}

/** The command implementations: each gets its checked payload and the request's id. */
export type FrameCommands = {
  [C in FrameCommand]: (payload: CommandPayload<C>, id: string) => Promise<unknown>
}

/** The part of a `MessageEvent` the handler reads. */
export interface ReceivedMessage {
  origin: string
  source: unknown
  data: unknown
}

export interface FrameHandlerOptions {
  /** The embedding page's exact origin (never `*`): a message from any other origin is dropped. */
  parentOrigin: string
  /** The embedding page's window (`window.parent`): a message from any other window is dropped. */
  parent: unknown
  /** Posts one reply to the embedding page. */
  reply(message: FrameReply): void
  commands: FrameCommands
  log?: (...args: unknown[]) => void
}

/** Why a message got no answer at all. */
export type FrameDropReason = 'origin' | 'source' | 'shape' | 'event' | 'reusedId'

export interface FrameHandlerStats {
  /** Requests handed to a command. */
  dispatched: number
  /** Requests answered with an error without reaching a command (unknown command, invalid payload). */
  refused: number
  /** Messages left unanswered, by reason. */
  dropped: Record<FrameDropReason, number>
}

export interface FrameHandler {
  /** The page's `message` listener. Never throws. */
  (event: ReceivedMessage): void
  /** Ids of the requests taken (handed to a command), in flight or answered, oldest first. */
  ids(): string[]
  readonly stats: FrameHandlerStats
}

/**
 * Where parsing dropped something of the input, the path of the first key it dropped: valibot's objects strip
 * keys they do not know, and its records skip `__proto__`, `prototype` and `constructor`. The frame takes a
 * message only as it was sent, so a dropped key refuses it. Values the schema keeps as they are (`unknown`) are
 * the same reference in the output and are not looked into. An array parsed as an object answers its own path.
 */
function droppedKey(input: unknown, output: unknown, path: string): string | undefined {
  if (input === output) return undefined
  if (typeof input !== 'object' || input === null || typeof output !== 'object' || output === null) {
    return undefined
  }
  // valibot's objects take an array too (keys and all): an array where an object belongs is refused whole.
  if (Array.isArray(input) !== Array.isArray(output)) return path
  for (const key of Object.keys(input)) {
    const at = `${path}.${key.slice(0, 64)}`
    if (!Object.hasOwn(output, key)) return at
    const inner = droppedKey(
      (input as Record<string, unknown>)[key],
      (output as Record<string, unknown>)[key],
      at,
    )
    if (inner !== undefined) return inner
  }
  return undefined
}

function failure(error: unknown): FrameReply['payload'] {
  const message = error instanceof Error && error.message ? error.message : 'An error occurred'
  const code = error instanceof FrameError ? error.code : undefined
  return {
    ok: false,
    error: { message: message.slice(0, MAX_ERROR_CHARS), ...(code === undefined ? {} : { code }) },
  }
}

/**
 * The frame page's `message` listener. A message is dropped, unanswered, unless it comes from `parent`, on
 * exactly `parentOrigin`, and is an envelope `{ id?, type, payload? }` with no other key; one without an id (an
 * event) and one reusing the id of a request already taken are dropped too. A request for no known command is
 * answered -32601, one whose payload is not exactly its command's (a field missing, of the wrong type, too
 * long, one too many, an array) -32602; neither reaches a command. Any other request goes to its command, once,
 * and is answered with what the command answers. Ids taken are remembered for the page's life (the last
 * REMEMBERED_IDS answered ones, and every one still in flight).
 *
 * @example
 * window.addEventListener('message', createFrameHandler({
 *   parentOrigin, parent: window.parent, reply: (m) => window.parent.postMessage(m, parentOrigin), commands,
 * }))
 */
export function createFrameHandler(options: FrameHandlerOptions): FrameHandler {
  const { parentOrigin, parent, commands } = options
  if (parentOrigin === '*' || parentOrigin === 'null' || new URL(parentOrigin).origin !== parentOrigin) {
    throw new Error(`The frame answers one exact origin, not ${parentOrigin}`)
  }
  const log = options.log ?? (() => {})
  /** Request ids taken: `true` while the command runs, `false` once answered. Oldest first. */
  const taken = new Map<string, boolean>()
  const stats: FrameHandlerStats = {
    dispatched: 0,
    refused: 0,
    dropped: { origin: 0, source: 0, shape: 0, event: 0, reusedId: 0 },
  }

  const drop = (reason: FrameDropReason, origin: string): undefined => {
    stats.dropped[reason] += 1
    if (reason === 'reusedId') log('dropped a request reusing an id, from', origin)
    else if (reason !== 'event') log('dropped a message from', origin)
    return undefined
  }

  const reply = (id: string, payload: FrameReply['payload']): void => {
    log('reply', id, payload.ok ? 'ok' : payload.error.message)
    options.reply({ id, type: 'frame.reply', payload })
  }

  const refuse = (id: string, error: FrameError): undefined => {
    stats.refused += 1
    reply(id, failure(error))
    return undefined
  }

  const answered = (id: string): void => {
    taken.set(id, false)
    if (taken.size <= REMEMBERED_IDS) return
    for (const [old, running] of taken) {
      if (!running) {
        taken.delete(old)
        return
      }
    }
  }

  async function run(id: string, type: FrameCommand, payload: unknown): Promise<void> {
    taken.set(id, true)
    stats.dispatched += 1
    log('request', id, type)
    const command = commands[type] as (payload: unknown, id: string) => Promise<unknown>
    try {
      try {
        const result = await command(payload, id)
        reply(id, result === undefined ? { ok: true } : { ok: true, result })
      } catch (error) {
        reply(id, failure(error))
      }
    } finally {
      answered(id)
    }
  }

  function receive(event: ReceivedMessage): undefined {
    if (event.origin !== parentOrigin) return drop('origin', event.origin)
    if (parent === null || parent === undefined || event.source !== parent) {
      return drop('source', event.origin)
    }
    const envelope = v.safeParse(EnvelopeSchema, event.data)
    if (!envelope.success || droppedKey(event.data, envelope.output, 'message') !== undefined) {
      return drop('shape', event.origin)
    }
    const { id } = envelope.output
    // Messages without an id are events; the frame takes none.
    if (id === undefined) return drop('event', event.origin)
    if (taken.has(id)) return drop('reusedId', event.origin)
    const request = v.safeParse(RequestSchema, envelope.output)
    if (!request.success) {
      return refuse(id, new FrameError(`Unknown command: ${envelope.output.type}`, -32601))
    }
    const { type } = request.output
    const sent = request.output.payload ?? {}
    const payload = v.safeParse(CommandPayloads[type], sent)
    if (!payload.success) {
      return refuse(id, new FrameError(`Invalid ${type}: ${v.summarize(payload.issues)}`, -32602))
    }
    const extra = droppedKey(sent, payload.output, 'payload')
    if (extra !== undefined) return refuse(id, new FrameError(`Invalid ${type}: unexpected ${extra}`, -32602))
    run(id, type, payload.output).catch((error: unknown) => log('a reply could not be posted', error))
  }

  const handler = (event: ReceivedMessage): void => {
    try {
      receive(event)
    } catch (error) {
      // Only a script of this page can hand over data that throws when read (a posted message is a copy).
      stats.dropped.shape += 1
      log('dropped a message that could not be read', error)
    }
  }
  return Object.assign(handler, { ids: () => [...taken.keys()], stats })
}
