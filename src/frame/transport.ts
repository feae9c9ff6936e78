import * as v from 'valibot'
import { type AnyActorRef, fromCallback } from 'xstate'
import {
  acceptMessage,
  CommandPayloads,
  type FrameEvent,
  FrameEventSchema,
  type FrameReply,
  type FrameRequest,
  ReplySchema,
  RequestSchema,
} from './protocol'

/**
 * The kit's side of the login-frame channel (SPEC §4, §7): a hidden iframe on the secure site, envelopes posted
 * to its exact origin, and only messages from that iframe's window, on that origin, of a known shape let in.
 * Everything else is dropped, logged and counted. Unlike the incumbent, nothing is ever posted to `*` and no
 * message is trusted for its looks alone.
 */

/** What the frame sends the kit that the kit acts on: one reply per request, or an event. */
export type FrameInbound = FrameReply | FrameEvent

/** Why a message was dropped. */
export type DropReason =
  /** Not from the login frame's window (another frame, an extension, the page itself). */
  | 'source'
  /** From the frame's window but another origin (the frame navigated away). */
  | 'origin'
  /** Not an envelope. */
  | 'shape'
  /** An envelope, but no reply or event the kit knows. */
  | 'unknownType'
  /** A reply to no request this channel sent, or one already answered. */
  | 'unknownId'

export interface FrameChannelStats {
  accepted: number
  dropped: number
  reasons: Record<DropReason, number>
}

export type FrameLogLevel = 'debug' | 'warn'
export type FrameLog = (level: FrameLogLevel, message: string, detail?: unknown) => void

/** The part of a window a channel posts to. */
export interface MessageTarget {
  postMessage(message: unknown, targetOrigin: string): void
}

export interface FrameChannelOptions {
  /** Where requests go: the iframe's `contentWindow`. */
  target: MessageTarget | null
  /** The exact origin of the frame; `*` is refused. */
  targetOrigin: string
  /** The window replies must come from (the same `contentWindow`). */
  source: unknown
  log?: FrameLog
  /** Shared counters, e.g. one object for every channel a transport opens. */
  stats?: FrameChannelStats
}

export interface FrameChannel {
  /** Posts a request to the frame. Answers an error text instead when the request is malformed. */
  post(request: FrameRequest): string | undefined
  /** Checks one received message; `undefined` when it is dropped. */
  receive(event: { origin: string; source: unknown; data: unknown }): FrameInbound | undefined
  readonly stats: FrameChannelStats
}

/** @internal */
export const emptyStats = (): FrameChannelStats => ({
  accepted: 0,
  dropped: 0,
  reasons: { source: 0, origin: 0, shape: 0, unknownType: 0, unknownId: 0 },
})

const defaultLog: FrameLog = (level, message, detail) => {
  if (level === 'warn') console.warn(`[walletstate] ${message}`, detail ?? '')
  else console.debug(`[walletstate] ${message}`, detail ?? '')
}

/**
 * The origin of the frame endpoint, checked to be one: a channel never posts to `*`.
 *
 * @example
 * frameOrigin('https://secure.example.com/sdk') // 'https://secure.example.com'
 */
export function frameOrigin(endpoint: string): string {
  const origin = new URL(endpoint).origin
  if (origin === 'null') throw new Error(`The frame endpoint ${endpoint} has no origin`)
  return origin
}

export interface FrameUrlParameters {
  /** `endpoints.frame` of the kit config. */
  endpoint: string
  projectId: string
  chainId: string | number
  /** The kit's version (SDK_VERSION). */
  version: string
  enableLogger: boolean
}

/**
 * The frame page's address (SPEC §7: projectId, chainId, version, enableLogger).
 *
 * @example
 * frameUrl({ endpoint: 'https://secure.example.com', projectId: 'p', chainId: 1, version: '0.1.0', enableLogger: false })
 * // 'https://secure.example.com/frame?projectId=p&chainId=1&version=0.1.0&enableLogger=false'
 */
export function frameUrl(parameters: FrameUrlParameters): string {
  const url = new URL(`${parameters.endpoint.replace(/\/+$/, '')}/frame`)
  url.search = new URLSearchParams({
    projectId: parameters.projectId,
    chainId: String(parameters.chainId),
    version: parameters.version,
    enableLogger: String(parameters.enableLogger),
  }).toString()
  return url.toString()
}

/**
 * The channel without the DOM: what is posted where, and which messages are let in. The transport below
 * wires it to a real iframe; tests drive it with plain objects.
 *
 * @example
 * const channel = createFrameChannel({ target: iframe.contentWindow, targetOrigin, source: iframe.contentWindow })
 * window.addEventListener('message', (event) => {
 *   const inbound = channel.receive(event)
 *   if (inbound) handle(inbound)
 * })
 */
