/**
 * The viewer's script (bundled by the inspector server at its first request, served as `/viewer.js`). Every
 * received value goes into the page as text (`textContent`, SVG text nodes): a record may come from a hostile
 * page. ELK (`/elk.js`, elkjs's browser bundle) is a global.
 */
import type { ELK as ElkApi } from 'elkjs/lib/elk-api'
import type { Json, MachineDescription } from '../../../src/recording/format.ts'
import { type Drawing, LINE_HEIGHT, layoutMachine, PAD, TITLE_HEIGHT } from './graph.ts'
import {
  type ActorState,
  activeLeaves,
  activeStates,
  actorTree,
  describeRecord,
  type Frame,
  FrameCursor,
  formatValue,
  pathKey,
  RecordStore,
  recordingFileName,
  type Stream,
  streamRecording,
} from './model.ts'

declare global {
  var ELK: new () => ElkApi
}

const SVG = 'http://www.w3.org/2000/svg'
/** Events listed at most (the newest matching ones). */
const MAX_EVENTS_SHOWN = 400
const MAX_RECORD_TEXT = 20_000

const byId = <T extends HTMLElement>(id: string) => {
  const element = document.getElementById(id)
  if (!element) throw new Error(`#${id} is missing`)
  return element as T
}

const ui = {
  status: byId('status'),
  recorderPicker: byId('recorder-picker'),
  recorder: byId<HTMLSelectElement>('recorder'),
  save: byId<HTMLButtonElement>('save'),
  back: byId<HTMLButtonElement>('back'),
  forward: byId<HTMLButtonElement>('forward'),
  live: byId<HTMLButtonElement>('live'),
  step: byId<HTMLInputElement>('step'),
  stepLabel: byId('step-label'),
  showFinished: byId<HTMLInputElement>('show-finished'),
  actors: byId('actors'),
  active: byId('active'),
  zoom: byId<HTMLSelectElement>('zoom'),
  diagram: byId('diagram'),
  eventActor: byId<HTMLSelectElement>('event-actor'),
  eventType: byId<HTMLInputElement>('event-type'),
  events: byId('events'),
  record: byId('record'),
}

const store = new RecordStore()
const cursor = new FrameCursor()
const view = {
  rid: undefined as string | undefined,
  /** The visitor picked the recorder: a new one streaming does not take the page. */
  ridPicked: false,
  live: true,
  step: -1,
  selected: undefined as string | undefined,
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  if (className) element.className = className
  if (text !== undefined) element.textContent = text
  return element
}

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number> = {},
  text?: string,
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag)
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value))
  if (text !== undefined) element.textContent = text
  return element
}

// --- rendering, at most once a frame -------------------------------------------------------------------------

let scheduled = false
function schedule(): void {
  if (scheduled) return
  scheduled = true
  requestAnimationFrame(() => {
    scheduled = false
    render()
  })
}

const currentStream = (): Stream | undefined =>
  view.rid === undefined ? undefined : store.streams.get(view.rid)

function render(): void {
  const stream = currentStream()
  renderRecorders()
  ui.save.disabled = !stream
  const count = stream?.records.length ?? 0
  if (view.live || view.step >= count) view.step = count - 1
  ui.step.disabled = count === 0
  ui.step.max = String(Math.max(0, count - 1))
  ui.step.value = String(Math.max(0, view.step))
  ui.step.setAttribute('aria-valuetext', `Step ${view.step + 1} of ${count}`)
  ui.back.disabled = view.step <= 0
  ui.forward.disabled = view.step >= count - 1
  ui.live.setAttribute('aria-pressed', String(view.live))
  if (!stream || count === 0) {
    ui.stepLabel.textContent = 'No records yet'
    return
  }
  const frame = cursor.at(stream, view.step)
  const record = stream.records[view.step]!
  ui.stepLabel.textContent = `Step ${view.step + 1} of ${count}${view.live ? '' : ' (paused)'}: ${describeRecord(record, frame.actors)}`
  const text = JSON.stringify(record, null, 2)
  ui.record.textContent = text.length > MAX_RECORD_TEXT ? `${text.slice(0, MAX_RECORD_TEXT)}…` : text
  // The actor picked, while it exists at this step; else the first machine (the kit). Stepping back to before
  // the picked actor started and forward again keeps it picked.
  const shown =
    view.selected !== undefined && frame.actors.has(view.selected)
      ? view.selected
      : [...frame.actors.values()].find((actor) => actor.machine)?.sessionId
  renderActors(frame, shown)
  renderEventFilter(stream)
  renderEvents(stream, frame)
  renderChart(stream, frame, shown)
}

