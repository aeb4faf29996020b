import { parse as parseYaml } from 'yaml';
import { errorMessage } from './error-message.js';
import { stripBom } from './read-text-file.js';

export type LenientFrontmatter =
  | {
      /** The block's fields; undefined when the file has no `---` block. */
      data: Record<string, unknown> | undefined;
      body: string;
      /** Fields read only after quoting their value (an unquoted `: ` in a description), one line each. */
      warnings: string[];
    }
  | { problem: string };

const BLOCK = /^---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)([\s\S]*)$/;
// A top-level `key: value` line whose value is plain text (not quoted, not a block, list or map).
const PLAIN_FIELD = /^([A-Za-z_][\w.-]*):[ \t]+([^'"|>[{&*!%@`\s].*)$/;

/**
 * YAML frontmatter read as Claude Code reads it: when strict YAML rejects the block, values with
 * an unquoted `: ` or ` #` (`description: Triggers on: 'x'`) are quoted and the block read again,
 * with a warning naming each such field. Still not YAML after that: a problem in one line.
 */
export function parseLenientFrontmatter(source: string): LenientFrontmatter {
  const text = stripBom(source);
  const match = BLOCK.exec(text);
  if (!match) {
    if (/^---[ \t]*\r?\n/.test(text)) return { problem: 'the frontmatter has no closing --- line' };
    return { data: undefined, body: text, warnings: [] };
  }
  const block = match[1] ?? '';
  const body = match[2] ?? '';
  let strictError: unknown;
  try {
    return { ...asMapping(parseYaml(block)), body, warnings: [] };
  } catch (error) {
    strictError = error;
  }
  const quoted: string[] = [];
  const repaired = block
    .split(/\r?\n/)
    .map((line) => {
      const field = PLAIN_FIELD.exec(line);
      if (!field) return line;
      const [, key = '', value = ''] = field;
      if (!/: |:$| #/.test(value.trimEnd())) return line;
      quoted.push(key);
      return `${key}: ${JSON.stringify(value.trimEnd())}`;
    })
    .join('\n');
  const firstLine = (error: unknown) => errorMessage(error).split('\n')[0] ?? '';
  if (quoted.length === 0) return { problem: `frontmatter is not valid YAML: ${firstLine(strictError)}` };
  try {
    const warnings = quoted.map((key) => `${key}: the value has an unquoted ": " (not valid YAML); read as text. Quote it to silence this`);
    return { ...asMapping(parseYaml(repaired)), body, warnings };
  } catch {
    return { problem: `frontmatter is not valid YAML: ${firstLine(strictError)}` };
  }
}

function asMapping(data: unknown): { data: Record<string, unknown> } {
  if (data === null || data === undefined) return { data: {} };
  if (typeof data !== 'object' || Array.isArray(data)) throw new Error('frontmatter is not a YAML mapping of fields');
  return { data: data as Record<string, unknown> };
}
