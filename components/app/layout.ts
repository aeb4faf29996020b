import type { CommandRegistry } from '../commands/registry.js';
import { promptBoxHeight } from '../prompt/PromptBox.js';
import { paletteHeight } from '../SlashPalette.js';
import { queuedHeight } from '../QueuedPrompts.js';
import type { TuiState } from '../store/types.js';

export interface Layout {
  width: number;
  header: number;
  transcript: number;
  queued: number;
  queuedMax: number;
  palette: number;
  paletteMax: number;
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
  const transcript = Math.max(1, budget - header - status - prompt - palette - queued);
  return { width, header, transcript, queued, queuedMax, palette, paletteMax, prompt, promptMaxLines, status };
}
