import type { CommandRegistry } from '../commands/registry.js';
import { promptBoxHeight } from '../prompt/PromptBox.js';
import { paletteHeight } from '../SlashPalette.js';
import { queuedHeight } from '../QueuedPrompts.js';
import type { TuiState } from '../store/types.js';
import { themeFor } from '../theme/use-theme.js';
import { approvalMinRows } from '../transcript/approval-lines.js';
import { dialogHeight } from '../transcript/dialog-lines.js';
import { todoPanelHeight } from '../transcript/todo-lines.js';
import { planPanelHeight } from '../transcript/plan-lines.js';
import { HEADER_MIN_ROWS } from './layout-rows.js';

export interface Layout {
  width: number;
  header: number;
  transcript: number;
  queued: number;
  queuedMax: number;
  palette: number;
  paletteMax: number;
  dialog: number;
  dialogMax: number;
  todos: number;
  todosMax: number;
  /** The approved plan pinned above the todos: its title line, or its text unfolded. */
  plan: number;
  planMax: number;
  prompt: number;
  promptMaxLines: number;
  /** The prompt as one row without its border (a waiting approval needs the rows). */
  promptBare: boolean;
  status: number;
}

export { HEADER_MIN_ROWS } from './layout-rows.js';

/**
 * Splits the frame. The frame is at most rows - 1 tall: a frame as tall as the terminal makes
 * Ink clear the screen and scrollback on every render (see the notes, trap 1).
 */
export function computeLayout(columns: number, rows: number, state: TuiState, commands: CommandRegistry): Layout {
  const width = Math.max(10, columns);
  const budget = Math.max(3, rows - 1);
  const small = rows < HEADER_MIN_ROWS;
  const header = small ? 0 : 1;
  const status = 1;
  const promptMaxLines = small ? 2 : Math.min(10, Math.floor(rows / 4));
  const prompt = promptBoxHeight(state.editor, width, promptMaxLines);
  const paletteMax = small ? 3 : 8;
  const palette = paletteHeight(state, commands, paletteMax);
  const queuedMax = small ? 1 : 3;
  const queued = queuedHeight(state.queued, queuedMax);
  const dialogMax = small ? 4 : 12;
  const dialog = dialogHeight(state.dialog, width, themeFor(state.themeName), dialogMax);
  const todosMax = small ? 3 : Math.min(8, Math.max(3, Math.floor(rows / 5)));
  const todos = todoPanelHeight(state.todos, todosMax);
  // Unfolded, the plan takes up to a third of the screen; the rest of it is a line pointing at /plan.
  const planMax = small ? 1 : Math.min(16, Math.max(4, Math.floor(rows / 3)));
  const plan = planPanelHeight(state.plan, width, themeFor(state.themeName), planMax);
  const layout: Layout = { width, header, transcript: 0, queued, queuedMax, palette, paletteMax, dialog, dialogMax, todos, todosMax, plan, planMax, prompt, promptMaxLines, promptBare: false, status };
  const rest = (): number => budget - layout.header - layout.status - layout.prompt - layout.palette - layout.queued - layout.dialog - layout.todos - layout.plan;
  // Behind the full view an approval is not drawn: it needs no room.
  const asking = state.viewer ? undefined : state.approvals[0];
  if (asking) {
    // The approval's choices and key hint always show: what surrounds the transcript gives way.
    const need = approvalMinRows(asking);
    const giveWay: (() => void)[] = [
      () => Object.assign(layout, { plan: 0, planMax: 0 }),
      () => Object.assign(layout, { todos: 0, todosMax: 0 }),
      () => Object.assign(layout, { queued: 0, queuedMax: 0 }),
      () => Object.assign(layout, { palette: 0, paletteMax: 0 }),
      () => Object.assign(layout, { dialog: 0, dialogMax: 0 }),
      () => Object.assign(layout, { header: 0 }),
      () => Object.assign(layout, { status: 0 }),
      () => Object.assign(layout, { prompt: 1, promptMaxLines: 1, promptBare: true }),
    ];
    for (const step of giveWay) {
      if (rest() >= need) break;
      step();
    }
  }
  layout.transcript = Math.max(1, rest());
  return layout;
}
