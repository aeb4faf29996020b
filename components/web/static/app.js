// cairn's browser face: the same events as the terminal, drawn as a page. No build step: a module
// the server hands out as it is. Everything the model wrote is text or sanitised Markdown, never
// markup of its own (the page can answer approvals, so it must not run what a model prints).
import { marked } from '/vendor/marked.js';
import { renderTranscript, newTranscript, applyEvent } from './transcript.js';
import { questionBox } from './question.js';
import { createAttachmentTray } from './attachments.js';
import { sessionButtons } from './session-tools.js';
import { drawPlan, resetPlan } from './plan.js';
import { closeWorktrees, worktreesButton } from './worktrees.js';

const token = new URLSearchParams(location.search).get('token') ?? sessionStorage.getItem('cairn-token') ?? '';
if (token) sessionStorage.setItem('cairn-token', token);
// Out of the address bar (and the history) once kept: the tab's own storage holds it from here.
if (new URLSearchParams(location.search).has('token')) window.history.replaceState(null, '', location.pathname + location.hash);
const withToken = (url) => (token ? `${url}${url.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}` : url);

async function api(path, body, method = body === undefined ? 'GET' : 'POST') {
  const res = await fetch(withToken(path), { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.error ?? `${res.status} ${res.statusText}`);
  return data;
}

const $ = (sel, root = document) => root.querySelector(sel);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== false) node.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== undefined && c !== null) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
};

const app = {
  info: { commands: [], cwd: '' },
  workspaces: [],
  collapsed: new Set(JSON.parse(localStorage.getItem('cairn-collapsed') ?? '[]')),
  sessionId: undefined,
  state: undefined,
  transcript: newTranscript(),
  source: undefined,
  draft: '',
  reason: '',
  denying: false,
  completion: 0,
};

// Images and PDFs waiting for the next prompt (attachments.js).
const tray = createAttachmentTray({ api, toast: (m, level) => toast(m, level), redraw: () => drawChips() });

