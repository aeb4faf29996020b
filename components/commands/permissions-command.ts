import path from 'node:path';
import type { LoggedDecision } from '../../src/session/decision-log.js';
import type { AgentSession } from '../../src/session/agent-session.js';
import type { SlashCommand } from './registry.js';
import { errorMessage } from '../../src/util/error-message.js';

const SHOWN = 20;
const USAGE =
  'Usage: /permissions (the decision log and the rules), /permissions log [n] (the last n decisions), ' +
  '/permissions add [local|project|user] allow|ask|deny <rule> (written to that settings file; default local), ' +
  '/permissions remove [allow|ask|deny] <rule> (taken out of the file it came from)';
const LISTS = ['allow', 'ask', 'deny'] as const;
const SCOPES = ['local', 'project', 'user'] as const;
type List = (typeof LISTS)[number];
const isList = (w: string | undefined): w is List => (LISTS as readonly string[]).includes(w ?? '');
const isScope = (w: string | undefined): w is (typeof SCOPES)[number] => (SCOPES as readonly string[]).includes(w ?? '');

/** `/permissions add ...`: what the user sees after the file is written (or why it was not). */
async function addCommand(session: AgentSession, words: string[], cwd: string): Promise<{ text: string; warning?: boolean }> {
  const scope = isScope(words[0]) ? words.shift() as (typeof SCOPES)[number] : 'local';
  const list = words.shift();
  const rule = words.join(' ').trim();
  if (!isList(list) || rule === '' || !session.permissions.addRule) return { text: USAGE, warning: true };
  try {
    const { added, file } = await session.permissions.addRule(list, rule, scope);
    const at = place(file, undefined, undefined, cwd);
    return { text: added ? `Added ${list} rule ${rule} to ${at}; it applies now.` : `${at} already has the ${list} rule ${rule}.` };
  } catch (error) {
    return { text: `Not added: ${errorMessage(error)}`, warning: true };
  }
}

/** `/permissions remove ...`: the rule out of each file it came from (every list, unless one is named). */
async function removeCommand(session: AgentSession, words: string[], cwd: string): Promise<{ text: string; warning?: boolean }> {
  const named = isList(words[0]) ? [words.shift() as List] : [...LISTS];
  const rule = words.join(' ').trim();
  if (rule === '' || !session.permissions.removeRule) return { text: USAGE, warning: true };
  const lines: string[] = [];
  try {
    for (const list of named) {
      const { removedFrom, notInAFile } = await session.permissions.removeRule(list, rule);
      for (const where of removedFrom) lines.push(`Removed ${list} rule ${rule} from ${place(where.startsWith('/') ? where : undefined, undefined, where, cwd)}.`);
      for (const where of notInAFile) lines.push(`The ${list} rule ${rule} comes from ${where}, not a settings file: start cairn without it.`);
    }
  } catch (error) {
    return { text: `Not removed: ${errorMessage(error)}`, warning: true };
  }
  if (lines.length === 0) return { text: `No ${named.length === 1 ? `${named[0]} ` : ''}rule ${rule} is in force (/permissions lists them as written).`, warning: true };
  return { text: lines.join('\n') };
}

/** Where a rule stands: a file (relative to the workspace when inside it) and line, or the flag or answer it came from. */
function place(file: string | undefined, line: number | undefined, where: string | undefined, cwd: string): string {
  if (file === undefined) return where ?? '';
  const rel = path.relative(cwd, file);
  const shown = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
  return line !== undefined ? `${shown}:${line}` : shown;
}

