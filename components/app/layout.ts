import type { CommandRegistry } from '../commands/registry.js';
import { promptBoxHeight } from '../prompt/PromptBox.js';
import { paletteHeight } from '../SlashPalette.js';
import { queuedHeight } from '../QueuedPrompts.js';
import type { TuiState } from '../store/types.js';
import { themeFor } from '../theme/use-theme.js';
import { dialogHeight } from './dialog-lines.js';
import { todoPanelHeight } from './todo-lines.js';

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
  prompt: number;
  promptMaxLines: number;
  status: number;
}

/** Small terminals drop the header and shrink the rest before the transcript loses its last row. */
export const HEADER_MIN_ROWS = 16;

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
  const transcript = Math.max(1, budget - header - status - prompt - palette - queued - dialog - todos);
  return { width, header, transcript, queued, queuedMax, palette, paletteMax, dialog, dialogMax, todos, todosMax, prompt, promptMaxLines, status };
}