export function createFrameChannel(options: FrameChannelOptions): FrameChannel {
  const { target, targetOrigin, source } = options
  if (targetOrigin === '*' || frameOrigin(targetOrigin) !== targetOrigin) {
    throw new Error(`A frame channel needs an exact origin, not ${targetOrigin}`)
  }
  const log = options.log ?? defaultLog
  const stats = options.stats ?? emptyStats()
  /** Ids sent and not yet answered: a reply to anything else is not for us. */
  const open = new Set<string>()

  const drop = (reason: DropReason, detail?: unknown) => {
    stats.dropped += 1
    stats.reasons[reason] += 1
    // Pages see plenty of foreign messages (extensions, other frames): only a bad message from the frame
    // itself is worth a warning.
    log(reason === 'source' ? 'debug' : 'warn', `Dropped a login-frame message (${reason})`, detail)
    return undefined
  }

  return {
    stats,
    post(request) {
      const checked = v.safeParse(RequestSchema, request)
      const payload = checked.success
        ? v.safeParse(CommandPayloads[checked.output.type], request.payload ?? {})
        : undefined
      if (!checked.success || !payload?.success) {
        const issue = (checked.success ? payload?.issues : checked.issues)?.[0]
        return issue?.message ?? 'Invalid request'
      }
      if (!target) return 'The login frame is not available'
      open.add(checked.output.id)
      target.postMessage(
        { id: checked.output.id, type: checked.output.type, payload: payload.output },
        targetOrigin,
      )
      return undefined
    },
    receive(event) {
      if (source === null || event.source !== source) return drop('source')
      if (event.origin !== targetOrigin) return drop('origin', event.origin)
      let envelope: ReturnType<typeof acceptMessage>
      try {
        envelope = acceptMessage(event, { origin: targetOrigin, source })
      } catch {
        // Only a script of this page can hand over data that throws when read (a real message is a copy).
        envelope = undefined
      }
      if (!envelope) return drop('shape')
      if (envelope.type === 'frame.reply') {
        const reply = v.safeParse(ReplySchema, envelope)
        if (!reply.success) return drop('shape', envelope.type)
        if (!open.delete(reply.output.id)) return drop('unknownId', reply.output.id)
        stats.accepted += 1
        return reply.output
      }
      const frameEvent = v.safeParse(FrameEventSchema, envelope)
      if (!frameEvent.success) {
        return drop(KNOWN_EVENTS.has(envelope.type) ? 'shape' : 'unknownType', envelope.type)
      }
      stats.accepted += 1
      return frameEvent.output
    },
  }
}

const KNOWN_EVENTS: ReadonlySet<string> = new Set(FrameEventSchema.options.map((o) => o.entries.type.literal))

/** What the frame machine tells its transport. */
export type FrameTransportCommand =
  /** Posts a request; its reply goes to `replyTo` (the request actor waiting for it), else to the machine. */
  | { type: 'transport.post'; request: FrameRequest; replyTo?: AnyActorRef }
  /** Shows the frame over `container` (ApproveTransaction): the visitor confirms inside it. */
  | { type: 'transport.show'; container: Element }
  | { type: 'transport.hide' }

/** The transport actor's input: where the frame lives and what it is told in its address. */
export type FrameTransportInput = FrameUrlParameters

/**
 * Who waits for which reply: a reply goes to the actor that posted the request, if it still runs; other
 * inbound messages (events, replies no one waits for) go to the machine.
 * @internal
 */
export function replyRouter(sendBack: (inbound: FrameInbound) => void) {
  const waiting = new Map<string, AnyActorRef>()
  return {
    expect(id: string, replyTo: AnyActorRef | undefined) {
      if (replyTo) waiting.set(id, replyTo)
    },
    deliver(inbound: FrameInbound) {
      const replyTo = inbound.type === 'frame.reply' ? waiting.get(inbound.id) : undefined
      if (!replyTo) return sendBack(inbound)
      waiting.delete((inbound as FrameReply).id)
      if (replyTo.getSnapshot().status === 'active') replyTo.send(inbound)
    },
  }
}

/** The transport answers a post it cannot make with a reply of its own, so no request waits forever. */
const localFailure = (id: string, message: string): FrameReply => ({
  id,
  type: 'frame.reply',
  payload: { ok: false, error: { message } },
})

export interface FrameTransportOptions {
  /** The document the iframe goes in; the page's by default. */
  document?: Document
  log?: FrameLog
}

