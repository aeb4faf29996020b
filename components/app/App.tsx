import { Box } from 'ink';
import { useCallback } from 'react';
import { DialogBox } from '../DialogBox.js';
import { Header } from '../Header.js';
import type { KeyDeps } from '../keys/dispatch.js';
import { handleKey } from '../keys/dispatch.js';
import { useKeyInput } from '../keys/use-key-input.js';
import { PromptBox } from '../prompt/PromptBox.js';
import { QueuedPrompts } from '../QueuedPrompts.js';
import { SlashPalette } from '../SlashPalette.js';
import { StatusRow } from '../StatusRow.js';
import type { TuiState } from '../store/types.js';
import { useStoreSelector } from '../store/use-store-selector.js';
import { TodoPanel } from '../TodoPanel.js';
import { Transcript } from '../Transcript.js';
import type { createItemLines } from '../transcript/item-lines.js';
import { ContentViewer } from './ContentViewer.js';
import { computeLayout } from './layout.js';
import { useTerminalSize } from './use-terminal-size.js';

export interface AppProps {
  deps: KeyDeps;
  itemLines: ReturnType<typeof createItemLines>;
  /** Fixed size (tests); otherwise the terminal's, following resizes. */
  size?: { columns: number; rows: number };
}

const selectLayoutInputs = (s: TuiState): unknown[] => [s.editor, s.queued, s.palette, s.dialog, s.todos, s.approvals, s.viewer === undefined];
const selectEditor = (s: TuiState): TuiState['editor'] => s.editor;
const selectEditorFocused = (s: TuiState): boolean => s.approvals.length === 0 && s.focus === 'editor' && s.dialog === undefined && s.viewer === undefined;
const selectBusy = (s: TuiState): boolean => s.busy;

function sameList(a: unknown[], b: unknown[]): boolean {
  return a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
}

/** The screen: header, transcript, queued prompts, slash palette, prompt box, status bar. */
export function App({ deps, itemLines, size }: AppProps) {
  const { store, commands, view } = deps;
  const terminal = useTerminalSize();
  const { columns, rows } = size ?? terminal;
  useStoreSelector(store, selectLayoutInputs, sameList);
  const editor = useStoreSelector(store, selectEditor);
  const focused = useStoreSelector(store, selectEditorFocused);
  const busy = useStoreSelector(store, selectBusy);
  const layout = computeLayout(columns, rows, store.getSnapshot(), commands);
  const onKey = useCallback((input: string, key: Parameters<typeof handleKey>[1], raw: string | undefined) => handleKey(input, key, deps, raw), [deps]);
  useKeyInput(onKey);
  return (
    <Box flexDirection="column" width={layout.width}>
      {layout.header > 0 ? <Header store={store} width={layout.width} /> : null}
      {store.getSnapshot().viewer ? (
        <ContentViewer store={store} width={layout.width} height={layout.transcript} view={view} />
      ) : (
        <Transcript store={store} width={layout.width} height={layout.transcript} itemLines={itemLines} view={view} top={layout.header} />
      )}
      {layout.queued > 0 ? <QueuedPrompts store={store} width={layout.width} maxRows={layout.queuedMax} /> : null}
      {layout.palette > 0 ? <SlashPalette store={store} commands={commands} width={layout.width} maxRows={layout.paletteMax} /> : null}
      {layout.dialog > 0 ? <DialogBox store={store} width={layout.width} maxRows={layout.dialogMax} /> : null}
      {layout.todos > 0 ? <TodoPanel store={store} width={layout.width} maxRows={layout.todosMax} /> : null}
      <PromptBox state={editor} width={layout.width} focused={focused} maxLines={layout.promptMaxLines} bare={layout.promptBare} busy={busy} placeholder={busy ? 'Type to queue a prompt · Esc to interrupt' : 'Ask cairn · / for commands'} />
      {layout.status > 0 ? <StatusRow store={store} width={layout.width} /> : null}
    </Box>
  );
}
