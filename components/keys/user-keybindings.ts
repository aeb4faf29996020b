import { join } from 'node:path';
import * as z from 'zod';
import { FileReadError, readTextFile } from '../../src/util/read-text-file.js';
import type { HelpSection, KeyBinding, KeyCommand, KeySpec } from './keymap.js';
import { KEYMAP } from './keymap.js';

/**
 * $CAIRN_HOME/keybindings.json: `{"bindings": {"redraw": ["ctrl+r"], "cycleMode": ["shift+tab", "alt+m"]}}`.
 * A command listed there gets exactly the keys given (its defaults are replaced); the rest keep theirs.
 */
export function keybindingsPath(cairnHome: string): string {
  return join(cairnHome, 'keybindings.json');
}

const FileSchema = z.object({ bindings: z.record(z.string(), z.array(z.string()).min(1)) }).strict();

const NAMED: Record<string, Pick<KeySpec, 'key' | 'input'>> = {
  up: { key: 'upArrow' }, down: { key: 'downArrow' }, pageup: { key: 'pageUp' }, pagedown: { key: 'pageDown' },
  home: { key: 'home' }, end: { key: 'end' }, enter: { key: 'return' }, return: { key: 'return' },
  escape: { key: 'escape' }, esc: { key: 'escape' }, tab: { key: 'tab' }, space: { input: ' ' },
};

/** `ctrl+l`, `shift+tab`, `alt+enter`, `pageup`, `q`: a KeySpec, or an error message. */
export function parseKey(text: string): KeySpec | string {
  const parts = text.split('+');
  const last = parts.pop() ?? '';
  const spec: KeySpec = {};
  for (const mod of parts.map((p) => p.toLowerCase())) {
    if (mod === 'ctrl') spec.ctrl = true;
    else if (mod === 'shift') spec.shift = true;
    else if (mod === 'alt' || mod === 'meta') spec.meta = true;
    else return `unknown modifier "${mod}" in "${text}" (ctrl, shift, alt)`;
  }
  const named = NAMED[last.toLowerCase()];
  if (named) return { ...named, ...spec };
  if ([...last].length === 1) return { input: spec.ctrl ? last.toLowerCase() : last, ...spec };
  return `unknown key "${last}" in "${text}" (a single character, or ${Object.keys(NAMED).join(', ')})`;
}

const sameKey = (a: KeySpec, b: KeySpec): boolean =>
  a.key === b.key && a.input === b.input && Boolean(a.ctrl) === Boolean(b.ctrl) && Boolean(a.shift) === Boolean(b.shift) && Boolean(a.meta) === Boolean(b.meta);
const sections = (b: KeyBinding): Set<HelpSection> => new Set((b.help ?? []).map((h) => h.in));

/**
 * The key table with the user's bindings applied, and every problem (a file, unknown command or
 * key, a key a rebinding takes from another command in the same place), each naming the file.
 */
export function applyKeybindings(data: unknown, file: string): { keymap: Record<KeyCommand, KeyBinding>; problems: string[] } {
  const keymap = { ...KEYMAP } as Record<KeyCommand, KeyBinding>;
  const parsed = FileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { keymap, problems: [`${file}: ${issue?.path.join('.') || '(top level)'}: ${issue?.message ?? 'invalid'}; using the default keys`] };
  }
  const problems: string[] = [];
  const changed: KeyCommand[] = [];
  for (const [name, texts] of Object.entries(parsed.data.bindings)) {
    if (!(name in KEYMAP)) {
      problems.push(`${file}: bindings.${name}: no such command (${Object.keys(KEYMAP).join(', ')})`);
      continue;
    }
    const command = name as KeyCommand;
    const specs = texts.map(parseKey);
    const bad = specs.find((s): s is string => typeof s === 'string');
    if (bad !== undefined) {
      problems.push(`${file}: bindings.${name}: ${bad}; keeping its default keys`);
      continue;
    }
    keymap[command] = { ...KEYMAP[command], keys: specs as KeySpec[] };
    changed.push(command);
  }
  for (const command of changed) {
    const mine = keymap[command];
    for (const other of Object.keys(keymap) as KeyCommand[]) {
      if (other === command) continue;
      const shared = [...sections(mine)].filter((s) => sections(keymap[other]).has(s));
      // Keys the defaults already share (Home: top on an empty prompt, else the line's start) are meant.
      const sharedByDefault = (k: KeySpec): boolean => KEYMAP[command].keys.some((d) => sameKey(k, d)) && KEYMAP[other].keys.some((d) => sameKey(k, d));
      const clash = mine.keys.find((k) => keymap[other].keys.some((o) => sameKey(k, o)) && !sharedByDefault(k));
      if (shared.length > 0 && clash) problems.push(`${file}: bindings.${command}: its key is also ${other}'s (in ${shared.join(', ')}); the first in the table wins`);
    }
  }
  return { keymap, problems };
}

/** Reads the file (missing: the defaults, no problem). */
export async function loadKeybindings(cairnHome: string): Promise<{ keymap: Record<KeyCommand, KeyBinding>; problems: string[] }> {
  const file = keybindingsPath(cairnHome);
  let text: string | undefined;
  try {
    text = await readTextFile(file);
  } catch (error) {
    return { keymap: { ...KEYMAP }, problems: [`${error instanceof FileReadError ? error.message : `${file}: ${String(error)}`}; using the default keys`] };
  }
  if (text === undefined) return { keymap: { ...KEYMAP }, problems: [] };
  try {
    return applyKeybindings(JSON.parse(text) as unknown, file);
  } catch (error) {
    return { keymap: { ...KEYMAP }, problems: [`${file}: invalid JSON (${(error as Error).message}); using the default keys`] };
  }
}
