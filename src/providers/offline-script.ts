// The offline model's grammar: turns a prompt into a deterministic plan of tool calls.
// English and Chinese forms; the README lists them.
import type { OfflinePlan, PlannedCall } from './offline-plan.js';
import { planMcp } from './offline-mcp.js';
import { skillPlan } from './offline-skills.js';
import { isInitPrompt, nextInitCalls } from './offline-init.js';
import { isReviewPrompt, reviewPlan } from './offline-review.js';
import { webPlan } from './offline-web.js';
import { group } from '../util/invariant.js';

export type { OfflinePlan, PlannedCall } from './offline-plan.js';

/** The most subagents one `use N subagents to` prompt starts. */
export const MAX_SUBAGENTS = 16;

const THEN = /\s*(?:,\s*)?(?:\bthen\b|然后|，然后)\s*/i;

export function planFor(prompt: string): OfflinePlan {
  const text = prompt.trim();
  let m: RegExpMatchArray | null;
  const mcp = planMcp(text);
  if (mcp) return mcp;

  if ((m = /^stream\s+(\d+)(?:\s+at\s+(\d+(?:\.\d+)?)\s*\/\s*s)?\s*$/i.exec(text))) {
    const rate = m[2] ? Number(m[2]) : undefined;
    return rate ? { kind: 'stream', words: Number(m[1]), rate } : { kind: 'stream', words: Number(m[1]) };
  }
  // Everything after `run ` is the command, verbatim: quotes and operators included.
  if ((m = /^(?:run in the background|在后台运行)[\s:：]+([\s\S]+)$/i.exec(text))) {
    return { kind: 'tools', steps: [[{ name: 'bash', input: { command: group(m, 1), run_in_background: true } }]] };
  }
  if ((m = /^(?:run|运行)\s+([\s\S]+)$/i.exec(text))) {
    return { kind: 'tools', steps: [[{ name: 'bash', input: { command: group(m, 1) } }]] };
  }
  if ((m = /^edit\s+(\S+?)\s*:\s*replace\s+([\s\S]+?)\s+with\s+([\s\S]*)$/i.exec(text)) ||
      (m = /^编辑\s*(\S+?)\s*[:：]\s*把\s*([\s\S]+?)\s*替换为\s*([\s\S]*)$/.exec(text))) {
    return {
      kind: 'tools',
      // Read, then edit, in one message: edit_file changes only a file read in this session.
      steps: [[{ name: 'read_file', input: { path: group(m, 1) } }, { name: 'edit_file', input: { path: group(m, 1), old_string: unquote(group(m, 2)), new_string: unquote(group(m, 3)) } }]],
    };
  }
  if ((m = /^schedule\s+"([^"]+)"\s+([\s\S]+)$/i.exec(text))) {
    const durable = /\bdurable\b/i.test(group(m, 2));
    return {
      kind: 'tools',
      steps: [[{ name: 'cron_create', input: { cron: group(m, 1), prompt: group(m, 2).trim(), recurring: true, durable } }]],
    };
  }
  if (isInitPrompt(text)) return { kind: 'script', next: nextInitCalls };
  if (isReviewPrompt(text)) return reviewPlan(text);
  const skill = skillPlan(text, planFor);
  if (skill) return skill;
  if ((m = /^think(?:\s+about)?\s+([\s\S]+)$/i.exec(text))) return { kind: 'think', topic: group(m, 1) };
  // `ask me: Which database? Postgres | SQLite`: one question (ask_user_question); `(several)` makes it a multiple choice.
  if ((m = /^ask me( \(several\))?:\s*([^?]+\?)\s*(.+\|.+)$/i.exec(text))) {
    const options = group(m, 3).split('|').map((label) => ({ label: label.trim(), description: '' })).filter((o) => o.label !== '').slice(0, 4);
    const question = { question: group(m, 2).trim(), header: 'Question', options, multiSelect: m[1] !== undefined };
    return { kind: 'tools', steps: [[{ name: 'ask_user_question', input: { questions: [question] } }]] };
  }
  if ((m = /^propose (?:a )?plan:\s*([\s\S]+)$/i.exec(text))) {
    return { kind: 'tools', steps: [[{ name: 'exit_plan_mode', input: { plan: group(m, 1).trim() } }]] };
  }

  // Subagents: the child runs the same grammar on its task.
  if ((m = /^use two subagents to read\s+(\S+)\s+and\s+(\S+)$/i.exec(text)) || (m = /^用两个子代理(?:分别)?(?:去)?读\s*(\S+?)\s*和\s*(\S+)$/.exec(text))) {
    return { kind: 'tools', steps: [[subagent('explore', `read ${group(m, 1)}`), subagent('explore', `read ${group(m, 2)}`)]] };
  }
  // `use N subagents to <task>`: N read-only (explore) subagents with the same task, in one step.
  // Only read-only agent calls are concurrency-safe, so `general` ones would run one after another.
  if ((m = /^use\s+(\d+)\s+subagents?\s+to\s+([\s\S]+)$/i.exec(text)) || (m = /^用\s*(\d+)\s*个子代理(?:去)?([\s\S]+)$/.exec(text))) {
    const n = Number(group(m, 1));
    const task = group(m, 2).trim();
    if (n >= 1 && n <= MAX_SUBAGENTS && task) return { kind: 'tools', steps: [Array.from({ length: n }, () => subagent('explore', task))] };
  }
  if ((m = /^use a subagent to\s+([\s\S]+?)(?:\s+and summari[sz]e)?$/i.exec(text)) || (m = /^用子代理(?:去)?([\s\S]+?)(?:并总结)?$/.exec(text))) {
    return { kind: 'tools', steps: [[subagent('general', group(m, 1).trim())]] };
  }
  if ((m = /^explore read-only:\s*([\s\S]+)$/i.exec(text)) || (m = /^用只读子代理探索[:：]\s*([\s\S]+)$/.exec(text))) {
    return { kind: 'tools', steps: [[subagent('explore', group(m, 1).trim())]] };
  }

  // Before the web's `search <query>`: the episodic notes, through the memory tool.
  if ((m = /^search (?:my |the )?memory for\s+([\s\S]+)$/i.exec(text))) {
    return { kind: 'tools', steps: [[{ name: 'memory', input: { action: 'search', query: unquote(group(m, 1)) } }]] };
  }
  const web = webPlan(text, parseStep);
  if (web) return web;
  const steps = text.split(THEN).map(parseStep);
  if (steps.length > 0 && steps.every((s) => s !== undefined && s.length > 0)) {
    return { kind: 'tools', steps: steps as PlannedCall[][] };
  }
  return { kind: 'chat', text };
}

