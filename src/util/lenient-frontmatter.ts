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
  /** `body`: what follows a block that is there but not YAML, for callers that load it anyway (as Claude Code does). */
  | { problem: string; body?: string };

const BLOCK = /^---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)([\s\S]*)$/;
// A top-level `key: value` line with a value on the line (block scalars and lists below a key are left alone).
const TOP_FIELD = /^([A-Za-z_][\w.-]*):[ \t]+(\S.*)$/;
// A value plain text would be, but for an unquoted `: ` or ` #` (not quoted, not a block, list or map).
const PLAIN_WITH_COLON = /^[^'"|>[{&*!%@`\s].*(?:: |:$| #)/;

// Errors throw; warnings (an unknown tag) are not printed to the terminal.
const YAML_OPTIONS = { logLevel: 'error' } as const;
const firstLine = (error: unknown): string => errorMessage(error).split('\n')[0] ?? '';

/** Whether one `key: value` line is YAML on its own (a value that continues on indented lines is never judged alone). */
function lineParses(line: string): boolean {
  try {
    parseYaml(line, YAML_OPTIONS);
    return true;
  } catch {
    return false;
  }
}

/**
 * The block with each top-level value strict YAML cannot take quoted as the text it was written
 * as, and a warning per field: an unquoted `: ` (`description: Triggers on: 'x'`), a value starting
 * with a character YAML reserves (`allowed-tools: *`, `` description: `x` does y ``), or text after
 * a flow list (`argument-hint: [pr] [priority]`).
 */
function quoteBadValues(block: string): { text: string; warnings: string[] } {
  const lines = block.split(/\r?\n/);
  const warnings: string[] = [];
  const out = lines.map((line, i) => {
    const field = TOP_FIELD.exec(line);
    if (!field) return line;
    const [, key = '', raw = ''] = field;
    const value = raw.trimEnd();
    if (/^[ \t]+\S/.test(lines[i + 1] ?? '')) return line; // continues on the next line
    if (PLAIN_WITH_COLON.test(value)) {
      warnings.push(`${key}: the value has an unquoted ": " (not valid YAML); read as text. Quote it to silence this`);
    } else if (!lineParses(line)) {
      warnings.push(`${key}: the value ${JSON.stringify(value)} is not valid YAML as written; read as that text, as Claude Code does. Quote it to silence this`);
    } else {
      return line;
    }
    return `${key}: ${JSON.stringify(value)}`;
  });
  return { text: out.join('\n'), warnings };
}

/**
 * YAML frontmatter read as Claude Code reads it: when strict YAML rejects the block, each top-level
 * value it cannot take is quoted and the block read again, with a warning naming each such field.
 * Still not YAML after that: a problem in one line.
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
    return { ...asMapping(parseYaml(block, YAML_OPTIONS)), body, warnings: [] };
  } catch (error) {
    strictError = error;
  }
  const repaired = quoteBadValues(block);
  const problem = { problem: `frontmatter is not valid YAML: ${firstLine(strictError)}`, body };
  if (repaired.warnings.length === 0) return problem;
  try {
    return { ...asMapping(parseYaml(repaired.text, YAML_OPTIONS)), body, warnings: repaired.warnings };
  } catch {
    return problem;
  }
}

function asMapping(data: unknown): { data: Record<string, unknown> } {
  if (data === null || data === undefined) return { data: {} };
  if (typeof data !== 'object' || Array.isArray(data)) throw new Error('frontmatter is not a YAML mapping of fields');
  return { data: data as Record<string, unknown> };
}
