// Step 10: the TUI store. The engine only emits events; the screen is a pure function of a state
// that a reducer folds those events into. Here the real loop (src/loop/query.ts) drives a tiny store.
import path from 'node:path';
import type { AgentEvent } from '../../src/events.js';
import { query } from '../../src/loop/query.js';
import { createPermissionChecker } from '../../src/permissions/checker.js';
import { createListDirTool } from '../../src/tools/list-dir.js';
import { createReadFileTool } from '../../src/tools/read-file.js';
import { defaultIo, sampleWorkspace, type StepIo } from './learn-kit.js';

type Item =
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; text: string }
  | { kind: 'tool'; id: string; name: string; arg: string; status: 'running' | 'done' | 'failed'; summary: string };

export interface State { items: Item[]; busy: boolean }

/** Pure: the same events always give the same state, so it is trivial to test and to replay. */
export function reduce(state: State, event: AgentEvent): State {
  const last = state.items.at(-1);
  switch (event.type) {
    case 'user_prompt':
      return { busy: true, items: [...state.items, { kind: 'user', text: event.text }] };
    case 'text_delta':
      return last?.kind === 'assistant'
        ? { ...state, items: [...state.items.slice(0, -1), { ...last, text: last.text + event.text }] }
        : { ...state, items: [...state.items, { kind: 'assistant', text: event.text }] };
    case 'tool_start': {
      const input = (event.input ?? {}) as Record<string, unknown>;
      return { ...state, items: [...state.items, { kind: 'tool', id: event.id, name: event.name, arg: typeof input['path'] === 'string' ? input['path'] : '', status: 'running', summary: '' }] };
    }
    case 'tool_result':
      return {
        ...state,
        items: state.items.map((it) => it.kind === 'tool' && it.id === event.id
          ? { ...it, status: event.is_error ? 'failed' : 'done', summary: `${event.content.split('\n').length} lines` }
          : it),
      };
    case 'terminal':
      return { ...state, busy: false };
    default:
      return state;
  }
}

/** subscribe/getSnapshot: the shape React's useSyncExternalStore reads, so each component re-renders only for its slice. */
export function createStore(initial: State) {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getSnapshot: () => state,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispatch(event: AgentEvent) {
      const next = reduce(state, event);
      if (next === state) return;
      state = next;
      for (const listener of listeners) listener();
    },
  };
}

export function render(state: State): string[] {
  const glyph = { running: '…', done: '✓', failed: '✗' } as const;
  return [
    ...state.items.flatMap((it) => {
      switch (it.kind) {
        case 'user': return [`> ${it.text}`];
        case 'assistant': return it.text.trimEnd().split('\n').map((l) => `  ${l}`);
        case 'tool': return [`  ${glyph[it.status]} ${it.name} ${it.arg}  ${it.summary}`.trimEnd()];
      }
    }),
    state.busy ? '  (working…)' : '  (ready)',
  ];
}

export async function main(io: StepIo = defaultIo(), cwd = sampleWorkspace()): Promise<string[]> {
  const store = createStore({ items: [], busy: false });
  let renders = 0;
  store.subscribe(() => renders++);
  const prompt = 'list . then read notes.txt';
  for await (const event of query({
    messages: [],
    prompt: { role: 'user', content: [{ type: 'text', text: prompt }] },
    provider: io.model,
    tools: [createListDirTool(), createReadFileTool()],
    permissions: createPermissionChecker({ workspace: cwd, mode: 'default', rules: { allow: [], ask: [], deny: [] }, cairnHome: path.join(cwd, '.cairn-home') }),
    system: () => 'You are a coding agent.',
    cwd,
    signal: new AbortController().signal,
  })) store.dispatch(event);
  const frame = render(store.getSnapshot());
  io.write(`${frame.join('\n')}\n[${renders} state changes]\n`);
  return frame;
}