/** One step: several reads form one parallel batch; writes, lists and greps stand alone. */
function parseStep(step: string): PlannedCall[] | undefined {
  const s = step.trim();
  let m: RegExpMatchArray | null;
  if ((m = /^write\s+([\s\S]+?)\s+to\s+(\S+)$/i.exec(s))) {
    return [{ name: 'write_file', input: { path: group(m, 2), content: unquote(group(m, 1)) + '\n' } }];
  }
  if ((m = /^(?:往|向)\s*(\S+?)\s*写入\s*([\s\S]+)$/.exec(s))) {
    return [{ name: 'write_file', input: { path: group(m, 1), content: unquote(group(m, 2)) + '\n' } }];
  }
  if ((m = /^(?:list|列出)(?:\s+(\S+))?$/i.exec(s))) return [{ name: 'list_dir', input: { path: m[1] ?? '.' } }];
  if ((m = /^grep\s+([\s\S]+)$/i.exec(s))) return [{ name: 'grep', input: { pattern: unquote(group(m, 1).trim()), output_mode: 'content' } }];

  // "read a.txt read b.txt", "read a.txt and b.txt", "读取 a.txt 读 b.txt"
  const reads = [...s.matchAll(/(?:\bread\b|读取|读)\s*(\S+?)(?=\s|$|和|and)/gi)].map((r) => group(r, 1));
  const extra = [...s.matchAll(/(?:\band\b|和)\s*(\S+)/gi)].map((r) => group(r, 1));
  if (reads.length > 0 && /^(?:read|读取|读)/i.test(s)) {
    const paths = [...reads, ...extra.filter((p) => !/^(?:read|读取|读)$/i.test(p))];
    return paths.map((path) => ({ name: 'read_file', input: { path } }));
  }
  return undefined;
}

function unquote(s: string): string {
  const t = s.trim();
  if (t.length >= 2 && ((t.startsWith('"') && t.endsWith('"')) || (t.startsWith("'") && t.endsWith("'")))) return t.slice(1, -1);
  return t;
}

function subagent(type: string, task: string): PlannedCall {
  return { name: 'agent', input: { type, task, description: task.length > 40 ? `${task.slice(0, 37)}...` : task } };
}
