// The page's transcript: agent events folded into items (as the terminal's store does), and items
// drawn as DOM nodes. A node is rebuilt only when its item changed, so a long session streams
// as cheaply as a short one.

import { attachmentLabel } from './attachments.js';
import { findingCards } from './findings.js';

export function newTranscript() {
  // planFolds: whether the pinned plan (plan.js) is folded, and how often that changed: approved opens it, the next prompt folds it.
  return { items: [], cards: new Map(), contextTokens: 0, version: 0, planFolds: { folded: true, count: 0 } };
}

function foldPlan(t, folded) {
  if (t.planFolds.folded === folded) return;
  t.planFolds = { folded, count: t.planFolds.count + 1 };
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

// A tool card's status is never decided here: the server folds the events with the terminal's
// rules (src/tools/card-lifecycle.ts, src/serve/card-fold.ts) and sends, beside each event, the
// cards it started or moved (`event.cards`, each with its own key: tool_use ids can repeat).

/** The newest card of a tool call: engine events name a call by its tool_use id. */
function callCard(t, toolUseId) {
  return t.items.findLast((item) => item.kind === 'tool' && item.toolUseId === toolUseId);
}

/** A new card under the key (and with the status) the server gave it. */
function openCard(t, card, fields) {
  const tool = push(t, { kind: 'tool', key: card.key, status: card.status, output: '', notes: [], children: [], started: Date.now(), ...fields });
  t.cards.set(tool.key, tool);
}

/** The statuses the server folded for this event. */
function applyCards(t, event) {
  for (const { key, status } of event.cards ?? []) {
    const tool = t.cards.get(key);
    if (tool && tool.status !== status) {
      tool.status = status;
      touch(t, tool);
    }
  }
}

/** Folds one event into the transcript. */
export function applyEvent(t, event) {
  foldEvent(t, event);
  applyCards(t, event);
}

function foldEvent(t, event) {
  const started = event.cards?.[0];
  switch (event.type) {
    case 'session_start':
      return;
    case 'user_prompt':
      finishStreams(t);
      foldPlan(t, true);
      push(t, { kind: 'user', text: event.text, attachments: event.attachments ?? [] });
      return;
    case 'text_delta':
      return stream(t, 'assistant', event.text);
    case 'thinking_delta':
      return stream(t, 'thinking', event.text);
    case 'assistant':
      return finishStreams(t);
    case 'tool_start':
      finishStreams(t);
      if (started) openCard(t, started, { toolUseId: event.id, name: event.name, input: event.input, view: event.view, parallel: event.parallel, batch: event.batch });
      return;
    case 'auto_run': {
      if (event.status === 'started') {
        if (started) openCard(t, started, { toolUseId: event.run_id, name: 'agent', input: { description: `scheduled task ${event.task_id}`, task: event.prompt }, parallel: false, batch: -1 });
        return;
      }
      const tool = callCard(t, event.run_id);
      if (!tool) return;
      tool.result = event.result ?? '';
      tool.duration = event.duration_ms;
      touch(t, tool);
      return;
    }
    case 'tool_progress': {
      const tool = callCard(t, event.id);
      if (!tool) return;
      tool.output = (tool.output + event.content).slice(-4000);
      touch(t, tool);
      return;
    }
    case 'tool_result': {
      // What came back is kept whatever the status: a denied card still shows the denial the model got.
      const tool = callCard(t, event.id);
      if (!tool) return;
      tool.result = event.content;
      tool.duration = event.duration_ms;
      if (event.display) tool.display = event.display;
      touch(t, tool);
      return;
    }
    case 'permission_denied': {
      const tool = callCard(t, event.id);
      if (!tool) return;
      tool.result = event.reason;
      touch(t, tool);
      return;
    }
    case 'hook': {
      const tool = event.tool_id ? callCard(t, event.tool_id) : undefined;
      const note = `hook ${event.hook_event} ${event.outcome}: ${event.text}`;
      if (tool) {
        tool.notes.push(note);
        touch(t, tool);
      } else push(t, { kind: 'notice', level: event.outcome === 'error' ? 'warning' : 'info', message: note });
      return;
    }
    case 'subagent': {
      const tool = callCard(t, event.parent_id);
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
    case 'shell_watch': {
      // The same small notice as the terminal's (src/shells/watch-notice.ts); its start is the monitor call's card.
      if (event.status === 'watching') return;
      const lines = event.lines ?? [];
      const shown = lines.slice(0, 3).map((l) => `  ${l}`).concat(lines.length > 3 ? [`  … ${lines.length - 3} more`] : []);
      const pattern = event.pattern !== undefined ? ` /${event.pattern}/` : '';
      const dropped = event.dropped ? ` (${event.dropped} dropped)` : '';
      const head = event.status === 'lines'
        ? `${event.shell_id}${pattern}: ${lines.length} new line${lines.length === 1 ? '' : 's'}${dropped}`
        : event.status === 'ended' ? `${event.shell_id} ${event.reason ?? 'ended'}; watch over${dropped}` : `Stopped watching ${event.shell_id}: ${event.reason ?? 'stopped'}${dropped}`;
      const failed = (event.status === 'ended' && event.exit_code !== undefined && event.exit_code !== 0) || (event.status === 'stopped' && (event.cause !== undefined || /pattern/.test(event.reason ?? '')));
      push(t, { kind: 'notice', level: failed ? 'warning' : 'info', message: [head, ...shown].join('\n') });
      return;
    }
    case 'plan_approved':
      // The block itself is drawn from the session's state (plan.js); here only whether it is open.
      t.planFolds = { folded: false, count: t.planFolds.count + 1 };
      return;
    case 'mode_change':
      push(t, { kind: 'notice', level: 'info', message: `Mode: ${event.mode}` });
      return;
    case 'clear':
      t.items.length = 0;
      t.cards.clear();
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
      for (const item of t.items.slice(cut)) if (item.kind === 'tool') t.cards.delete(item.key);
      t.items.length = cut;
      push(t, { kind: 'notice', level: 'info', message: 'Rewound to before an earlier prompt.' });
      return;
    }
    case 'terminal':
      finishStreams(t);
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

// The terminal's statuses (src/tools/card-lifecycle.ts) and its marks.
const STATUS_MARK = { running: '⠿', awaiting_approval: '?', success: '✓', error: '✗', denied: '⊘', interrupted: '■' };
const cache = new WeakMap();

function drawItem(item, ui) {
  const { el, markdown } = ui;
  switch (item.kind) {
    case 'user':
      return el(
        'div',
        { class: 'item user' },
        el('span', { class: 'who' }, '›'),
        el('div', { class: 'body' }, el('div', { class: 'text' }, item.text), item.attachments?.length ? el('div', { class: 'attached' }, item.attachments.map((a) => attachedNode(a, ui))) : null),
      );
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
        { class: `item tool ${item.status}`, 'data-tool': item.key, ...(open ? { open: true } : {}) },
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
      // A review's findings show as cards under the call, open: they are what the user reads.
      const findings = findingCards(item.display, el);
      return notes.length || findings ? el('div', { class: 'tool-wrap' }, details, findings, ...notes) : details;
    }
    default:
      return el('div', { class: 'item' }, JSON.stringify(item));
  }
}

/** An image or PDF sent with a prompt: its label, and for an image its thumbnail (fetched by hash; gone, only the label stays). */
function attachedNode(a, ui) {
  const { el } = ui;
  const label = el('span', { class: 'label' }, attachmentLabel(a));
  const sha = a.source?.type === 'ref' ? a.source.sha256 : undefined;
  if (a.type !== 'image' || !sha) return el('figure', { class: 'attachment' }, label);
  const img = el('img', { class: 'thumb', src: ui.imageUrl(sha), alt: a.name, loading: 'lazy', width: String(a.width), height: String(a.height) });
  img.addEventListener('error', () => img.remove());
  return el('figure', { class: 'attachment' }, img, el('figcaption', {}, label));
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
    const approval = item.kind === 'tool' && item.status === 'awaiting_approval' ? ui.approvalFor(item.toolUseId) : null;
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
