/**
 * The viewer's page and stylesheet. Static: every received value is put in the page by the client script as
 * text (never as markup), and the page's Content-Security-Policy runs no script but the server's own.
 */
export const VIEWER_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>Walletstate inspector</title>
<link rel="stylesheet" href="/viewer.css" />
</head>
<body>
<header>
  <h1>Walletstate inspector</h1>
  <label id="recorder-picker" hidden>Recorder <select id="recorder" aria-label="Recorder"></select></label>
  <span id="status" class="muted" role="status">connecting…</span>
  <button id="save" type="button" disabled>Save recording</button>
</header>
<div id="timeline" role="group" aria-label="Time travel">
  <button id="back" type="button" aria-keyshortcuts="ArrowLeft">◀ Step back</button>
  <input id="step" type="range" min="0" max="0" value="0" aria-label="Step" disabled />
  <button id="forward" type="button" aria-keyshortcuts="ArrowRight">Step forward ▶</button>
  <button id="live" type="button" aria-pressed="true">Live</button>
  <span id="step-label" class="muted"></span>
</div>
<main>
  <section id="actors-panel" aria-labelledby="actors-h">
    <h2 id="actors-h">Actors</h2>
    <label class="option"><input id="show-finished" type="checkbox" /> Show finished slots</label>
    <ul id="actors" class="tree"></ul>
  </section>
  <section id="chart-panel" aria-labelledby="chart-h">
    <div class="bar">
      <h2 id="chart-h">Statechart</h2>
      <label class="option">Zoom <select id="zoom">
        <option value="fit">Fit</option><option value="0.5">50%</option><option value="0.75">75%</option>
        <option value="1" selected>100%</option><option value="1.5">150%</option>
      </select></label>
    </div>
    <p id="active" aria-live="polite" class="active-text">Pick a machine actor to see its statechart.</p>
    <div id="diagram"></div>
  </section>
  <section id="events-panel" aria-labelledby="events-h">
    <h2 id="events-h">Events (newest first)</h2>
    <div class="filters">
      <label>Actor <select id="event-actor" aria-label="Filter events by actor"><option value="">All actors</option></select></label>
      <label>Event type <input id="event-type" type="search" aria-label="Filter events by type" placeholder="e.g. connection." autocomplete="off" /></label>
    </div>
    <ol id="events" reversed></ol>
    <h2 id="record-h">Record at this step</h2>
    <pre id="record" aria-labelledby="record-h"></pre>
  </section>
</main>
<script src="/elk.js"></script>
<script type="module" src="/viewer.js"></script>
</body>
</html>`

export const VIEWER_CSS = `
:root { color-scheme: dark; --bg: #101214; --panel: #16191c; --line: #2a2f34; --text: #e8ecef; --muted: #9aa3ab;
  --accent: #7fb4ff; --active: #3ddc84; --ev: #ffd479; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px ui-sans-serif, system-ui, sans-serif; background: var(--bg); color: var(--text);
  height: 100vh; display: grid; grid-template-rows: auto auto 1fr; }
header, #timeline { padding: 8px 16px; border-bottom: 1px solid var(--line); display: flex; gap: 12px;
  align-items: center; flex-wrap: wrap; }
h1 { font-size: 16px; margin: 0 12px 0 0; }
h2 { font-size: 12px; color: var(--muted); text-transform: uppercase; letter-spacing: .05em; margin: 8px 0; }
button, select, input { font: inherit; color: var(--text); background: #22272c; border: 1px solid #3a4148;
  border-radius: 6px; padding: 4px 10px; }
