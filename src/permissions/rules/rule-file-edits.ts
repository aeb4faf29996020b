// /permissions adds a rule to a settings file or removes one from the file it came from. The file's
// other content and formatting are kept: the rule is spliced into (or cut out of) its list's text;
// only a file with no such list yet is written whole (two-space JSON, every other key kept).
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { prepareCairnDir } from '../../util/cairn-dir.js';
import { writeFileAtomically } from '../../util/write-atomically.js';
import { jsonSpans, samePath } from './json-spans.js';
import type { RuleList } from './anchor.js';
import { queuedWrite, SettingsError } from './settings.js';

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function parsed(file: string, text: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new SettingsError(`${file}: not valid JSON (${(err as Error).message}); not changed`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new SettingsError(`${file}: not a JSON object; not changed`);
  return data as Record<string, unknown>;
}

const listOf = (data: Record<string, unknown>, list: RuleList): unknown[] | undefined => {
  const p = data['permissions'];
  const l = typeof p === 'object' && p !== null ? (p as Record<string, unknown>)[list] : undefined;
  return Array.isArray(l) ? l : undefined;
};

/** Adds `rule` to `permissions.<list>` of `file` (made when absent). False when it is there already. */
export function addRuleToFile(file: string, list: RuleList, rule: string): Promise<boolean> {
  return queuedWrite(file, async () => {
    const text = await readText(file);
    const data = text === undefined || text.trim() === '' ? {} : parsed(file, text);
    const current = listOf(data, list);
    if (current?.includes(rule)) return false;
    let next: string | undefined;
    if (text !== undefined && current) {
      const spans = jsonSpans(text);
      const array = spans.find((s) => samePath(s.path, ['permissions', list]));
      const items = spans.filter((s) => s.path.length === 3 && s.path[0] === 'permissions' && s.path[1] === list);
      const last = items[items.length - 1];
      if (array && last) {
        // After the last rule, on a line of its own with the same indentation if the list is one per line.
        const lineStart = text.lastIndexOf('\n', last.start) + 1;
        const indent = /^\s*$/.test(text.slice(lineStart, last.start)) ? `\n${text.slice(lineStart, last.start)}` : ' ';
        next = `${text.slice(0, last.end)},${indent}${JSON.stringify(rule)}${text.slice(last.end)}`;
      } else if (array) {
        next = `${text.slice(0, array.start + 1)}${JSON.stringify(rule)}${text.slice(array.end - 1)}`;
      }
    }
    if (next === undefined || !sameAs(next, data, list, [...(current ?? []), rule])) {
      const permissions = { ...((data['permissions'] as Record<string, unknown> | undefined) ?? {}), [list]: [...(current ?? []), rule] };
      next = `${JSON.stringify({ ...data, permissions }, null, 2)}\n`;
    }
    await prepareCairnDir(dirname(file));
    await writeFileAtomically(file, next);
    return true;
  });
}

/** Removes every `rule` from `permissions.<list>` of `file`. False when the file does not hold it. */
export function removeRuleFromFile(file: string, list: RuleList, rule: string): Promise<boolean> {
  return queuedWrite(file, async () => {
    const text = await readText(file);
    if (text === undefined) return false;
    const data = parsed(file, text);
    const current = listOf(data, list);
    if (!current?.includes(rule)) return false;
    const kept = current.filter((r) => r !== rule);
    let next = text;
    // From the last match back, so earlier offsets stay true.
    const items = jsonSpans(text).filter((s) => s.path.length === 3 && s.path[0] === 'permissions' && s.path[1] === list);
    for (let k = items.length - 1; k >= 0; k--) {
      const item = items[k];
      if (!item || current[k] !== rule) continue;
      const following = items[k + 1];
      const previous = items[k - 1];
      // Cut the rule with the separator after it, or, for the last one, the separator before it.
      if (following) next = next.slice(0, item.start) + next.slice(following.start);
      else if (previous) next = next.slice(0, previous.end) + next.slice(item.end);
      else next = next.slice(0, item.start) + next.slice(item.end);
      items.splice(k, 1);
    }
    if (!sameAs(next, data, list, kept)) {
      const permissions = { ...(data['permissions'] as Record<string, unknown>), [list]: kept };
      next = `${JSON.stringify({ ...data, permissions }, null, 2)}\n`;
    }
    await writeFileAtomically(file, next);
    return true;
  });
}

/** Whether the edited text parses to the file's data with the list as `list` (else the file is written whole). */
function sameAs(text: string, data: Record<string, unknown>, list: RuleList, rules: unknown[]): boolean {
  try {
    const after = JSON.parse(text) as Record<string, unknown>;
    const permissions = { ...((data['permissions'] as Record<string, unknown> | undefined) ?? {}), [list]: rules };
    return JSON.stringify(after) === JSON.stringify({ ...data, permissions });
  } catch {
    return false;
  }
}
