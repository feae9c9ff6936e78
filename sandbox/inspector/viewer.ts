/**
 * The live viewer page of the local inspector server. Plain DOM, text only (never innerHTML with received
 * data): every record comes from a page that could be hostile.
 */
export const VIEWER_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<title>Walletstate inspector</title>
<style>
  body { margin: 0; font: 14px ui-monospace, SFMono-Regular, Menlo, monospace; background: #101214; color: #e8ecef; }
  header { padding: 12px 16px; border-bottom: 1px solid #2a2f34; display: flex; gap: 16px; align-items: center; }
  h1 { font-size: 16px; margin: 0; }
  main { display: grid; grid-template-columns: minmax(280px, 1fr) 2fr; height: calc(100vh - 50px); }
  section { overflow: auto; padding: 8px 16px; }
  section + section { border-left: 1px solid #2a2f34; }
  h2 { font-size: 13px; color: #9aa3ab; text-transform: uppercase; letter-spacing: .05em; }
  .actor { padding: 6px 0; border-bottom: 1px solid #1d2125; }
  .id { color: #7fb4ff; }
  .state { color: #8be0a4; white-space: pre-wrap; }
  ol { margin: 0; padding-left: 20px; }
  li { padding: 2px 0; }
  .ev { color: #ffd479; }
  .muted { color: #87909a; }
</style>
</head>
<body>
<header><h1>Walletstate inspector</h1><span id="status" class="muted" role="status">connecting…</span></header>
<main>
  <section aria-labelledby="actors-h"><h2 id="actors-h">Actors</h2><div id="actors"></div></section>
  <section aria-labelledby="events-h"><h2 id="events-h">Events (newest first)</h2><ol id="events" reversed></ol></section>
</main>
<script>
  const actors = new Map();
  const actorsEl = document.getElementById('actors');
  const eventsEl = document.getElementById('events');
  const statusEl = document.getElementById('status');
  function el(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }
  function renderActors() {
    actorsEl.replaceChildren(...[...actors.entries()].map(([id, a]) => {
      const row = el('div', 'actor');
      row.append(el('div', 'id', (a.name || id) + (a.parentId ? '  (child of ' + a.parentId + ')' : '') + '  ' + id), el('div', 'state', JSON.stringify(a.value)));
      return row;
    }));
  }
  function onRecord(r) {
    if (!r || typeof r !== 'object' || typeof r.type !== 'string') return;
    const id = String(r.sessionId || '');
    if (r.type === '@xstate.actor') {
      actors.set(id, { name: String(r.name || ''), parentId: String(r.parentId || ''), value: r.snapshot && r.snapshot.value });
    } else if (r.type === '@xstate.snapshot') {
      const a = actors.get(id) || { name: '', parentId: '' };
      a.value = r.snapshot && r.snapshot.value; actors.set(id, a);
    } else if (r.type === '@xstate.event') {
      const li = el('li');
      li.append(el('span', 'ev', r.event && r.event.type), el('span', 'muted', '  → ' + id));
      eventsEl.prepend(li);
      while (eventsEl.children.length > 500) eventsEl.lastChild.remove();
    }
    renderActors();
  }
  const ws = new WebSocket(location.origin.replace(/^http/, 'ws'));
  ws.onopen = () => { statusEl.textContent = 'live'; };
  ws.onclose = () => { statusEl.textContent = 'disconnected'; };
  ws.onmessage = (m) => { try { onRecord(JSON.parse(m.data)); } catch {} };
</script>
</body>
</html>`
