// The session viewer's page script. Plain browser JavaScript, no framework and nothing from another origin.
// Every piece of session text reaches the page through textContent (never innerHTML), so model or tool output
// such as <img src=x onerror=...> shows as text.

const state = { current: undefined, source: undefined, expanded: new Set(), sessions: [] };

/** Builds an element; string children become text nodes. */
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}

function duration(ms) {
  if (ms === undefined || ms === null) return undefined;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

function usd(value) {
  if (value === undefined || value === null) return undefined;
  return value < 0.01 ? `$${value.toFixed(4)}` : `$${value.toFixed(2)}`;
}

function when(iso) {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

function json(value) {
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

function meta(...parts) {
  return el(
    'span',
    { class: 'meta' },
    parts.filter((p) => p !== undefined && p !== '').join(' · '),
  );
}

/** One expandable row: a button (aria-expanded) and its details below. */
function row(kind, id, cells, details, failed) {
  const open = state.expanded.has(id);
  const item = el('li', {
    class: `row${failed ? ' failed' : ''}`,
    'data-kind': kind,
    'data-id': id,
  });
  const panelId = `details-${id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const button = el(
    'button',
    {
      type: 'button',
      'aria-expanded': open ? 'true' : 'false',
      'aria-controls': panelId,
      onclick: () => {
        if (state.expanded.has(id)) state.expanded.delete(id);
        else state.expanded.add(id);
        const nowOpen = state.expanded.has(id);
        button.setAttribute('aria-expanded', nowOpen ? 'true' : 'false');
        panel.hidden = !nowOpen;
      },
    },
    ...cells,
  );
  const panel = el('div', { class: 'details', id: panelId, hidden: !open }, ...details);
  item.append(button, panel);
  return item;
}

function modelRow(call) {
  const tokens = call.tokens;
  const tokenText = tokens ? `${tokens.input} in / ${tokens.output} out` : undefined;
  const details = [];
  if (call.thoughts.length > 0) {
    details.push(el('h4', {}, 'Thoughts'));
    for (const t of call.thoughts)
      details.push(el('pre', { class: 'thought' }, `${t.subject}\n${t.description}`));
  }
  details.push(el('h4', {}, 'Response'), el('pre', { class: 'text' }, call.text || '(no text)'));
  if (tokens) {
    details.push(
      el('h4', {}, 'Tokens'),
      el(
        'pre',
        {},
        `input ${tokens.input} (cached ${tokens.cached}) · output ${tokens.output} · thoughts ${tokens.thoughts} · total ${tokens.total}`,
      ),
    );
  }
  return row(
    'model',
    call.id,
    [
      el('span', { class: 'badge' }, 'Model'),
      el('span', { class: 'label' }, call.model ?? 'model'),
      call.interrupted ? el('span', { class: 'status' }, 'interrupted') : undefined,
      meta(
        call.latencyMs === undefined ? undefined : `≈ ${duration(call.latencyMs)}`,
        tokenText,
        usd(call.costUsd),
        call.thoughts.length === 0
          ? undefined
          : `${call.thoughts.length} thought${call.thoughts.length === 1 ? '' : 's'}`,
      ),
    ],
    details,
    false,
  );
}

function toolRow(call) {
  const failed = call.error !== undefined || call.status === 'error';
  const details = [el('h4', {}, 'Arguments'), el('pre', { class: 'args' }, json(call.args))];
  if (call.error !== undefined)
    details.push(el('h4', {}, 'Error'), el('pre', { class: 'error' }, call.error));
  if (call.result !== undefined)
    details.push(el('h4', {}, 'Result'), el('pre', { class: 'result' }, call.result));
  details.push(el('h4', {}, 'Decision'), el('p', { class: 'decision' }, call.decision));
  const approval = call.approval;
  if (approval) {
    const facts = [];
    if (approval.rule) facts.push(`rule: ${approval.rule}`);
    if (approval.by === 'default') facts.push('the approval mode’s default');
    if (approval.askedAt) facts.push(`asked ${when(approval.askedAt)}`);
    if (approval.timestamp) facts.push(`decided ${when(approval.timestamp)}`);
    if (approval.waitMs !== undefined) facts.push(`waited ${duration(approval.waitMs)}`);
    if (approval.decision === 'allow_always') facts.push('allowed for the rest of the session');
    details.push(el('p', { class: 'approval' }, facts.join(' · ')));
    if (approval.message) details.push(el('pre', { class: 'error' }, approval.message));
  }
  if (call.subagent) {
    details.push(
      el(
        'section',
        { class: 'lane', 'aria-label': `Subagent ${call.subagent.sessionId}` },
        el('h4', {}, `Subagent ${call.subagent.sessionId}`),
        ...call.subagent.turns.map(turnSection),
      ),
    );
  }
  return row(
    'tool',
    call.id,
    [
      el('span', { class: 'badge' }, 'Tool'),
      el('span', { class: 'label' }, call.name),
      el('span', { class: 'status' }, call.status),
      call.decision === 'ran' || call.decision === call.status
        ? undefined
        : el('span', { class: 'who' }, call.decision),
      meta(
        call.approval?.waitMs === undefined
          ? undefined
          : `approval ${duration(call.approval.waitMs)}`,
        call.durationMs === undefined ? undefined : `≈ ${duration(call.durationMs)}`,
      ),
    ],
    details,
    failed,
  );
}

function retryRow(retry) {
  return row(
    'retry',
    retry.id,
    [
      el('span', { class: 'badge' }, 'Retry'),
      el('span', { class: 'label' }, `attempt ${retry.attempt} of ${retry.maxAttempts} failed`),
      el('span', { class: 'status' }, retry.reason),
      meta(
        retry.phase === 'stream' ? 'the response broke off' : 'before the response',
        `retried after ${duration(retry.delayMs)}`,
      ),
    ],
    [el('h4', {}, 'Failure'), el('pre', { class: 'error' }, retry.message)],
    true,
  );
}

function compressionRow(c) {
  const tokens =
    c.originalTokens === undefined || c.newTokens === undefined
      ? undefined
      : `${c.originalTokens} → ${c.newTokens} tokens`;
  const details = [el('p', {}, c.text)];
  details.push(
    el(
      'p',
      { class: 'hint' },
      'The stored history is the compressed one from here on: earlier turns are kept as the summary.',
    ),
  );
  return row(
    'compression',
    c.id,
    [
      el('span', { class: 'badge' }, 'Compressed'),
      el(
        'span',
        { class: 'label' },
        c.status === 'content_truncated' ? 'tool outputs cut' : 'history summarised',
      ),
      meta(tokens, c.trigger),
    ],
    details,
    false,
  );
}

function noteRow(note) {
  return el(
    'li',
    { class: `row note ${note.level}`, 'data-kind': 'note', 'data-id': note.id },
    `${note.level}: ${note.text}`,
  );
}

function turnSection(turn) {
  const rows = el('ul', { class: 'rows' });
  for (const item of turn.items) {
    if (item.kind === 'model') rows.append(modelRow(item));
    else if (item.kind === 'tool') rows.append(toolRow(item));
    else if (item.kind === 'retry') rows.append(retryRow(item));
    else if (item.kind === 'compression') rows.append(compressionRow(item));
    else rows.append(noteRow(item));
  }
  return el(
    'section',
    { class: 'turn', 'data-turn': String(turn.index), 'aria-label': `Turn ${turn.index}` },
    el(
      'h3',
      {},
      `Turn ${turn.index}${turn.durationMs === undefined ? '' : ` (${duration(turn.durationMs)})`}: `,
      el('span', { class: 'prompt' }, turn.prompt || '(no prompt)'),
    ),
    rows,
  );
}

function renderTimeline(view) {
  const main = document.getElementById('main');
  main.replaceChildren();
  if (view === null) {
    main.append(el('p', { class: 'empty' }, 'This session does not exist (any more).'));
    return;
  }
  const t = view.totals;
  const cost = `${usd(t.costUsd)}${t.unpricedCalls > 0 ? ` (+${t.unpricedCalls} unpriced)` : ''}`;
  main.append(
    el('h2', { id: 'session-title' }, view.summary || `Session ${view.sessionId}`),
    el(
      'p',
      { class: 'hint' },
      `${view.sessionId} · started ${when(view.startTime)} · updated ${when(view.lastUpdated)}`,
    ),
    el(
      'ul',
      { class: 'totals', 'aria-label': 'Totals' },
      el('li', {}, el('strong', { 'data-total': 'turns' }, String(t.turns)), 'turns'),
      el(
        'li',
        {},
        el('strong', { 'data-total': 'modelCalls' }, String(t.modelCalls)),
        'model calls',
      ),
      el('li', {}, el('strong', { 'data-total': 'toolCalls' }, String(t.toolCalls)), 'tool calls'),
      el('li', {}, el('strong', { 'data-total': 'errors' }, String(t.errors)), 'errors'),
      el('li', {}, el('strong', { 'data-total': 'retries' }, String(t.retries)), 'retries'),
      el(
        'li',
        {},
        el('strong', { 'data-total': 'compressions' }, String(t.compressions)),
        'compressions',
      ),
      el(
        'li',
        {},
        el('strong', { 'data-total': 'tokens' }, `${t.inputTokens} / ${t.outputTokens}`),
        'tokens in / out',
      ),
      el('li', {}, el('strong', { 'data-total': 'cost' }, cost), 'estimated cost'),
    ),
  );
  if (view.turns.length === 0) main.append(el('p', { class: 'empty' }, 'No turns yet.'));
  for (const turn of view.turns) main.append(turnSection(turn));
}

function renderSessions() {
  const list = document.getElementById('session-list');
  list.replaceChildren();
  if (state.sessions.length === 0)
    list.append(el('li', { class: 'empty' }, 'No sessions in this project yet.'));
  for (const s of state.sessions) {
    const label = s.summary || s.firstPrompt || s.sessionId;
    list.append(
      el(
        'li',
        {},
        el(
          'a',
          {
            href: `#/session/${encodeURIComponent(s.sessionId)}`,
            'aria-current': s.sessionId === state.current ? 'page' : undefined,
            'data-session': s.sessionId,
          },
          label,
          el('span', { class: 'when' }, `${when(s.lastUpdated)} · ${s.messageCount} messages`),
        ),
      ),
    );
  }
}

async function loadSessions() {
  const response = await fetch('api/sessions');
  state.sessions = response.ok ? await response.json() : [];
  renderSessions();
}

function follow(id) {
  state.source?.close();
  const live = document.getElementById('live');
  const source = new EventSource(`api/sessions/${encodeURIComponent(id)}/events`);
  state.source = source;
  source.addEventListener('timeline', (event) => {
    renderTimeline(JSON.parse(event.data));
    live.textContent = `Live · updated ${new Date().toLocaleTimeString()}`;
    void loadSessions();
  });
  source.addEventListener('error', () => {
    live.textContent = 'Live updates paused (reconnecting)';
  });
}

async function openSession(id) {
  state.current = id;
  state.expanded.clear();
  renderSessions();
  const response = await fetch(`api/sessions/${encodeURIComponent(id)}`);
  renderTimeline(response.ok ? await response.json() : null);
  follow(id);
}

function route() {
  const match = /^#\/session\/(.+)$/.exec(location.hash);
  if (match) void openSession(decodeURIComponent(match[1]));
}

window.addEventListener('hashchange', route);
void loadSessions().then(route);