/** What decided one entry, in a few words. */
function decidedBy(d: LoggedDecision, cwd: string): string {
  switch (d.by) {
    case 'rule': {
      const at = place(d.file, d.line, d.where, cwd);
      return `rule ${d.rule ?? '?'}${at ? ` (${at})` : ''}`;
    }
    case 'builtin':
      return `built-in deny ${d.rule ?? ''}`.trim();
    case 'mode':
      return `${d.mode} mode`;
    case 'sandbox':
      return 'the sandbox';
    case 'classifier':
      return `the classifier: ${d.reason}`;
    case 'hook':
      return d.reason;
    case 'user':
      return `you (${d.answer ?? d.verdict})`;
    case 'cairn':
      return `cairn: ${d.reason}`;
  }
}

function clock(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : at.toTimeString().slice(0, 8);
}

/** One line per decision: time, verdict, tool and input, what decided it. */
export function decisionLines(decisions: readonly LoggedDecision[], cwd: string): string[] {
  return decisions.map((d) => {
    const who = d.agent !== undefined ? ` [${d.agent}]` : '';
    const verdict = d.verdict === 'allow' ? 'allowed' : 'denied ';
    return `  ${clock(d.at)} ${verdict} ${d.name}${who} ${d.input} · ${decidedBy(d, cwd)}`;
  });
}

/** The rules in force, each with the file and line (or flag) it came from. */
export function ruleLines(session: AgentSession, cwd: string): string[] {
  const rules = session.permissions.rules();
  const lines: string[] = [];
  for (const list of ['allow', 'ask', 'deny'] as const) {
    const shown = new Set<string>();
    for (const text of rules[list]) {
      const source = session.permissions.ruleSource?.(list, text);
      const written = source?.rule ?? text;
      const at = source ? place(source.file, source.line, source.where, cwd) : '';
      const key = `${written}\u0000${at}`;
      if (shown.has(key)) continue; // one written rule anchored two ways is one line
      shown.add(key);
      lines.push(`  ${list.padEnd(5)} ${written}${at ? `  (${at})` : ''}`);
    }
  }
  for (const text of rules.builtin ?? []) lines.push(`  deny  ${text}  (built in)`);
  return lines;
}

async function report(session: AgentSession, cwd: string, count: number): Promise<string> {
  const all = (await session.decisions?.entries()) ?? [];
  const recent = all.slice(-count);
  const file = session.decisions?.file;
  const head =
    all.length === 0
      ? 'Decisions: none yet this session.'
      : `Decisions (${recent.length === all.length ? 'all' : `last ${recent.length}`} of ${all.length}${file ? `, logged in ${file}` : ''}):`;
  const rules = ruleLines(session, cwd);
  return [`Mode: ${session.mode}`, head, ...decisionLines(recent, cwd), 'Rules:', ...(rules.length > 0 ? rules : ['  (none)'])].join('\n');
}

/** /permissions: the session's decision log (what ran or was refused, and what decided it) and the rules with their files. */
export function permissionsCommand(): SlashCommand {
  return {
    name: 'permissions',
    description: 'Decision log and the rules with their files; add or remove a rule',
    argHint: '[log [n] | add [scope] <list> <rule> | remove [list] <rule>]',
    async run(args, ctx) {
      const cwd = ctx.store.getSnapshot().info.cwd;
      const [sub, n, ...rest] = args.trim().split(/\s+/);
      if (sub === 'add' || sub === 'remove') {
        const words = [n ?? '', ...rest].filter((w) => w !== '');
        const done = sub === 'add' ? await addCommand(ctx.session, words, cwd) : await removeCommand(ctx.session, words, cwd);
        return ctx.print(done.text, done.warning ? 'warning' : undefined);
      }
      if (sub === undefined || sub === '') return ctx.print(await report(ctx.session, cwd, SHOWN));
      if (sub === 'log') {
        const count = n === undefined ? SHOWN : Number(n);
        if (!Number.isInteger(count) || count <= 0) return ctx.print(`"${n ?? ''}" is not a number of decisions. ${USAGE}`, 'warning');
        return ctx.print(await report(ctx.session, cwd, count));
      }
      ctx.print(`Unknown /permissions option "${sub}". ${USAGE}`, 'warning');
    },
  };
}
