import { Box, Text } from 'ink';
import { CARET_MARK } from '../terminal/caret.js';
import type { EditorState } from './editor.js';
import { firstVisibleRow, layoutPrompt } from './prompt-layout.js';
import type { PromptRow } from './prompt-layout.js';

export type PromptBoxProps = {
  state: EditorState;
  width: number;
  focused: boolean;
  placeholder?: string;
  maxLines?: number;
  busy?: boolean;
  /** One row, no border: the rows went to a waiting approval (a small terminal). */
  bare?: boolean;
};

const DEFAULT_MAX_LINES = 10;
// Border (1) + padding (1) on each side, then the two-column "> " prompt.
const CHROME_COLUMNS = 6;

export function promptTextWidth(width: number): number {
  return Math.max(1, width - CHROME_COLUMNS);
}

/** Rows the box takes, borders included, so the layout can reserve them. */
export function promptBoxHeight(state: EditorState, width: number, maxLines: number = DEFAULT_MAX_LINES): number {
  const rows = layoutPrompt(state.text, state.cursor, promptTextWidth(width)).rows.length;
  return Math.min(rows, Math.max(1, maxLines)) + 2;
}

export function PromptBox({ state, width, focused, placeholder, maxLines = DEFAULT_MAX_LINES, busy = false, bare = false }: PromptBoxProps) {
  const textWidth = bare ? Math.max(1, width - 2) : promptTextWidth(width);
  const prompt = (
    <Text bold={!busy} dimColor={busy}>
      {'> '}
    </Text>
  );
  if (bare) {
    // The row with the cursor, or the placeholder.
    const layout = layoutPrompt(state.text, state.cursor, textWidth);
    const row = layout.rows[layout.cursorRow] ?? layout.rows[0];
    return (
      <Box width={width} height={1}>
        {prompt}
        {state.text === '' && placeholder ? (
          <PlaceholderText text={placeholder} width={textWidth} focused={focused} />
        ) : row ? (
          <RowText row={row} cursorCol={focused ? layout.cursorCol : undefined} />
        ) : null}
      </Box>
    );
  }
  if (state.text === '' && placeholder !== undefined && placeholder !== '') {
    return (
      <Box borderStyle="round" borderDimColor width={width} paddingX={1}>
        {prompt}
        <PlaceholderText text={placeholder} width={textWidth} focused={focused} />
      </Box>
    );
  }
  const layout = layoutPrompt(state.text, state.cursor, textWidth);
  const first = firstVisibleRow(layout, Math.max(1, maxLines));
  const visible = layout.rows.slice(first, first + Math.max(1, maxLines));
  return (
    <Box borderStyle="round" borderDimColor width={width} paddingX={1} flexDirection="column">
      {visible.map((row, i) => {
        const rowIndex = first + i;
        return (
          <Box key={rowIndex}>
            {rowIndex === 0 ? prompt : <Text>{'  '}</Text>}
            <RowText row={row} cursorCol={focused && rowIndex === layout.cursorRow ? layout.cursorCol : undefined} />
          </Box>
        );
      })}
    </Box>
  );
}

function RowText({ row, cursorCol }: { row: PromptRow; cursorCol: number | undefined }) {
  if (cursorCol === undefined) return <Text>{row.cells.map((c) => c.text).join('')}</Text>;
  let col = 0;
  let split = row.cells.length;
  for (const [i, cell] of row.cells.entries()) {
    if (col >= cursorCol) {
      split = i;
      break;
    }
    col += cell.width;
  }
  const before = row.cells.slice(0, split).map((c) => c.text).join('');
  const at = row.cells[split]?.text ?? ' ';
  const after = row.cells.slice(split + 1).map((c) => c.text).join('');
  return (
    <Text>
      {before}
      <Text inverse>{CARET_MARK + at}</Text>
      {after}
    </Text>
  );
}

function PlaceholderText({ text, width, focused }: { text: string; width: number; focused: boolean }) {
  const oneLine = text.replace(/\s+/g, ' ');
  const cells = layoutPrompt(oneLine, 0, width).rows[0]?.cells ?? [];
  if (!focused) return <Text dimColor>{cells.map((c) => c.text).join('')}</Text>;
  return (
    <Text>
      <Text inverse>{CARET_MARK + (cells[0]?.text ?? ' ')}</Text>
      <Text dimColor>{cells.slice(1).map((c) => c.text).join('')}</Text>
    </Text>
  );
}
