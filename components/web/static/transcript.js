// The page's transcript: agent events folded into items (as the terminal's store does), and items
// drawn as DOM nodes. A node is rebuilt only when its item changed, so a long session streams
// as cheaply as a short one.

export function newTranscript() {
  return { items: [], tools: new Map(), contextTokens: 0, version: 0 };
}

function touch(t, item) {
  item.version = ++t.version;
}

function push(t, item) {
  touch(t, item);
  t.items.push(item);
  return item;
}

/** The item text streams into: the last one, looking past notices that arrived mid-stream. */
function streamTail(t) {
  let at = t.items.length - 1;
  while (t.items[at]?.kind === 'notice') at--;
  return t.items[at];
}

function stream(t, kind, text) {
  // A notice that arrived mid-answer (a hook, a warning) stays below the text, which goes on
  // growing in one piece instead of being cut at the notice (as the terminal's store does).
  const tail = streamTail(t);
  if (tail && tail.kind === kind && !tail.done) {
    tail.text += text;
    touch(t, tail);
  } else push(t, { kind, text, done: false });
}

function finishStreams(t) {
  for (const item of t.items) {
    if ((item.kind === 'assistant' || item.kind === 'thinking') && !item.done) {
      item.done = true;
      touch(t, item);
    }
  }
}

/** Folds one event into the transcript. */
export function applyEvent(t, event) {
  switch (event.type) {
    case 'session_start':
      return;
    case 'user_prompt':
      finishStreams(t);
      push(t, { kind: 'user', text: event.text });
      return;
    case 'text_delta':
      return stream(t, 'assistant', event.text);
    case 'thinking_delta':
      return stream(t, 'thinking', event.text);
    case 'assistant':
      return finishStreams(t);
    case 'tool_start': {
      finishStreams(t);
      const tool = push(t, { kind: 'tool', id: event.id, name: event.name, input: event.input, view: event.view, parallel: event.parallel, batch: event.batch, status: 'running', output: '', notes: [], children: [], started: Date.now() });
      t.tools.set(event.id, tool);
      return;
    }
    case 'auto_run': {
      if (event.status === 'started') {
        const tool = push(t, { kind: 'tool', id: event.run_id, name: 'agent', input: { description: `scheduled task ${event.task_id}`, task: event.prompt }, parallel: false, batch: -1, status: 'running', output: '', notes: [], children: [], started: Date.now() });
        t.tools.set(event.run_id, tool);
      } else {
        const tool = t.tools.get(event.run_id);
        if (!tool) return;
        tool.status = event.status === 'finished' ? 'done' : event.status === 'cancelled' ? 'interrupted' : 'failed';
        tool.result = event.result ?? '';
        tool.duration = event.duration_ms;
        touch(t, tool);
      }
      return;
    }
    case 'tool_progress': {
      const tool = t.tools.get(event.id);
      if (!tool) return;
      tool.output = (tool.output + event.content).slice(-4000);
      touch(t, tool);
      return;
    }
    case 'tool_result': {
      const tool = t.tools.get(event.id);
      if (!tool) return;
      tool.status = event.is_error ? 'failed' : 'done';
      tool.result = event.content;
      tool.duration = event.duration_ms;
      touch(t, tool);
      return;
    }
    case 'permission_request': {
      const tool = t.tools.get(event.id);
      if (tool) {
        tool.status = 'asking';
        touch(t, tool);
      }
      return;
    }
    case 'permission_denied': {
      const tool = t.tools.get(event.id);
      if (tool) {
        tool.status = 'denied';
        tool.result = event.reason;
        touch(t, tool);
      }
      return;
    }
    case 'hook': {
      const tool = event.tool_id ? t.tools.get(event.tool_id) : undefined;
      const note = `hook ${event.hook_event} ${event.outcome}: ${event.text}`;
      if (tool) {
        tool.notes.push(note);
        touch(t, tool);
      } else push(t, { kind: 'notice', level: event.outcome === 'error' ? 'warning' : 'info', message: note });
      return;
    }
    case 'subagent': {
      const tool = t.tools.get(event.parent_id);
      if (!tool) return;
      const inner = event.event;
      if (inner.type === 'tool_start') tool.children.push(`${inner.name} ${summary(inner.name, inner.input, inner.view)}`);
      else if (inner.type === 'text_delta') tool.output = (tool.output + inner.text).slice(-2000);
      else return;
      touch(t, tool);
      return;
    }
    case 'usage': {
      const u = event.usage;
      t.contextTokens = u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + u.output_tokens;
      return;
    }
    case 'notice':
      if (event.code === 'retry') return;
      push(t, { kind: 'notice', level: event.level, message: event.message });
      return;
    case 'cron':
      if (event.status === 'created' || event.status === 'deleted') return;
      push(t, { kind: 'notice', level: 'info', message: `⏰ cron ${event.status} ${event.task_id} · ${event.schedule} · ${event.prompt}${event.result ? `\n${event.result}` : ''}` });
      return;
    case 'mode_change':
      push(t, { kind: 'notice', level: 'info', message: `Mode: ${event.mode}` });
      return;
    case 'clear':
      t.items.length = 0;
      t.tools.clear();
      push(t, { kind: 'notice', level: 'info', message: 'Conversation cleared.' });
      return;
    case 'compact':
      push(t, { kind: 'notice', level: 'info', message: `Compacted: ${event.tokens_before} → ${event.tokens_after} tokens` });
      return;
    case 'rewind': {
      // Back to before an earlier prompt (rewound in the terminal): the last dropped_prompts prompts and all after them go.
      const prompts = t.items.flatMap((item, i) => (item.kind === 'user' ? [i] : []));
      const cut = prompts[Math.max(0, prompts.length - event.dropped_prompts)];
      if (cut === undefined) return;
      for (const item of t.items.slice(cut)) if (item.kind === 'tool') t.tools.delete(item.id);
      t.items.length = cut;
      push(t, { kind: 'notice', level: 'info', message: 'Rewound to before an earlier prompt.' });
      return;
    }
    case 'terminal':
      finishStreams(t);
      for (const tool of t.tools.values()) {
        if (tool.status === 'running' || tool.status === 'asking') {
          if (tool.batch === -1) continue; // a cron auto run outlives the turn
          tool.status = 'interrupted';
          touch(t, tool);
        }
      }
      if (event.reason !== 'completed') push(t, { kind: 'notice', level: event.reason === 'error' ? 'error' : 'warning', message: `Turn ended: ${event.reason}${event.error ? ` — ${event.error}` : ''}` });
      return;
    default:
      return;
  }
}

