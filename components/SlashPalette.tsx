import { Box, Text } from 'ink';
import { memo } from 'react';
import type { CommandRegistry } from './commands/registry.js';
import { paletteIndex, paletteMatches } from './keys/palette-keys.js';
import type { TuiStore } from './store/create-store.js';
import type { TuiState } from './store/types.js';
import { useStoreSelector } from './store/use-store-selector.js';
import { clipLine, inverse, paint } from './theme/ansi.js';
import { useTheme } from './theme/use-theme.js';

const selectEditorText = (s: TuiState): string => s.editor.text;
const selectPalette = (s: TuiState): TuiState['palette'] => s.palette;

/** How many rows the palette takes for this state (0 when closed). */
export function paletteHeight(state: TuiState, commands: CommandRegistry, maxRows: number): number {
  return Math.min(maxRows, paletteMatches(state, commands).length);
}

/** The completion list under `/`: filtered as you type, the selection scrolls within maxRows. */
export const SlashPalette = memo(function SlashPalette({ store, commands, width, maxRows }: { store: TuiStore; commands: CommandRegistry; width: number; maxRows: number }) {
  useStoreSelector(store, selectEditorText);
  useStoreSelector(store, selectPalette);
  const theme = useTheme(store);
  const state = store.getSnapshot();
  const matches = paletteMatches(state, commands);
  if (matches.length === 0 || maxRows <= 0) return null;
  const index = paletteIndex(state, matches.length);
  const first = Math.max(0, Math.min(index - maxRows + 1, matches.length - maxRows));
  const start = Math.max(0, Math.min(first, index));
  const shown = matches.slice(start, start + maxRows);
  const nameWidth = Math.max(...matches.map((c) => c.name.length + (c.argHint ? c.argHint.length + 1 : 0))) + 1;
  return (
    <Box flexDirection="column" width={width}>
      {shown.map((c, i) => {
        const selected = start + i === index;
        const name = `/${c.name}${c.argHint ? ` ${c.argHint}` : ''}`.padEnd(nameWidth + 1);
        const line = clipLine(`${selected ? '›' : ' '} ${name} ${c.description}`, width);
        return (
          <Text key={c.name} wrap="truncate-end">
            {selected ? inverse(line) : paint(theme, 'muted', line)}
          </Text>
        );
      })}
    </Box>
  );
});
