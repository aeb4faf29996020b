import path from 'node:path';
import type { LoggedDecision } from '../../src/session/decision-log.js';
import type { AgentSession } from '../../src/session/agent-session.js';
import type { SlashCommand } from './registry.js';

const SHOWN = 20;
const USAGE = 'Usage: /permissions (the decision log and the rules), /permissions log [n] (the last n decisions)';

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
    description: 'Decision log and the rules with their files',
    argHint: '[log [n]]',
    async run(args, ctx) {
      const cwd = ctx.store.getSnapshot().info.cwd;
      const [sub, n] = args.trim().split(/\s+/);
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