function renderRecorders(): void {
  const streams = [...store.streams.values()]
  ui.recorderPicker.hidden = streams.length < 2
  const options = streams.map((stream) => {
    const label =
      stream.rid === ''
        ? `Other inspectors (no recorder id, ${stream.records.length} records)`
        : `${stream.header?.startedAt ?? 'unknown start'} (${stream.rid}, ${stream.records.length} records)`
    return { value: stream.rid, label }
  })
  if (ui.recorder.options.length !== options.length) {
    ui.recorder.replaceChildren(
      ...options.map((option) => {
        const element = el('option', undefined, option.label)
        element.value = option.value
        return element
      }),
    )
  } else {
    options.forEach((option, i) => {
      const element = ui.recorder.options[i]!
      if (element.textContent !== option.label) element.textContent = option.label
    })
  }
  if (view.rid !== undefined) ui.recorder.value = view.rid
}

let actorsKey = ''
function renderActors(frame: Frame, shown: string | undefined): void {
  const showFinished = ui.showFinished.checked
  // Machines stay listed once stopped (a session that ended is still worth reading); finished slots go.
  const rows = actorTree(frame).filter(
    ({ actor }) => showFinished || actor.machine || !(actor.status === 'done' || actor.status === 'stopped'),
  )
  const key = JSON.stringify([
    shown,
    rows.map(({ actor, depth }) => [actor.sessionId, depth, actor.status, actor.value]),
  ])
  if (key === actorsKey) return
  actorsKey = key
  const focused =
    document.activeElement instanceof HTMLElement ? document.activeElement.dataset.session : undefined
  ui.actors.replaceChildren(
    ...rows.map(({ actor, depth }) => {
      const item = el('li', `status-${actor.status}${actor.status === 'active' ? '' : ' finished'}`)
      const button = el('button')
      button.type = 'button'
      button.dataset.session = actor.sessionId
      button.style.paddingLeft = `${6 + depth * 14}px`
      button.setAttribute('aria-pressed', String(actor.sessionId === shown))
      button.append(
        el('span', 'name', actor.name),
        el('span', 'kind', ` ${actor.kind}${actor.systemId ? ` #${actor.systemId}` : ''}`),
        el('span', 'sid', actor.status === 'active' ? '' : ` (${actor.status})`),
        el('span', 'value', actorValue(actor)),
      )
      button.addEventListener('click', () => {
        view.selected = actor.sessionId
        schedule()
      })
      item.append(button)
      return item
    }),
  )
  if (focused) ui.actors.querySelector<HTMLElement>(`[data-session="${CSS.escape(focused)}"]`)?.focus()
}

function actorValue(actor: ActorState): string {
  if (actor.value !== undefined) return formatValue(actor.value)
  if (actor.error !== undefined) return `error: ${short(actor.error)}`
  if (actor.output !== undefined) return `output: ${short(actor.output)}`
  return ''
}

const short = (value: Json): string => {
  const text = JSON.stringify(value)
  return text.length > 120 ? `${text.slice(0, 120)}…` : text
}

/** Every actor each recorder started (not only those alive at this step), so the filter survives time travel. */
const actorLabels = new Map<string, { scanned: number; records: unknown; labels: Map<string, string> }>()
let eventActorsKey = ''
function renderEventFilter(stream: Stream): void {
  let known = actorLabels.get(stream.rid)
  if (!known || known.records !== stream.records) {
    known = { scanned: 0, records: stream.records, labels: new Map() }
    actorLabels.set(stream.rid, known)
  }
  for (; known.scanned < stream.records.length; known.scanned += 1) {
    const record = stream.records[known.scanned]!
    if (record.type === '@xstate.actor') {
      known.labels.set(
        record.sessionId,
        `${record.machine?.id ?? record.src ?? record.id} (${record.sessionId})`,
      )
    }
  }
  const actors = known.labels
  const key = JSON.stringify([stream.rid, actors.size])
  if (key === eventActorsKey) return
  eventActorsKey = key
  const chosen = ui.eventActor.value
  const all = el('option', undefined, 'All actors')
  all.value = ''
  ui.eventActor.replaceChildren(
    all,
    ...[...actors].map(([sessionId, label]) => {
      const option = el('option', undefined, label)
      option.value = sessionId
      return option
    }),
  )
  ui.eventActor.value = actors.has(chosen) ? chosen : ''
}

let eventsKey = ''
function renderEvents(stream: Stream, frame: Frame): void {
  const actor = ui.eventActor.value
  const type = ui.eventType.value.trim().toLowerCase()
  const key = JSON.stringify([stream.rid, view.step, stream.records.length, actor, type])
  if (key === eventsKey) return
  eventsKey = key
  const items: HTMLLIElement[] = []
  for (let i = view.step; i >= 0 && items.length < MAX_EVENTS_SHOWN; i -= 1) {
    const record = stream.records[i]!
    if (record.type !== '@xstate.event') continue
    if (actor && record.sessionId !== actor && record.sourceId !== actor) continue
    if (type && !record.event.type.toLowerCase().includes(type)) continue
    const item = el('li')
    item.value = record.seq
    const button = el('button')
    button.type = 'button'
    button.title = 'Go to this step'
    if (i === view.step) button.setAttribute('aria-current', 'step')
    const receiver = frame.actors.get(record.sessionId)?.name ?? record.sessionId
    const source = record.sourceId
      ? ` from ${frame.actors.get(record.sourceId)?.name ?? record.sourceId}`
      : ''
    button.append(el('span', 'ev', record.event.type), el('span', 'muted', `  → ${receiver}${source}`))
    const index = i
    button.addEventListener('click', () => goTo(index))
    item.append(button)
    items.push(item)
  }
  ui.events.replaceChildren(...items)
}

// --- the statechart --------------------------------------------------------------------------------------------

const layouts = new Map<string, Promise<Drawing>>()
interface Chart {
  hash: string
  svg: SVGSVGElement
  drawing: Drawing
  /** Each state's group, by path key. */
  states: Map<string, SVGGElement>
  /** Each state's outgoing arrows and labels, by state id. */
  edges: Map<string, SVGElement[]>
}
let chart: Chart | undefined
let chartWanted: string | undefined

let measurer: { svg: SVGSVGElement; title: SVGTextElement; small: SVGTextElement } | undefined
const widths = new Map<string, number>()
function measure(text: string, font: 'title' | 'small'): number {
  const key = `${font}\u0000${text}`
  const known = widths.get(key)
  if (known !== undefined) return known
  if (!measurer) {
    const root = svg('svg', { class: 'chart measure', 'aria-hidden': 'true' })
    const title = svg('text', { class: 'title' })
    const small = svg('text', { class: 'line' })
    root.append(title, small)
    document.body.append(root)
    measurer = { svg: root, title, small }
  }
  const node = font === 'title' ? measurer.title : measurer.small
  node.textContent = text
  const width = node.getComputedTextLength()
  widths.set(key, width)
  return width
}

let elk: ElkApi | undefined
function layout(machine: MachineDescription): Promise<Drawing> {
  let drawing = layouts.get(machine.hash)
  if (!drawing) {
    elk ??= new globalThis.ELK()
    drawing = layoutMachine(elk, machine, measure)
    layouts.set(machine.hash, drawing)
  }
  return drawing
}

function renderChart(stream: Stream, frame: Frame, shown: string | undefined): void {
  const actor = shown === undefined ? undefined : frame.actors.get(shown)
  const machine = actor?.machine ? stream.machines.get(actor.machine.hash) : undefined
  if (!actor || !machine) {
    chartWanted = undefined
    chart = undefined
    ui.diagram.replaceChildren()
    ui.active.textContent = actor
      ? `${actor.name} is not a machine (${actor.kind}): no statechart. ${actorValue(actor)}`
      : 'Pick a machine actor to see its statechart.'
    return
  }
  if (chart?.hash !== machine.hash) {
    if (chartWanted !== machine.hash) {
      chartWanted = machine.hash
      ui.active.textContent = `Laying out ${machine.id}…`
      layout(machine).then(
        (drawing) => {
          if (chartWanted !== machine.hash) return
          chart = drawChart(machine, drawing)
          ui.diagram.replaceChildren(chart.svg)
          applyZoom()
          schedule()
        },
        (error: unknown) => {
          ui.active.textContent = `Could not lay out ${machine.id}: ${error instanceof Error ? error.message : String(error)}`
        },
      )
    }
    return
  }
  const active = activeStates(machine, actor.value)
  const activeKeys = new Set(active.map((state) => pathKey(state.path)))
  const leaves = activeLeaves(active)
  const leafKeys = new Set(leaves.map((state) => pathKey(state.path)))
  for (const [key, group] of chart.states) {
    group.classList.toggle('active', activeKeys.has(key))
    group.classList.toggle('leaf', leafKeys.has(key))
  }
  // The transitions out of the active states: what the machine can take next.
  const activeIds = new Set(active.map((state) => state.id))
  for (const [source, elements] of chart.edges) {
    for (const element of elements) element.classList.toggle('enabled', activeIds.has(source))
  }
  const said = `active: ${leaves.map((state) => state.id).join(', ')}${actor.status === 'active' ? '' : ` (${actor.status})`}`
  if (ui.active.textContent !== said) {
    ui.active.textContent = said
    reveal(chart, new Set(leaves.map((state) => state.id)))
  }
  chart.svg.setAttribute('aria-label', `Statechart of ${machine.id}, ${said}`)
}

function drawChart(machine: MachineDescription, drawing: Drawing): Chart {
  const root = svg('svg', {
    class: 'chart',
    role: 'img',
    viewBox: `0 0 ${drawing.width} ${drawing.height}`,
    width: drawing.width,
    height: drawing.height,
    'data-machine': machine.id,
  })
  root.append(svg('title', {}, `Statechart of ${machine.id}`))
  const defs = svg('defs')
  const marker = svg('marker', {
    id: 'arrow',
    viewBox: '0 0 10 10',
    refX: 9,
    refY: 5,
    markerWidth: 7,
    markerHeight: 7,
    orient: 'auto-start-reverse',
  })
  marker.append(svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrow' }))
  defs.append(marker)
  root.append(defs)

  const states = new Map<string, SVGGElement>()
  for (const state of drawing.states) {
    const classes = ['state', state.type]
    if (state.depth === 0) classes.push('root')
    if (state.compound) classes.push('compound')
    if (state.region) classes.push('region')
    const group = svg('g', {
      class: classes.join(' '),
      'data-id': state.id,
      'data-path': pathKey(state.path),
    })
    group.append(svg('title', {}, [state.id, ...state.allLines].join('\n')))
    group.append(
      svg('rect', { x: state.x, y: state.y, width: state.width, height: state.height, rx: 6, ry: 6 }),
      svg('text', { class: 'title', x: state.x + PAD, y: state.y + TITLE_HEIGHT / 2 + 5 }, state.title),
    )
    state.lines.forEach((line, i) => {
      group.append(
        svg(
          'text',
          { class: 'line', x: state.x + PAD, y: state.y + TITLE_HEIGHT + i * LINE_HEIGHT + 8 },
          line,
        ),
      )
    })
    states.set(pathKey(state.path), group)
    root.append(group)
  }
  for (const initial of drawing.initials) {
    const r = initial.size / 2
    root.append(svg('circle', { class: 'initial', cx: initial.x + r, cy: initial.y + r, r }))
  }
  const labels = svg('g')
  const edges = new Map<string, SVGElement[]>()
  const outOf = (source: string) => {
    const list = edges.get(source) ?? []
    edges.set(source, list)
    return list
  }
  for (const edge of drawing.edges) {
    if (edge.points.length < 2) continue
    const d = edge.points.map((point, i) => `${i === 0 ? 'M' : 'L'} ${point.x} ${point.y}`).join(' ')
    const path = svg('path', { class: 'edge', d, 'marker-end': 'url(#arrow)' })
    if (edge.event) path.append(svg('title', {}, edge.event))
    root.append(path)
    outOf(edge.source).push(path)
    if (edge.label) {
      const { x, y, width, height, text } = edge.label
      const group = svg('g', { class: 'edge-label' })
      group.append(
        svg('rect', { x, y, width, height, rx: 3 }),
        svg('text', { x: x + 2, y: y + height - 4 }, text),
      )
      if (edge.event) group.append(svg('title', {}, edge.event))
      labels.append(group)
      outOf(edge.source).push(group)
    }
  }
  root.append(labels)
  return { hash: machine.hash, svg: root, drawing, states, edges }
}

/** Scrolls the chart so the active innermost states are in view, unless they already are. */
function reveal(shown: Chart, ids: Set<string>): void {
  const boxes = shown.drawing.states.filter((state) => ids.has(state.id))
  if (boxes.length === 0) return
  const { drawing } = shown
  const pane = ui.diagram
  const scale = ui.zoom.value === 'fit' ? pane.clientWidth / drawing.width : Number(ui.zoom.value) || 1
  const left = Math.min(...boxes.map((box) => box.x)) * scale
  const top = Math.min(...boxes.map((box) => box.y)) * scale
  const right = Math.max(...boxes.map((box) => box.x + box.width)) * scale
  const bottom = Math.max(...boxes.map((box) => box.y + box.height)) * scale
  const visible =
    left >= pane.scrollLeft &&
    top >= pane.scrollTop &&
    right <= pane.scrollLeft + pane.clientWidth &&
    bottom <= pane.scrollTop + pane.clientHeight
  if (visible) return
  const along = (start: number, end: number, size: number) =>
    Math.max(0, end - start <= size ? (start + end) / 2 - size / 2 : start - 16)
  pane.scrollTo({ left: along(left, right, pane.clientWidth), top: along(top, bottom, pane.clientHeight) })
}

function applyZoom(): void {
  if (!chart) return
  const zoom = ui.zoom.value
  chart.svg.classList.toggle('fit', zoom === 'fit')
  const scale = zoom === 'fit' ? 1 : Number(zoom) || 1
  if (zoom === 'fit') {
    chart.svg.removeAttribute('width')
    chart.svg.removeAttribute('height')
  } else {
    chart.svg.setAttribute('width', String(Math.round(chart.drawing.width * scale)))
    chart.svg.setAttribute('height', String(Math.round(chart.drawing.height * scale)))
  }
}

// --- time travel -----------------------------------------------------------------------------------------------

function goTo(index: number): void {
  const count = currentStream()?.records.length ?? 0
  if (count === 0) return
  view.live = false
  view.step = Math.max(0, Math.min(count - 1, index))
  schedule()
}

const stepBy = (delta: number) => goTo(view.step + delta)

ui.back.addEventListener('click', () => stepBy(-1))
ui.forward.addEventListener('click', () => stepBy(1))
ui.step.addEventListener('input', () => goTo(Number(ui.step.value)))
ui.live.addEventListener('click', () => {
  view.live = true
  schedule()
})
document.addEventListener('keydown', (event) => {
  if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return
  if (event.altKey || event.ctrlKey || event.metaKey) return
  const target = event.target
  // Text fields and selects keep their arrows; the range input moves by itself.
  if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement) return
  if (target instanceof HTMLTextAreaElement) return
  event.preventDefault()
  stepBy(event.key === 'ArrowLeft' ? -1 : 1)
})

// --- the other controls --------------------------------------------------------------------------------------

ui.recorder.addEventListener('change', () => {
  view.rid = ui.recorder.value
  view.ridPicked = true
  view.live = true
  view.selected = undefined
  schedule()
})
ui.showFinished.addEventListener('change', schedule)
ui.eventActor.addEventListener('change', schedule)
ui.eventType.addEventListener('input', schedule)
ui.zoom.addEventListener('change', applyZoom)
ui.save.addEventListener('click', () => {
  const stream = currentStream()
  if (!stream) return
  const recording = streamRecording(stream)
  const url = URL.createObjectURL(
    new Blob([JSON.stringify(recording, null, 2)], { type: 'application/json' }),
  )
  const link = el('a')
  link.href = url
  link.download = recordingFileName(recording)
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 30_000)
})

// --- the stream ------------------------------------------------------------------------------------------------

function receive(raw: unknown): void {
  const known = store.streams.size
  const stream = store.add(raw)
  if (!stream) return
  // A new recorder (the demo reloaded) takes the page, unless the visitor picked one.
  if (view.rid === undefined || (!view.ridPicked && store.streams.size > known)) {
    view.rid = stream.rid
    view.live = true
    view.selected = undefined
  }
  if (stream.rid === view.rid) schedule()
  else renderRecorders()
}

let retry = 500
function connect(): void {
  const socket = new WebSocket(location.origin.replace(/^http/, 'ws'))
  socket.onopen = () => {
    retry = 500
    ui.status.textContent = 'live'
  }
  socket.onclose = () => {
    ui.status.textContent = 'disconnected (retrying)'
    setTimeout(connect, retry)
    retry = Math.min(retry * 2, 5_000)
  }
  socket.onmessage = (message) => {
    if (typeof message.data !== 'string') return
    let parsed: unknown
    try {
      parsed = JSON.parse(message.data)
    } catch {
      return
    }
    receive(parsed)
  }
}

render()
connect()