// ---- theme ------------------------------------------------------------------------------------
function applyTheme(theme) {
  document.documentElement.dataset.theme = theme;
  localStorage.setItem('cairn-theme', theme);
}
applyTheme(localStorage.getItem('cairn-theme') ?? (matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark'));

// ---- layout -----------------------------------------------------------------------------------
document.body.replaceChildren(
  el(
    'div',
    { class: 'shell' },
    el('aside', { class: 'sidebar', id: 'sidebar' }),
    el(
      'main',
      { class: 'main' },
      el('header', { class: 'topbar', id: 'topbar' }),
      el('div', { class: 'rename-row', id: 'rename-row' }),
      el('div', { class: 'worktrees-row', id: 'worktrees-row' }),
      el('section', { class: 'transcript', id: 'transcript', 'aria-live': 'polite' }),
      el('section', { class: 'pinned-plan', id: 'plan', 'aria-label': 'approved plan' }),
      el('section', { class: 'queued', id: 'queued' }),
      el('form', { class: 'composer', id: 'composer' }),
    ),
  ),
  el('div', { class: 'toasts', id: 'toasts' }),
);

// ---- sessions list ----------------------------------------------------------------------------
async function loadSessions() {
  const { workspaces } = await api('/api/sessions');
  app.workspaces = workspaces;
  drawSidebar();
}

function drawSidebar() {
  const side = $('#sidebar');
  const folder = el('input', { class: 'folder', placeholder: 'folder for a new session', value: app.info.cwd, 'aria-label': 'folder' });
  side.replaceChildren(
    el(
      'div',
      { class: 'brand' },
      el('strong', {}, 'cairn'),
      el('button', { type: 'button', class: 'theme', title: 'switch theme', id: 'theme', onclick: () => applyTheme(document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark') }, '◐'),
      el('button', { type: 'button', class: 'close-sidebar', id: 'close-sidebar', title: 'close the sessions list', 'aria-label': 'close the sessions list', onclick: () => showSidebar(false) }, '✕'),
    ),
    el('div', { class: 'new' }, folder, el('button', { type: 'button', id: 'new-session', onclick: () => openSession({ cwd: folder.value.trim() || undefined }) }, 'New session')),
    ...app.workspaces.map((w) => {
      const closed = app.collapsed.has(w.cwd);
      return el(
        'div',
        { class: `workspace${closed ? ' closed' : ''}` },
        el('button', { type: 'button', class: 'ws-title', 'aria-expanded': String(!closed), onclick: () => toggleWorkspace(w.cwd) }, `${closed ? '▸' : '▾'} ${w.cwd}`),
        closed
          ? null
          : el(
              'ul',
              {},
              w.sessions.map((s) =>
                el(
                  'li',
                  { class: `${s.id === app.sessionId ? 'current' : ''}` },
                  el('button', { type: 'button', 'data-session': s.id, onclick: () => openSession({ resume: s.id, cwd: w.cwd }) }, el('span', { class: `dot ${s.live ? (s.busy ? 'busy' : 'live') : ''}` }), s.title),
                ),
              ),
            ),
      );
    }),
  );
}

function toggleWorkspace(cwd) {
  if (app.collapsed.has(cwd)) app.collapsed.delete(cwd);
  else app.collapsed.add(cwd);
  localStorage.setItem('cairn-collapsed', JSON.stringify([...app.collapsed]));
  drawSidebar();
}

/** On a narrow screen the sessions list covers the page: it shows on demand and closes once a session is chosen. */
function showSidebar(shown) {
  document.body.classList.toggle('show-sidebar', shown);
}

async function openSession(opts) {
  showSidebar(false);
  try {
    const state = await api('/api/sessions', { ...(opts.cwd ? { cwd: opts.cwd } : {}), ...(opts.resume ? { resume: opts.resume } : {}) });
    location.hash = `#/session/${state.id}`;
  } catch (error) {
    toast(`Could not open the session: ${error.message}`, 'error');
  }
}

// ---- one session ------------------------------------------------------------------------------
function follow(id) {
  app.source?.close();
  app.sessionId = id;
  tray.reset(id);
  resetPlan();
  closeWorktrees(sessionDeps);
  app.transcript = newTranscript();
  app.state = undefined;
  drawAll();
  const source = new EventSource(withToken(`/api/sessions/${id}/events`));
  app.source = source;
  source.addEventListener('agent', (m) => {
    const event = JSON.parse(m.data);
    applyEvent(app.transcript, event);
    if (event.type === 'cron' && (event.status === 'fired' || event.status === 'auto_run_finished')) toast(`⏰ ${event.status === 'fired' ? 'fired' : 'auto-run finished'}: ${event.prompt}`);
    scheduleDraw();
  });
  source.addEventListener('state', (m) => {
    const before = app.state;
    app.state = JSON.parse(m.data);
    // Time left as of this message, made a deadline on this page's clock.
    for (const r of app.state.pending ?? []) if (r.expires_in_ms !== undefined) approvalDeadlines.set(r.request_id, Date.now() + r.expires_in_ms);
    scheduleDraw();
    // The list reads every saved session's file: refresh it when a turn starts or ends (its dot and
    // title change then), not on every state message of a turn.
    if (before?.busy !== app.state.busy) loadSessions().catch((error) => toast(`Could not list the sessions: ${error.message}`, 'error'));
  });
  source.addEventListener('reset', () => {
    app.transcript = newTranscript();
    scheduleDraw();
  });
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) toast('The event stream closed: reload the page', 'error');
  };
  drawSidebar();
}

let drawPending = false;
function scheduleDraw() {
  if (drawPending) return;
  drawPending = true;
  requestAnimationFrame(() => {
    drawPending = false;
    drawAll();
  });
}

function contextShare() {
  const used = app.transcript.contextTokens;
  const limit = app.state?.contextWindow ?? 200_000;
  return { used, limit, share: limit > 0 ? used / limit : 0 };
}

/** The context bar's fill (a style property, not an attribute: the page's CSP allows no inline styles). */
function fill(share) {
  const node = el('span', { class: 'fill' });
  node.style.width = `${Math.min(100, share * 100).toFixed(1)}%`;
  return node;
}

function drawTopbar() {
  const s = app.state;
  const { used, limit, share } = contextShare();
  const level = share >= 0.8 ? 'red' : share >= 0.5 ? 'amber' : 'green';
  const parts = [
    el('button', { type: 'button', class: 'menu', onclick: () => showSidebar(!document.body.classList.contains('show-sidebar')), 'aria-label': 'sessions' }, '☰'),
    el('span', { class: 'where' }, s ? s.cwd : 'No session open'),
    s ? el('span', { class: 'pill', id: 'mode' }, s.mode) : null,
    s ? el('span', { class: 'pill' }, s.model) : null,
    s ? el('span', { class: `context ${level}`, id: 'context', title: `${used} of ${limit} tokens` }, el('span', { class: 'bar' }, fill(share)), `${Math.round(share * 100)}%`) : null,
    ...(s ? sessionButtons(sessionDeps) : []),
    s ? worktreesButton(sessionDeps) : null,
    s?.busy ? el('button', { type: 'button', id: 'stop', onclick: stop }, 'Stop (Esc)') : null,
  ];
  // replaceChildren would draw a null as the text "null": only the parts that are there.
  $('#topbar').replaceChildren(...parts.filter((p) => p !== null));
}

const sessionDeps = {
  el,
  $,
  api,
  withToken,
  toast,
  sessionId: () => app.sessionId,
  // "(new session)", "(no prompt)" are placeholders, not names to edit.
  title: () => app.workspaces.flatMap((w) => w.sessions).find((x) => x.id === app.sessionId && !x.title.startsWith('('))?.title,
  renamed: () => void loadSessions().catch((error) => toast(error.message, 'error')),
};

/** Stops the turn; prompts that were waiting come back into the box (as in the terminal), so nothing runs by itself. */
async function stop() {
  if (!app.sessionId) return;
  try {
    const { returned } = await api(`/api/sessions/${app.sessionId}/abort`, {});
    if (returned.length) restoreDraft(returned);
  } catch (error) {
    toast(error.message, 'error');
  }
}

function restoreDraft(taken) {
  const area = $('#prompt');
  const text = [...taken, area.value].filter((t) => t !== '').join('\n');
  area.value = text;
  app.draft = text;
  drawCompletion();
  area.focus();
}

function drawQueued() {
  const queued = app.state?.queued ?? [];
  $('#queued').replaceChildren(...(queued.length ? [el('div', { class: 'label' }, `Queued (${queued.length})`), ...queued.map((q) => el('div', { class: 'queued-item' }, q))] : []));
}

function drawComposer() {
  const form = $('#composer');
  const existing = $('#prompt');
  if (!existing) {
    const area = el('textarea', { id: 'prompt', rows: '3', placeholder: 'Ask cairn… (Enter sends, Shift+Enter new line, / for commands)', 'aria-label': 'prompt' });
    area.addEventListener('input', () => {
      app.draft = area.value;
      app.completion = 0;
      drawCompletion();
    });
    area.addEventListener('keydown', onPromptKey);
    // A pasted or dropped image or PDF becomes a chip; pasted text stays text.
    area.addEventListener('paste', (e) => {
      const files = [...(e.clipboardData?.files ?? [])];
      if (files.length === 0) return;
      if (!e.clipboardData.types.includes('text/plain')) e.preventDefault();
      tray.addFiles(files);
    });
    form.addEventListener('dragover', (e) => {
      if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
    });
    form.addEventListener('drop', (e) => {
      const files = [...(e.dataTransfer?.files ?? [])];
      if (files.length === 0) return;
      e.preventDefault();
      tray.addFiles(files);
      area.focus();
    });
    form.replaceChildren(
      el('div', { class: 'completion', id: 'completion' }),
      el('div', { class: 'entry' }, el('div', { class: 'chips', id: 'chips', 'aria-label': 'attachments' }), area),
      el('button', { type: 'submit', id: 'send' }, 'Send'),
    );
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      send();
    });
  }
  const area = $('#prompt');
  area.disabled = !app.sessionId;
}

/** A command whose hint names a required argument (`<...>`) waits for it; others run at once. */
const needsArgs = (c) => c.argHint?.startsWith('<') ?? false;

function completions() {
  const text = app.draft;
  if (!text.startsWith('/') || text.includes(' ')) return [];
  return app.info.commands.filter((c) => `/${c.name}`.startsWith(text));
}

function drawChips() {
  $('#chips')?.replaceChildren(...tray.draw(el));
}

function drawCompletion() {
  const list = completions();
  $('#completion').replaceChildren(
    ...list.map((c, i) => el('div', { class: `option${i === app.completion ? ' selected' : ''}` }, el('strong', {}, `/${c.name}`), c.argHint ? ` ${c.argHint}` : '', el('span', { class: 'desc' }, ` — ${c.description}`))),
  );
}

function onPromptKey(e) {
  const list = completions();
  if (list.length && (e.key === 'Tab' || e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
    e.preventDefault();
    if (e.key === 'Tab') {
      const chosen = list[app.completion] ?? list[0];
      app.draft = `/${chosen.name} `;
      e.target.value = app.draft;
    } else app.completion = (app.completion + (e.key === 'ArrowDown' ? 1 : list.length - 1)) % list.length;
    drawCompletion();
    return;
  }
  // Backspace in an empty box takes the last chip back, as in the terminal.
  if (e.key === 'Backspace' && e.target.selectionStart === 0 && e.target.selectionEnd === 0 && tray.removeLast()) {
    e.preventDefault();
    return;
  }
  if (e.key === 'Enter' && !e.shiftKey) {
    e.preventDefault();
    // A partial `/mo` is the highlighted entry, as in the terminal's palette.
    const chosen = list[app.completion] ?? list[0];
    if (chosen && needsArgs(chosen)) {
      app.draft = `/${chosen.name} `;
      e.target.value = app.draft;
      app.completion = 0;
      drawCompletion();
      return;
    }
    if (chosen) e.target.value = `/${chosen.name}`;
    send();
  }
}

async function send() {
  const area = $('#prompt');
  const text = area.value.trim();
  if (!text || !app.sessionId) return;
  if (tray.uploading()) {
    toast('An attachment is still uploading: send when its chip shows its size');
    return;
  }
  const attachments = text.startsWith('/') ? [] : tray.ids();
  area.value = '';
  app.draft = '';
  drawCompletion();
  try {
    await api(`/api/sessions/${app.sessionId}/prompt`, { text, ...(attachments.length ? { attachments } : {}) });
    if (attachments.length) tray.sent();
  } catch (error) {
    area.value = text; // nothing typed is lost
    app.draft = text;
    toast(error.message, 'error');
  }
}

// ---- approvals --------------------------------------------------------------------------------
const ANSWER_KEYS = { yes: 'y', session: 'a', project: 'p', folder: 'f', acceptEdits: 'e', no: 'n' };
const ANSWER_LABELS = {
  yes: () => 'Yes',
  session: (r) => `Yes, don't ask again this session (${r.suggestions.join(', ')})`,
  project: (r) => `Yes, always in this project (${r.suggestions.join(', ')})`,
  folder: (r) => `Yes, always in this project, for the whole folder (${(r.folder ?? []).join(', ')})`,
  acceptEdits: () => 'Yes, and accept edits',
  no: () => 'No…',
};

function pendingRequest() {
  return app.state?.pending?.[0];
}

// How long each approval waits before cairn answers it no by itself (the approval timeout).
const approvalDeadlines = new Map();
function expiryText(id) {
  const deadline = approvalDeadlines.get(id);
  if (deadline === undefined) return '';
  const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  if (left === 0) return 'No answer in time: cairn answers no.';
  return `Waits ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')} for an answer, then cairn answers no.`;
}
window.setInterval(() => {
  for (const node of document.querySelectorAll('.approval .expiry')) node.textContent = expiryText(node.dataset.request);
}, 1000);

async function answer(kind) {
  const request = pendingRequest();
  if (!request) return;
  if (kind === 'no' && !app.denying) {
    app.denying = true;
    drawAll();
    $('#deny-reason')?.focus();
    return;
  }
  const reason = kind === 'no' ? ($('#deny-reason')?.value ?? '') : '';
  app.denying = false;
  try {
    // The ask's own id: the tool_use id (request.id) can be shared by parallel subagents' asks.
    await api(`/api/sessions/${app.sessionId}/permission`, { request_id: request.request_id, answer: kind, ...(reason ? { reason } : {}) });
  } catch (error) {
    toast(error.message, 'error');
  }
}

// The box is kept across redraws (an event arrives many times a second while the user types a reason).
let approvalCache;
function approvalBox(request) {
  if (approvalCache && approvalCache.id === request.request_id && approvalCache.denying === app.denying) return approvalCache.node;
  const fresh = approvalCache?.id !== request.request_id;
  approvalCache = { id: request.request_id, denying: app.denying, node: drawApprovalBox(request) };
  if (fresh) armApproval(approvalCache.node, request);
  else approvalCache.node.dataset.armed = 'true';
  return approvalCache.node;
}

/** As the terminal words it: the description the model wrote for a command, when there is one. */
function approvalHeadline(request) {
  const view = request.view;
  if (request.name === 'exit_plan_mode') return 'Approve this plan?';
  const described = view?.subject?.kind === 'command' && view.title !== view.subject.command.split('\n').find((l) => l.trim() !== '')?.trim();
  return described ? `Allow ${request.name}: ${view.title}?` : `Allow ${request.name}?`;
}

/** What the approval is about, from the call's view: the command as it will run, the path, the plan or the question. */
function subjectNode(view) {
  const s = view?.subject;
  const text = s?.kind === 'command' ? `$ ${s.command}` : s?.kind === 'path' ? s.path : s?.kind === 'plan' ? s.plan : s?.kind === 'question' ? s.question : undefined;
  return text === undefined ? null : el('pre', { class: 'subject' }, text);
}

/** A question's answers (or, with none, its decline) go to the server once; the model gets them. */
async function answerQuestion(answers) {
  const request = pendingRequest();
  if (!request) return;
  try {
    await api(`/api/sessions/${app.sessionId}/question`, { request_id: request.request_id, ...(answers ? { answers } : {}) });
  } catch (error) {
    toast(error.message, 'error');
  }
}

const isQuestion = (request) => request?.name === 'ask_user_question';

function drawApprovalBox(request) {
  if (isQuestion(request)) return questionBox(request, { el, send: (answers) => answerQuestion(answers), decline: () => answerQuestion(undefined), armed: () => approvalCache?.node.dataset.armed === 'true' });
  return el(
    'div',
    { class: 'approval', id: 'approval', role: 'group', 'aria-label': 'approval', tabindex: '0' },
    el('div', { class: 'ask' }, `${approvalHeadline(request)} `, el('span', { class: 'reason' }, request.reason)),
    subjectNode(request.view),
    approvalDeadlines.has(request.request_id) ? el('div', { class: 'expiry', 'data-request': request.request_id }, expiryText(request.request_id)) : null,
    request.preview ? el('pre', { class: 'preview' }, request.preview.split('\n').map((line) => el('span', { class: line.startsWith('+') && !line.startsWith('+++') ? 'add' : line.startsWith('-') && !line.startsWith('---') ? 'del' : '' }, `${line}\n`))) : null,
    el('div', { class: 'answers' }, request.answers.map((kind) => el('button', { type: 'button', 'data-answer': kind, onclick: () => answer(kind) }, `${ANSWER_KEYS[kind]} · ${ANSWER_LABELS[kind](request)}`))),
    app.denying
      ? el(
          'form',
          {
            class: 'deny',
            onsubmit: (e) => {
              e.preventDefault();
              answer('no');
            },
          },
          el('input', { id: 'deny-reason', placeholder: 'What should cairn do instead? (Enter sends)', 'aria-label': 'reason' }),
        )
      : null,
  );
}

// Keys answer an approval only when the approval has the focus and has been on screen for a
// moment: a key typed into the prompt is text, so a draft's first "y" can never approve anything.
const APPROVAL_GUARD_MS = 500;
function armApproval(node, request) {
  node.dataset.request = request.id;
  const typing = ($('#prompt')?.value ?? '') !== '';
  setTimeout(() => {
    node.dataset.armed = 'true';
  }, APPROVAL_GUARD_MS);
  // Someone typing keeps the focus; otherwise the approval takes it, so y/a/p/n answer it.
  if (!typing) queueMicrotask(() => node.focus());
}

document.addEventListener('keydown', (e) => {
  const request = pendingRequest();
  const active = document.activeElement;
  if (e.key === 'Escape') {
    // A question is declined and the turn goes on; an approval's Esc is "no, and stop".
    if (isQuestion(request)) answerQuestion(undefined);
    else if (request) answer('no').then(stop);
    else if (app.state?.busy) stop();
    return;
  }
  if (!request || isQuestion(request) || e.ctrlKey || e.metaKey || e.altKey) return;
  const box = $('#approval');
  if (!box || !box.contains(active) || active.id === 'deny-reason') return;
  if (box.dataset.armed !== 'true') {
    // Type-ahead: a key pressed as the approval appeared was meant for the prompt; it goes there.
    if (e.key.length === 1) $('#prompt')?.focus();
    return;
  }
  const kind = Object.keys(ANSWER_KEYS).find((k) => ANSWER_KEYS[k] === e.key.toLowerCase());
  if (kind && request.answers.includes(kind)) {
    e.preventDefault();
    answer(kind);
  }
});

// ---- drawing ----------------------------------------------------------------------------------
function drawAll() {
  drawTopbar();
  const box = $('#transcript');
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  const request = pendingRequest();
  box.replaceChildren(...renderTranscript(app.transcript, { el, markdown, imageUrl, approvalFor: (id) => (request && request.id === id ? approvalBox(request) : null) }));
  if (request && !box.querySelector('#approval')) box.append(approvalBox(request));
  if (atBottom) box.scrollTop = box.scrollHeight;
  drawPlan($('#plan'), app.state?.plan, app.transcript.planFolds, { el, markdown });
  drawQueued();
  drawComposer();
}

/** Where a prompt's saved image is (by its hash, from the session's own folder on the server). */
function imageUrl(sha256) {
  return withToken(`/api/sessions/${app.sessionId}/images/${sha256}`);
}

function toast(message, level = 'info') {
  const node = el('div', { class: `toast ${level}` }, message);
  $('#toasts').append(node);
  setTimeout(() => node.remove(), 6000);
}

// ---- markdown, safely -------------------------------------------------------------------------
const escapeHtml = (s) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
const KEYWORDS = 'const|let|var|function|return|if|else|for|while|import|export|from|class|new|async|await|def|fn|pub|struct|impl|type|interface|true|false|null|undefined|None|True|False';
// One pass over the raw code: each piece is escaped once and wrapped once, so no rule ever runs over
// markup another added (a keyword rule meeting `class="..."` in a span, a number rule inside `&#39;`).
const TOKENS = new RegExp(
  String.raw`("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|` + '`[^`]*`' + String.raw`)|((?:^|(?<=\s))(?:\/\/|#).*$)|(\b\d+(?:\.\d+)?\b)|(\b(?:${KEYWORDS})\b)`,
  'gm',
);
function highlight(code) {
  // Strings, comments, numbers and keywords: enough to read code at a glance.
  let out = '';
  let at = 0;
  for (const m of code.matchAll(TOKENS)) {
    const kind = m[1] !== undefined ? 'str' : m[2] !== undefined ? 'com' : m[3] !== undefined ? 'num' : 'kw';
    out += `${escapeHtml(code.slice(at, m.index))}<span class="tok-${kind}">${escapeHtml(m[0])}</span>`;
    at = m.index + m[0].length;
  }
  return out + escapeHtml(code.slice(at));
}
const SAFE_URL = /^(?:https?:|mailto:|#|\/(?!\/))/i;
marked.use({
  renderer: {
    html: (token) => escapeHtml(token.text ?? token.raw ?? ''),
    link: (token) => (SAFE_URL.test(token.href) ? `<a href="${escapeHtml(token.href)}" target="_blank" rel="noopener noreferrer">${escapeHtml(token.text)}</a>` : escapeHtml(token.text)),
    image: (token) => escapeHtml(`[image: ${token.text || token.href}]`),
    code: (token) => `<pre class="code"><code>${highlight(token.text)}</code></pre>`,
  },
});
function markdown(text) {
  const div = document.createElement('div');
  div.className = 'md';
  div.innerHTML = marked.parse(text, { async: false });
  return div;
}

// ---- start ------------------------------------------------------------------------------------
async function start() {
  app.info = await api('/api/info');
  await loadSessions();
  const route = () => {
    const m = /^#\/session\/([\w-]+)$/.exec(location.hash);
    if (m && m[1] !== app.sessionId) follow(m[1]);
    else drawAll();
  };
  window.addEventListener('hashchange', route);
  route();
  const global = new EventSource(withToken('/api/events'));
  global.addEventListener('notice', (m) => {
    const n = JSON.parse(m.data);
    if (n.session === app.sessionId) return; // shown in the transcript already
    const e = n.event;
    toast(e.type === 'cron' ? `⏰ ${n.cwd}: ${e.status} ${e.prompt}` : e.type === 'notice' ? `${n.cwd}: ${e.message}` : `${n.cwd}: ${e.type}`, e.level === 'error' ? 'error' : 'info');
  });
}
start().catch((error) => {
  document.body.replaceChildren(el('pre', { class: 'fatal' }, `cairn: ${error.message}`));
});
