import type { Key } from 'ink';
import type { CommandRegistry, SlashCommand } from '../commands/registry.js';
import { needsArgs } from '../commands/registry.js';
import type { TuiState } from '../store/types.js';
import type { AppContext } from '../actions/app-context.js';
import { submit } from '../actions/submit.js';
import { is } from './keymap.js';

/** The palette shows while the prompt is a bare `/word` the user has not dismissed. */
export function paletteMatches(state: TuiState, commands: CommandRegistry): SlashCommand[] {
  const text = state.editor.text;
  if (!/^\/\S*$/.test(text) || state.palette.dismissedFor === text) return [];
  return commands.filter(text.slice(1));
}

export function paletteOpen(state: TuiState, commands: CommandRegistry): boolean {
  return paletteMatches(state, commands).length > 0;
}

export function paletteIndex(state: TuiState, count: number): number {
  return count === 0 ? 0 : Math.min(state.palette.index, count - 1);
}

function setText(deps: AppContext, text: string): void {
  deps.store.dispatch({ type: 'editor', editor: { text, cursor: text.length, pastes: [] } });
  deps.store.dispatch({ type: 'palette', index: 0 });
}

export function handlePaletteKey(input: string, key: Key, state: TuiState, deps: AppContext): boolean {
  const matches = paletteMatches(state, deps.commands);
  const index = paletteIndex(state, matches.length);
  const selected = matches[index];
  if (!selected) return false;
  const move = (delta: number): void => deps.store.dispatch({ type: 'palette', index: (index + delta + matches.length) % matches.length });
  if (is('up', input, key)) move(-1);
  else if (is('down', input, key)) move(1);
  else if (is('back', input, key)) deps.store.dispatch({ type: 'palette', dismissedFor: state.editor.text });
  else if (is('complete', input, key)) setText(deps, `/${selected.name} `);
  else if (is('confirm', input, key)) {
    if (needsArgs(selected)) setText(deps, `/${selected.name} `);
    else {
      setText(deps, '');
      submit(`/${selected.name}`, deps);
    }
  } else {
    // Typing narrows the list: start again from the best match.
    if (state.palette.index !== 0) deps.store.dispatch({ type: 'palette', index: 0 });
    return false;
  }
  return true;
}
