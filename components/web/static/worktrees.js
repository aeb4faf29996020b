// The worktrees panel (the terminal's /worktrees, issue 38 item 1): cairn's git worktrees of the
// session's repository with branch, state and commits ahead; Remove only on a clean one (the server
// checks again and keeps its branch), and for one that is kept, why. Every name and path is text.

/** The top bar's button. `deps`: { el, $, api, toast, sessionId() }. */
export function worktreesButton(deps) {
  return deps.el('button', { type: 'button', id: 'worktrees', title: "cairn's git worktrees of this repository (as /worktrees)", onclick: () => toggle(deps) }, 'Worktrees');
}

/** Closes the panel (another session opened). */
export function closeWorktrees(deps) {
  deps.$('#worktrees-row')?.replaceChildren();
}

function toggle(deps) {
  if (deps.$('#worktrees-panel')) return closeWorktrees(deps);
  void load(deps);
}

async function load(deps) {
  const id = deps.sessionId();
  try {
    const { worktrees } = await deps.api(`/api/sessions/${id}/worktrees`);
    if (deps.sessionId() === id) draw(deps, worktrees);
  } catch (error) {
    if (deps.sessionId() === id) draw(deps, [], error.message);
  }
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function stateText(w) {
  if (w.state === 'dirty') return `dirty (${plural(w.work?.split('\n').length ?? 0, 'change')})`;
  if (w.state === 'missing') return 'missing (its folder is gone)';
  return w.state;
}

function row(deps, w) {
  const { el } = deps;
  const head = el(
    'div',
    { class: 'wt-head' },
    el('strong', { class: 'wt-name' }, w.name),
    w.current ? el('span', { class: 'pill' }, 'this session') : null,
    el('span', { class: 'wt-branch' }, `branch ${w.branch ?? '(detached)'}`),
    el('span', { class: `wt-state ${w.state}` }, stateText(w)),
    w.ahead > 0 ? el('span', { class: 'wt-ahead' }, `${plural(w.ahead, 'commit')} ahead`) : null,
    w.removable ? el('button', { type: 'button', class: 'wt-remove', 'data-remove': w.name, onclick: (e) => confirmRemove(deps, w, e.currentTarget.closest('li')) }, 'Remove') : null,
  );
  return el(
    'li',
    { class: `wt ${w.state}`, 'data-worktree': w.name },
    head,
    el('code', { class: 'wt-path' }, w.path),
    w.kept ? el('div', { class: 'wt-kept' }, `Cannot be removed: ${w.kept}.`) : null,
    w.work ? el('pre', { class: 'wt-work' }, w.work) : null,
  );
}

/** Removing takes a second click: ignored files in the folder (a copied .env, build output) go with it. */
function confirmRemove(deps, w, li) {
  const { el } = deps;
  const ask = el(
    'div',
    { class: 'wt-confirm' },
    `Remove the folder ${w.path}? Its ignored files go with it; the branch ${w.branch ?? ''} stays with its commits. `,
    el('button', { type: 'button', class: 'wt-confirm-yes', onclick: () => remove(deps, w) }, `Yes, remove ${w.name}`),
    el('button', { type: 'button', onclick: () => ask.remove() }, 'Cancel'),
  );
  li.querySelector('.wt-confirm')?.remove();
  li.append(ask);
}

async function remove(deps, w) {
  const id = deps.sessionId();
  try {
    const { message, worktrees } = await deps.api(`/api/sessions/${id}/worktrees/remove`, { name: w.name });
    deps.toast(message);
    if (deps.sessionId() === id) draw(deps, worktrees);
  } catch (error) {
    deps.toast(error.message, 'error');
    await load(deps);
  }
}

function draw(deps, worktrees, problem) {
  const { el, $ } = deps;
  const panel = el(
    'section',
    { class: 'worktrees-panel', id: 'worktrees-panel', 'aria-label': 'worktrees' },
    el(
      'header',
      {},
      el('strong', {}, 'Worktrees'),
      el('span', { class: 'muted' }, ' under .cairn/worktrees/'),
      el('button', { type: 'button', id: 'worktrees-refresh', onclick: () => load(deps) }, 'Refresh'),
      el('button', { type: 'button', id: 'worktrees-close', 'aria-label': 'close the worktrees', onclick: () => closeWorktrees(deps) }, '✕'),
    ),
    problem
      ? el('p', { class: 'wt-problem' }, problem)
      : worktrees.length === 0
        ? el('p', { class: 'muted' }, "No worktrees of cairn's in this repository (cairn -w NAME makes one for a session; an agent with isolation: worktree makes one per run).")
        : el('ul', {}, worktrees.map((w) => row(deps, w))),
    problem || worktrees.length === 0 ? null : el('p', { class: 'muted' }, 'Remove deletes a clean worktree\'s folder; its branch stays. One with uncommitted work is never removed. In the prompt: /worktrees, /worktrees remove NAME.'),
  );
  panel.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    // Esc closes the panel; it must not reach the page's Esc, which stops the turn.
    e.stopPropagation();
    closeWorktrees(deps);
  });
  $('#worktrees-row').replaceChildren(panel);
}
