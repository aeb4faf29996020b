// A question from the model (ask_user_question) on the page: the same picker as the terminal's,
// with buttons. Each question's options toggle (one at a time unless multiSelect), "Other" takes
// text, "Send answers" sends them once every question has one, "Decline" tells the model no.
// The box keeps its own state: the page redraws many times a second and keeps this node.

/**
 * `send(answers)` and `decline()` call the server; `armed()` says whether the box has been on screen
 * long enough to take a click (type-ahead guard, as for approvals).
 */
export function questionBox(request, { el, send, decline, armed }) {
  const questions = request.input?.questions ?? [];
  const picked = questions.map(() => new Set());
  const other = questions.map(() => '');
  const OTHER = (q) => q.options.length;

  const answered = (i) => {
    const q = questions[i];
    return [...picked[i]].some((p) => p !== OTHER(q) || other[i].trim() !== '');
  };
  const answers = () =>
    questions.map((q, i) => {
      const labels = [...picked[i]].sort((a, b) => a - b).filter((p) => p < OTHER(q)).map((p) => q.options[p].label);
      const text = other[i].trim();
      return picked[i].has(OTHER(q)) && text ? { question: q.question, labels, text } : { question: q.question, labels };
    });

  const sendButton = el('button', { type: 'button', class: 'send-answers', disabled: true, onclick: () => armed() && send(answers()) }, 'Send answers');
  const refresh = () => {
    for (const button of box.querySelectorAll('[data-option]')) {
      const [qi, oi] = button.dataset.option.split(':').map(Number);
      button.setAttribute('aria-pressed', picked[qi].has(oi) ? 'true' : 'false');
    }
    for (const input of box.querySelectorAll('input[data-other]')) input.hidden = !picked[Number(input.dataset.other)].has(OTHER(questions[Number(input.dataset.other)]));
    sendButton.disabled = !questions.every((_, i) => answered(i));
  };
  const choose = (qi, oi) => {
    if (!armed()) return;
    const q = questions[qi];
    if (q.multiSelect) {
      if (picked[qi].has(oi)) picked[qi].delete(oi);
      else picked[qi].add(oi);
    } else {
      picked[qi].clear();
      picked[qi].add(oi);
    }
    refresh();
    if (oi === OTHER(q) && picked[qi].has(oi)) box.querySelector(`input[data-other="${qi}"]`)?.focus();
  };

  const box = el(
    'div',
    { class: 'approval question', id: 'approval', role: 'group', 'aria-label': 'question', tabindex: '0' },
    el('div', { class: 'ask' }, questions.length > 1 ? 'cairn has questions' : 'cairn asks', request.agent ? el('span', { class: 'reason' }, ` (agent: ${request.agent})`) : null),
    questions.map((q, qi) =>
      el(
        'fieldset',
        { class: 'question-set' },
        el('legend', {}, `${q.header}: ${q.question}${q.multiSelect ? ' (choose any)' : ''}`),
        el(
          'div',
          { class: 'answers' },
          q.options.map((o, oi) => el('button', { type: 'button', 'data-option': `${qi}:${oi}`, 'aria-pressed': 'false', title: o.description, onclick: () => choose(qi, oi) }, `${oi + 1} · ${o.label}`, o.description ? el('span', { class: 'reason' }, ` — ${o.description}`) : null)),
          el('button', { type: 'button', 'data-option': `${qi}:${OTHER(q)}`, 'aria-pressed': 'false', onclick: () => choose(qi, OTHER(q)) }, `${OTHER(q) + 1} · Other`),
        ),
        el('input', {
          'data-other': String(qi),
          hidden: true,
          placeholder: 'Your answer',
          'aria-label': `your answer to: ${q.question}`,
          oninput: (e) => {
            other[qi] = e.target.value.replace(/[\r\n]+/g, ' ');
            refresh();
          },
          onkeydown: (e) => {
            if (e.key === 'Enter' && !sendButton.disabled) send(answers());
          },
        }),
      ),
    ),
    el('div', { class: 'answers' }, sendButton, el('button', { type: 'button', 'data-answer': 'no', onclick: () => decline() }, 'Decline')),
  );
  return box;
}
