// /btw: asks aside (AgentSession.askAside) and shows the answer in a box over the prompt. A running
// turn goes on alongside: the side question is its own model call and tells no event.
import type { AppContext } from './app-context.js';

type Ctx = Pick<AppContext, 'store' | 'session'>;

// The one side question being answered; closing its box cancels it.
let pending: AbortController | undefined;

export function askSideQuestion(question: string, deps: Ctx): void {
  pending?.abort();
  const controller = new AbortController();
  pending = controller;
  deps.store.dispatch({ type: 'dialog', dialog: { kind: 'btw', question } });
  void deps.session.askAside(question, controller.signal).then((answer) => {
    if (controller.signal.aborted) return;
    pending = undefined;
    const open = deps.store.getSnapshot().dialog;
    if (open?.kind !== 'btw' || open.question !== question) return;
    deps.store.dispatch({ type: 'dialog', dialog: answer.ok ? { kind: 'btw', question, answer: answer.text } : { kind: 'btw', question, error: answer.error } });
  });
}

/** Esc (or Enter) on the box: closes it, and stops the answer if it is still coming. */
export function dismissSideQuestion(deps: Pick<AppContext, 'store'>): void {
  pending?.abort();
  pending = undefined;
  deps.store.dispatch({ type: 'dialog', dialog: undefined });
}