export interface FrameTransport {
  /** The actor logic for the frame machine's `transport` slot. */
  logic: ReturnType<typeof frameTransportLogic>
  /** Counters over every iframe this transport opened; tests read them. */
  stats: FrameChannelStats
}

/** Hidden, but not `display: none`: a frame that is not rendered may not run its timers and listeners. */
const HIDDEN_STYLE: Partial<CSSStyleDeclaration> = {
  position: 'fixed',
  top: '0px',
  left: '0px',
  width: '0px',
  height: '0px',
  border: '0',
  opacity: '0',
  pointerEvents: 'none',
  zIndex: '-1',
  colorScheme: 'normal',
}

function frameTransportLogic(options: FrameTransportOptions, stats: FrameChannelStats) {
  return fromCallback<FrameTransportCommand, FrameTransportInput, FrameInbound>(
    ({ input, sendBack, receive }) => {
      const doc = options.document ?? document
      const win = doc.defaultView
      const log = options.log ?? defaultLog
      const targetOrigin = frameOrigin(input.endpoint)

      const iframe = doc.createElement('iframe')
      iframe.src = frameUrl(input)
      iframe.title = 'Walletstate login'
      iframe.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms allow-popups')
      iframe.setAttribute('data-walletstate-frame', '')
      // An id of its own, so the view that shows it can own it in the accessibility tree (`aria-owns`).
      iframe.id = `walletstate-frame-${Math.random().toString(36).slice(2, 10)}`
      const hide = () => {
        Object.assign(iframe.style, HIDDEN_STYLE)
        iframe.setAttribute('aria-hidden', 'true')
        iframe.tabIndex = -1
      }
      hide()
      ;(doc.body ?? doc.documentElement).appendChild(iframe)

      // contentWindow is the frame's WindowProxy: the same object for the iframe's whole life, across reloads.
      const channel = createFrameChannel({
        target: iframe.contentWindow,
        targetOrigin,
        source: iframe.contentWindow,
        log,
        stats,
      })
      const router = replyRouter(sendBack)
      const onMessage = (event: MessageEvent) => {
        const inbound = channel.receive(event)
        if (inbound) router.deliver(inbound)
      }
      win?.addEventListener('message', onMessage)

      let unfollow: (() => void) | undefined
      /**
       * Places the frame over the container and keeps it there. The iframe is never moved in the DOM: moving it
       * would reload the frame and lose the request waiting for the visitor.
       */
      const show = (container: Element) => {
        unfollow?.()
        const place = () => {
          const rect = container.getBoundingClientRect()
          Object.assign(iframe.style, {
            top: `${rect.top}px`,
            left: `${rect.left}px`,
            width: `${rect.width}px`,
            height: `${rect.height}px`,
            opacity: '1',
            pointerEvents: 'auto',
            zIndex: '2147483647',
          })
        }
        place()
        iframe.removeAttribute('aria-hidden')
        iframe.removeAttribute('tabindex')
        // Keyboard and screen-reader users land in the frame, where the visitor approves or declines (the
        // modal's focus trap cannot reach into it).
        iframe.focus()
        const Observer = win?.ResizeObserver
        const observer = Observer ? new Observer(place) : undefined
        observer?.observe(container)
        win?.addEventListener('resize', place)
        win?.addEventListener('scroll', place, true)
        unfollow = () => {
          observer?.disconnect()
          win?.removeEventListener('resize', place)
          win?.removeEventListener('scroll', place, true)
          unfollow = undefined
        }
      }

      receive((command) => {
        switch (command.type) {
          case 'transport.post': {
            router.expect(command.request.id, command.replyTo)
            const failure = channel.post(command.request)
            if (failure !== undefined) {
              log('warn', `Could not send ${command.request.type} to the login frame: ${failure}`)
              router.deliver(localFailure(command.request.id, failure))
            }
            return
          }
          case 'transport.show':
            show(command.container)
            return
          case 'transport.hide':
            unfollow?.()
            hide()
            return
        }
      })

      return () => {
        win?.removeEventListener('message', onMessage)
        unfollow?.()
        iframe.remove()
      }
    },
  )
}

/**
 * The real transport for the frame machine's `transport` slot.
 *
 * @example
 * const transport = createFrameTransport()
 * const machine = frameMachine.provide({ actors: { transport: transport.logic } })
 * // later: transport.stats.dropped
 */
export function createFrameTransport(options: FrameTransportOptions = {}): FrameTransport {
  const stats = emptyStats()
  return { logic: frameTransportLogic(options, stats), stats }
}
