import { Box } from 'ink';
import { useCallback, useContext, useLayoutEffect, useMemo } from 'react';
import { DialogBox } from '../DialogBox.js';
import { Header } from '../Header.js';
import type { AppContext } from '../actions/app-context.js';
import { handleKey } from '../keys/dispatch.js';
import { useKeyInput } from '../keys/use-key-input.js';
import { PromptBox } from '../prompt/PromptBox.js';
import { QueuedPrompts } from '../QueuedPrompts.js';
import { SlashPalette } from '../SlashPalette.js';
import { StatusRow } from '../StatusRow.js';
import type { TuiState } from '../store/types.js';
import { shallowEqual, useStoreSelector } from '../store/use-store-selector.js';
import { PlanPanel } from '../PlanPanel.js';
import { TodoPanel } from '../TodoPanel.js';
import { Transcript } from '../Transcript.js';
import type { createItemLines } from '../transcript/item-lines.js';
import { ContentViewer } from './ContentViewer.js';
import { computeLayout } from './layout.js';
import { PainterContext } from './painter-context.js';
import { promptPlaceholder, selectEditorFocused, type PaintLayout } from './screen-painter.js';
import { useTerminalSize } from './use-terminal-size.js';

export interface AppProps {
  deps: AppContext;
  itemLines: ReturnType<typeof createItemLines>;
  /** Fixed size (tests); otherwise the terminal's, following resizes. */
  size?: { columns: number; rows: number };
}

const selectEditor = (s: TuiState): TuiState['editor'] => s.editor;
const selectBusy = (s: TuiState): boolean => s.busy;
const selectNothing = (): undefined => undefined;
/** What computeLayout reads from the state. */
const layoutInputs = (s: TuiState): unknown[] => [s.editor, s.queued, s.palette, s.dialog, s.todos, s.plan, s.approvals, s.viewer, s.themeName];

function sameList(a: unknown[], b: unknown[]): boolean {
  return a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
}

/**
 * The screen: header, transcript, queued prompts, slash palette, prompt box, status bar. With the
 * frame writer (a painter in context), the transcript, prompt and status rows are blank boxes here
 * and the painter draws them: App re-renders only when the layout changes, not per keystroke.
 */
export function App({ deps, itemLines, size }: AppProps) {
  const { store, commands, view } = deps;
  const painter = useContext(PainterContext);
  const terminal = useTerminalSize();
  const { columns, rows } = size ?? terminal;
  // Runs on every store change (a stream's ~20 a second): recomputed only when what it reads changed.
  const selectLayout = useMemo(() => {
    let last: { inputs: unknown[]; layout: PaintLayout } | undefined;
    return (s: TuiState): PaintLayout => {
      const inputs = layoutInputs(s);
      if (last && sameList(last.inputs, inputs)) return last.layout;
      last = { inputs, layout: { ...computeLayout(columns, rows, s, commands), viewerOpen: s.viewer !== undefined } };
      return last.layout;
    };
  }, [columns, rows, commands]);
  const layout = useStoreSelector(store, selectLayout, shallowEqual);
  const editor = useStoreSelector(store, painter ? selectNothing : selectEditor);
  const focused = useStoreSelector(store, painter ? selectNothing : selectEditorFocused);
  const busy = useStoreSelector(store, painter ? selectNothing : selectBusy);
  const onKey = useCallback((input: string, key: Parameters<typeof handleKey>[1], raw: string | undefined) => handleKey(input, key, deps, raw), [deps]);
  useKeyInput(onKey);
  // Before Ink writes this commit's frame (Ink renders in the commit; the frame is drawn after it).
  useLayoutEffect(() => painter?.setLayout(layout), [painter, layout]);
  useLayoutEffect(() => (painter ? () => painter.setLayout(undefined) : undefined), [painter]);
  return (
    <Box flexDirection="column" width={layout.width}>
      {layout.header > 0 ? <Header store={store} width={layout.width} /> : null}
      {layout.viewerOpen ? (
        <ContentViewer store={store} width={layout.width} height={layout.transcript} view={view} />
      ) : painter ? (
        <Box width={layout.width} height={layout.transcript} />
      ) : (
        <Transcript store={store} width={layout.width} height={layout.transcript} itemLines={itemLines} view={view} />
      )}
      {layout.queued > 0 ? <QueuedPrompts store={store} width={layout.width} maxRows={layout.queuedMax} /> : null}
      {layout.palette > 0 ? <SlashPalette store={store} commands={commands} width={layout.width} maxRows={layout.paletteMax} /> : null}
      {layout.dialog > 0 ? <DialogBox store={store} width={layout.width} maxRows={layout.dialogMax} /> : null}
      {layout.plan > 0 ? <PlanPanel store={store} width={layout.width} maxRows={layout.planMax} /> : null}
      {layout.todos > 0 ? <TodoPanel store={store} width={layout.width} maxRows={layout.todosMax} /> : null}
      {painter || !editor ? (
        <Box width={layout.width} height={layout.prompt} />
      ) : (
        <PromptBox state={editor} width={layout.width} focused={focused === true} maxLines={layout.promptMaxLines} bare={layout.promptBare} busy={busy === true} placeholder={promptPlaceholder(busy === true)} />
      )}
      {layout.status > 0 ? painter ? <Box width={layout.width} height={1} /> : <StatusRow store={store} width={layout.width} /> : null}
    </Box>
  );
}
