import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Every key is read through the key table (components/keys/keymap.ts): a handler that tests a raw
// flag (`key.upArrow`, `key.ctrl && input === 'k'`) or compares the typed text with a letter is a
// key the user's keybindings.json cannot rebind, and /help does not list.
const root = path.resolve(import.meta.dirname, '../../..');

/** The key modules: the table and its readers, and the bytes-to-key splitter. */
const KEY_MODULES = new Set(['components/keys/keymap.ts', 'components/keys/split-keys.ts']);

const RAW_FLAG = /\bkey\.(upArrow|downArrow|leftArrow|rightArrow|pageUp|pageDown|home|end|return|escape|ctrl|shift|tab|backspace|delete|meta|super|hyper|eventType)\b|\bkey\[/g;
const LITERAL_INPUT =
  /(?<![.\w])(?<!typeof )input(?:\.toLowerCase\(\)|\.toUpperCase\(\))?\s*[!=]==?\s*['"`]|['"`]\s*[!=]==?\s*input\b|[!=]==?\s*input\.to(?:Lower|Upper)Case\(\)|\bswitch\s*\(\s*input\b/g;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

/** The code without its comments (which may name a flag to explain it). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** `file:line: text` for each read of a raw key outside the key modules. */
function rawKeyReads(files: readonly string[]): string[] {
  const out: string[] = [];
  for (const file of files) {
    const rel = path.relative(root, file);
    if (KEY_MODULES.has(rel)) continue;
    code(fs.readFileSync(file, 'utf8'))
      .split('\n')
      .forEach((line, i) => {
        if (line.match(RAW_FLAG) || line.match(LITERAL_INPUT)) out.push(`${rel}:${i + 1}: ${line.trim()}`);
      });
  }
  return out;
}

describe('key reads', () => {
  it('no file outside the key modules reads a raw key flag or compares the typed text with a key', () => {
    const files = [...sourceFiles(path.join(root, 'components')), ...sourceFiles(path.join(root, 'src'))];
    expect(rawKeyReads(files)).toEqual([]);
  });

  it('catches the reads it is about', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-key-reads-'));
    try {
      const file = path.join(dir, 'handler.ts');
      fs.writeFileSync(
        file,
        [
          "// key.upArrow in a comment is fine",
          "if (is('up', input, key)) up();",
          'const step = key.upArrow ? -1 : 1;',
          "if (key.ctrl && input === 'k') kill();",
          "if (input.toLowerCase() === 'u') save();",
          "const i = choices.findIndex((c) => c.key === input.toLowerCase());",
          'switch (input) {',
        ].join('\n'),
      );
      expect(rawKeyReads([file]).map((r) => r.replace(/^.*handler\.ts:/, ''))).toEqual([
        '3: const step = key.upArrow ? -1 : 1;',
        "4: if (key.ctrl && input === 'k') kill();",
        "5: if (input.toLowerCase() === 'u') save();",
        '6: const i = choices.findIndex((c) => c.key === input.toLowerCase());',
        '7: switch (input) {',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
