import type { HelpSection, KeyCommand, KeySpec } from './keymap.js';
import { activeKeymap } from './keymap.js';

const KEYS_COLUMN = 18;

const KEY_NAMES: Readonly<Record<NonNullable<KeySpec['key']>, string>> = {
  upArrow: '↑',
  downArrow: '↓',
  leftArrow: '←',
  rightArrow: '→',
  backspace: 'Backspace',
  delete: 'Delete',
  pageUp: 'PgUp',
  pageDown: 'PgDn',
  home: 'Home',
  end: 'End',
  return: 'Enter',
  escape: 'Esc',
  tab: 'Tab',
};

/** How a key is written in /help: Shift+Enter, Ctrl+O, Esc, Space. */
export function keyLabel(spec: KeySpec): string {
  const base = spec.key ? KEY_NAMES[spec.key] : spec.input === ' ' ? 'Space' : spec.input === '\n' ? 'Ctrl+J' : (spec.input ?? '');
  const ctrl = spec.ctrl ? 'Ctrl+' : '';
  const meta = spec.meta ? 'Alt+' : '';
  const shift = spec.shift ? 'Shift+' : '';
  return `${ctrl}${meta}${shift}${spec.ctrl && spec.input ? base.toUpperCase() : base}`;
}

/** A command's first key in the table in force, as the screen names it (`y`, `Ctrl+T`). */
export function boundKeyLabel(command: KeyCommand): string {
  const spec = activeKeymap()[command].keys[0];
  return spec ? keyLabel(spec) : '';
}

/** What the prompt's own text can mean, listed with the keys. */
export const PROMPT_SYNTAX: readonly { label: string; does: string }[] = [
  { label: '/', does: 'commands (type to narrow the list)' },
  { label: '! <command>', does: 'run it in your shell now (no model, no approval); the model sees command and output next time' },
  { label: '# <note>', does: 'save the note to memory (you choose user or project), not sent as a prompt' },
  { label: '\\ then Enter', does: 'new line' },
];

const SECTIONS: readonly { section: HelpSection; title: string }[] = [
  { section: 'prompt', title: 'At the prompt' },
  { section: 'cards', title: 'Selecting cards (after Tab)' },
  { section: 'approval', title: 'When cairn asks to run something' },
  { section: 'question', title: 'When cairn asks you a question (ask_user_question)' },
  { section: 'dialog', title: 'In a dialog (/resume, /rewind, /model, a # note, /copy code, @ and Ctrl+R lists)' },
  { section: 'view', title: 'In a full view' },
  { section: 'anywhere', title: 'Anywhere' },
];

/** The rows of one section: bindings that do the same thing share a row. */
function rows(section: HelpSection): { keys: string; does: string }[] {
  const out: { keys: string[]; does: string }[] = [];
  const keymap = activeKeymap();
  for (const command of Object.keys(keymap) as KeyCommand[]) {
    const binding = keymap[command];
    for (const h of binding.help ?? []) {
      if (h.in !== section) continue;
      const labels = [...new Set(binding.keys.map(keyLabel))];
      const row = out.find((r) => r.does === h.does);
      if (row) row.keys.push(...labels.filter((l) => !row.keys.includes(l)));
      else out.push({ keys: labels, does: h.does });
    }
  }
  const table = out.map((r) => ({ keys: r.keys.join(' / '), does: r.does }));
  if (section === 'prompt') table.push(...PROMPT_SYNTAX.map((p) => ({ keys: p.label, does: p.does })));
  return table;
}

/** The key part of /help, generated from the key table in force so it cannot drift. */
export function keyHelp(): string[] {
  const lines: string[] = [];
  for (const { section, title } of SECTIONS) {
    const table = rows(section);
    // A row with many keys puts its text on the next line rather than widening the column.
    const width = Math.min(KEYS_COLUMN, Math.max(...table.map((r) => r.keys.length)));
    lines.push('', `${title}:`);
    for (const r of table) {
      if (r.keys.length <= width) lines.push(`  ${r.keys.padEnd(width)}  ${r.does}`);
      else lines.push(`  ${r.keys}`, `  ${''.padEnd(width)}  ${r.does}`);
    }
  }
  return lines;
}
