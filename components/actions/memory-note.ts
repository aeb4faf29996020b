import type { MemoryScope } from '../../src/context/long-term-memory.js';
import type { AppContext } from './app-context.js';
import { errorMessage } from '../../src/util/error-message.js';

/** `# always use pnpm here` is a note to remember, not a prompt; `## heading` stays a prompt. */
export function memoryNote(text: string): string | undefined {
  const m = /^#(?!#)\s*(\S[\s\S]*)$/.exec(text.trim());
  return m?.[1]?.trim();
}

/** Opens the "user or project?" question for a `#` note; false when the text is not one. */
export function askToSaveMemory(text: string, deps: AppContext): boolean {
  const note = memoryNote(text);
  if (note === undefined) return false;
  deps.store.dispatch({ type: 'dialog', dialog: { kind: 'memory', text: note } });
  return true;
}

export function saveMemoryNote(scope: MemoryScope, text: string, deps: AppContext): void {
  const { store } = deps;
  store.dispatch({ type: 'dialog', dialog: undefined });
  const print = (message: string, level: 'info' | 'error'): void => store.dispatch({ type: 'notice', level, message });
  if (!deps.sessions) return print('Memory is not available here: the note was not saved.', 'error');
  deps.sessions.saveMemory(scope, text).then(
    ({ file }) => print(`Saved to ${scope} memory: ${file}`, 'info'),
    (error: unknown) => print(`Could not save the note to ${scope} memory: ${errorMessage(error)}`, 'error'),
  );
}