button:hover:not(:disabled) { border-color: var(--accent); }
button:disabled { opacity: .5; }
button:focus-visible, select:focus-visible, input:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
#live[aria-pressed="true"] { background: #1e3a2a; border-color: var(--active); }
#save { margin-left: auto; }
#step { flex: 1; min-width: 160px; padding: 0; }
main { display: grid; grid-template-columns: minmax(220px, 16%) 1fr minmax(300px, 24%); min-height: 0; }
main > section { overflow: auto; padding: 4px 12px 12px; min-height: 0; }
main > section + section { border-left: 1px solid var(--line); }
#chart-panel { display: flex; flex-direction: column; }
.bar { display: flex; align-items: center; justify-content: space-between; }
.option { color: var(--muted); font-size: 13px; display: inline-flex; gap: 6px; align-items: center; }
.muted { color: var(--muted); }
.tree { list-style: none; margin: 8px 0; padding: 0; }
.tree li { margin: 0; }
.tree button { display: block; width: 100%; text-align: left; background: transparent; border: 1px solid transparent;
  padding: 4px 6px; margin: 1px 0; }
.tree button[aria-pressed="true"] { background: #1b2a3b; border-color: var(--accent); }
.tree .name { color: var(--accent); font-weight: 600; }
.tree .kind, .tree .sid { color: var(--muted); font-size: 12px; }
.tree .value { display: block; color: var(--active); font: 12px ui-monospace, SFMono-Regular, Menlo, monospace;
  white-space: pre-wrap; word-break: break-all; }
.tree .finished .name { color: var(--muted); }
.tree .status-error .value, .tree .status-error .name { color: #ff8a80; }
.active-text { margin: 4px 0 8px; font: 13px ui-monospace, SFMono-Regular, Menlo, monospace; color: var(--active); }
#diagram { flex: 1; overflow: auto; min-height: 200px; background: var(--panel); border: 1px solid var(--line);
  border-radius: 8px; }
#diagram svg { display: block; }
#diagram svg.fit { width: 100%; height: auto; }
.filters { display: flex; flex-direction: column; gap: 6px; }
.filters label { display: flex; justify-content: space-between; gap: 8px; align-items: center; color: var(--muted); }
.filters select, .filters input { flex: 1; max-width: 70%; }
#events { margin: 8px 0; padding-left: 40px; font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; }
#events li { padding: 0; }
#events button { background: transparent; border: 1px solid transparent; padding: 2px 4px; text-align: left; width: 100%;
  overflow-wrap: anywhere; }
#events button[aria-current="step"] { border-color: var(--ev); }
#events .ev { color: var(--ev); }
#record { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; white-space: pre-wrap; word-break: break-all;
  background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 8px; max-height: 40vh;
  overflow: auto; margin: 0; }
/* The statechart. */
.chart text { fill: var(--text); font: 12px ui-sans-serif, system-ui, sans-serif; }
.chart text.title { font-weight: 600; font-size: 13px; }
.chart text.line { fill: var(--muted); font-size: 11px; }
.chart .state rect { fill: #1d2227; stroke: #56606a; stroke-width: 1.2; }
.chart .state.compound > rect { fill: rgba(255, 255, 255, .025); }
.chart .state.root > rect { fill: transparent; stroke: #3a4148; }
.chart .state.region > rect { stroke-dasharray: 6 4; fill: transparent; }
.chart .state.final > rect { stroke-width: 3; stroke: #7d8791; }
.chart .state.active > rect { stroke: var(--active); stroke-width: 2; }
.chart .state.active.leaf > rect { fill: #15402a; }
.chart .state.active > text.title { fill: var(--active); }
.chart .initial { fill: var(--muted); }
.chart .edge { fill: none; stroke: #6f7b86; stroke-width: 1.2; }
.chart .edge-label rect { fill: var(--panel); fill-opacity: .9; }
.chart .edge-label text { fill: #c9d1d9; font-size: 11px; }
.chart .arrow { fill: #6f7b86; }
.chart .edge.enabled { stroke: #8fb8e8; }
.chart .edge-label.enabled text { fill: #b9d5f5; }
.measure { position: absolute; visibility: hidden; width: 0; height: 0; }
`
