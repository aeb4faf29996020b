// The approved plan, pinned above the prompt as the terminal pins it (issue 36 item 2): a block that
// folds to its title line. Its text and mode come with the session's state (the server keeps the last
// plan_approved until /clear), so a page that loads a session with a plan shows it. Open when the plan
// is approved, folded by the next prompt (the transcript counts those), toggled by a click.

let shown; // { key, folds, node }

/** Draws (or keeps) the block in `root` for `plan` ({ text, title, note? } or undefined). `deps`: { el, markdown }. */
export function drawPlan(root, plan, folds, deps) {
  if (!plan) {
    shown = undefined;
    root.replaceChildren();
    return;
  }
  const key = `${plan.note ?? ''}\n${plan.text}`;
  // Unchanged: the node stays, and with it the user's fold; the next prompt folds it once.
  if (shown && shown.key === key && root.contains(shown.node)) {
    if (shown.folds !== folds.count) {
      shown.folds = folds.count;
      shown.node.open = !folds.folded;
    }
    return;
  }
  const { el, markdown } = deps;
  const node = el(
    'details',
    { class: 'plan', id: 'plan-block', ...(folds.folded ? {} : { open: true }) },
    el('summary', { title: 'fold or unfold the approved plan (/plan prints it again)' }, el('strong', {}, 'Approved plan'), ': ', el('span', { class: 'plan-title' }, plan.title), plan.note ? el('span', { class: 'plan-note' }, ` · ${plan.note}`) : null),
    el('div', { class: 'plan-body' }, markdown(plan.text)),
  );
  shown = { key, folds: folds.count, node };
  root.replaceChildren(node);
}

/** Forgets the drawn block (another session opened). */
export function resetPlan() {
  shown = undefined;
}
