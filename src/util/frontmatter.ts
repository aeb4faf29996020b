import { parse as parseYaml } from 'yaml';
import { errorMessage } from './error-message.js';
import { stripBom } from './read-text-file.js';

/** A Markdown file split at its `---` YAML block: the block's data (undefined when there is none) and the body. */
export type Frontmatter = { data: Record<string, unknown> | undefined; body: string } | { problem: string };

/**
 * Splits and parses YAML frontmatter. A file without a `---` block has no data and all of it is the body;
 * a block that is not YAML, or not a mapping, is a problem stated in one line.
 */
export function parseFrontmatter(source: string): Frontmatter {
  const text = stripBom(source);
  const match = /^---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)([\s\S]*)$/.exec(text);
  if (!match) {
    if (/^---[ \t]*\r?\n/.test(text)) return { problem: 'the frontmatter has no closing --- line' };
    return { data: undefined, body: text };
  }
  let data: unknown;
  try {
    data = parseYaml(match[1] ?? '');
  } catch (error) {
    return { problem: `frontmatter is not valid YAML: ${errorMessage(error).split('\n')[0] ?? ''}` };
  }
  if (data === null || data === undefined) return { data: {}, body: match[2] ?? '' };
  if (typeof data !== 'object' || Array.isArray(data)) return { problem: 'frontmatter is not a YAML mapping of fields' };
  return { data: data as Record<string, unknown>, body: match[2] ?? '' };
}