/** A call's title: the one its tool gave (the event's view); for a call recorded before views, the path, command, pattern or query it names. */
export function summary(name, input, view) {
  if (view && typeof view.title === 'string' && view.title !== '') return view.title;
  if (!input || typeof input !== 'object') return '';
  for (const key of ['command', 'path', 'file_path', 'pattern', 'query', 'url', 'description', 'task']) {
    if (typeof input[key] === 'string') return input[key].length > 120 ? `${input[key].slice(0, 117)}…` : input[key];
  }
  return '';
}

const STATUS_MARK = { running: '⠿', asking: '?', done: '✓', failed: '✗', denied: '⊘', interrupted: '■' };
const cache = new WeakMap();

function drawItem(item, ui) {
  const { el, markdown } = ui;
  switch (item.kind) {
    case 'user':
      return el('div', { class: 'item user' }, el('span', { class: 'who' }, '›'), el('div', { class: 'text' }, item.text));
    case 'assistant':
      return el('div', { class: `item assistant${item.done ? '' : ' streaming'}` }, markdown(item.text));
    case 'thinking':
      return el('details', { class: 'item thinking' }, el('summary', {}, 'thinking'), el('div', { class: 'text' }, item.text));
    case 'notice':
      return el('div', { class: `item notice ${item.level}` }, item.message);
    case 'tool': {
      const open = cache.get(item)?.open ?? false;
      const duration = item.duration !== undefined ? `${(item.duration / 1000).toFixed(1)}s` : '';
      const details = el(
        'details',
        { class: `item tool ${item.status}`, 'data-tool': item.id, ...(open ? { open: true } : {}) },
        el('summary', {}, el('span', { class: 'mark' }, STATUS_MARK[item.status] ?? '·'), el('strong', {}, item.name), ' ', el('span', { class: 'arg' }, summary(item.name, item.input, item.view)), el('span', { class: 'duration' }, duration)),
        el('pre', { class: 'input' }, JSON.stringify(item.input, null, 2)),
        item.children.length ? el('ul', { class: 'children' }, item.children.map((c) => el('li', {}, c))) : null,
        item.output && item.result === undefined ? el('pre', { class: 'output' }, item.output) : null,
        item.result !== undefined ? el('pre', { class: 'result' }, item.result) : null,
      );
      details.addEventListener('toggle', () => {
        const entry = cache.get(item);
        if (entry) entry.open = details.open;
      });
      const notes = item.notes.map((n) => el('div', { class: 'hook-note' }, n));
      return notes.length ? el('div', { class: 'tool-wrap' }, details, ...notes) : details;
    }
    default:
      return el('div', { class: 'item' }, JSON.stringify(item));
  }
}

/** The transcript's nodes; parallel calls of one batch side by side in a group. */
export function renderTranscript(t, ui) {
  const nodes = [];
  let group;
  for (const item of t.items) {
    let entry = cache.get(item);
    if (!entry || entry.version !== item.version) {
      const open = entry?.open ?? false;
      cache.set(item, { version: item.version, open, node: undefined });
      entry = cache.get(item);
      entry.node = drawItem(item, ui);
    }
    const approval = item.kind === 'tool' && item.status === 'asking' ? ui.approvalFor(item.id) : null;
    if (item.kind === 'tool' && item.parallel) {
      if (!group || group.batch !== item.batch) {
        group = { batch: item.batch, node: ui.el('div', { class: 'parallel' }, ui.el('div', { class: 'label' }, 'parallel')) };
        nodes.push(group.node);
      }
      group.node.append(entry.node);
      if (approval) group.node.append(approval);
      continue;
    }
    group = undefined;
    nodes.push(entry.node);
    if (approval) nodes.push(approval);
  }
  return nodes;
}
