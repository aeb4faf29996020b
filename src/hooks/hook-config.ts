// Reads hook definitions out of the two formats: the `hooks` key of a settings file (Claude Code's
// shape) and `.hooks.json` (cairn's own). An invalid entry is reported naming the file and key;
// the other entries still load.
import { DEFAULT_TIMEOUT_MS, HOOK_EVENTS, type HookDefinition, type HookEventName, type HookHandler } from './hook-types.js';
import { compileMatcher } from './hook-matcher.js';
import { clampConfiguredWait, MAX_CONFIGURED_WAIT_MS } from '../util/timer-limit.js';

export interface ParsedHooks {
  hooks: HookDefinition[];
  problems: string[];
}

const CAIRN_EVENTS: Record<string, HookEventName> = {
  SessionStart: 'SessionStart',
  UserPromptSubmit: 'UserPromptSubmit',
  PreToolUse: 'PreToolUse',
  PostToolUse: 'PostToolUse',
  RoundEnd: 'Stop',
  PreCompact: 'PreCompact',
  SubagentStop: 'SubagentStop',
  SessionEnd: 'SessionEnd',
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isHookEvent(name: string): name is HookEventName {
  return (HOOK_EVENTS as readonly string[]).includes(name);
}

/**
 * A timeout in seconds, or the format's default; a problem string when it is not a positive number.
 * One longer than a day is cut to a day (`note` says so): a timer cannot hold much more, and one
 * that overflows fires at once, which would stop a guard hook before it answers.
 */
function timeoutOf(value: unknown, fallbackMs: number): { ms: number; note?: string } | string {
  if (value === undefined) return { ms: fallbackMs };
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return `"timeout" must be a positive number of seconds, got ${JSON.stringify(value)}`;
  const { ms, clamped } = clampConfiguredWait(value * 1000);
  if (!clamped) return { ms: Math.max(1, ms) };
  return { ms, note: `${value} seconds is longer than cairn waits for a hook; it is stopped after ${MAX_CONFIGURED_WAIT_MS / 1000} seconds (24 hours)` };
}

function matcherProblem(matcher: unknown): string | undefined {
  if (matcher === undefined) return undefined;
  if (typeof matcher !== 'string') return `"matcher" must be a string, got ${JSON.stringify(matcher)}`;
  try {
    compileMatcher(matcher);
    return undefined;
  } catch (error) {
    return `"matcher" is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export interface SettingsHooksOptions {
  /** Where the file sits, for /hooks: "user settings", "project settings", "plugin NAME". */
  origin?: string;
  /** The user's own settings file: its http hooks may reach loopback (never other private addresses). */
  userOwned?: boolean;
}

/** Claude Code waits 30 s for a prompt hook. */
export const PROMPT_TIMEOUT_MS = 30_000;

/** The handler's kind and its fields; a problem string (naming the field) when they are wrong. */
function handlerOf(handler: Record<string, unknown>, opts: SettingsHooksOptions): { command: string; handler?: HookHandler } | string {
  const type = handler['type'];
  if (type === 'command') {
    const command = handler['command'];
    if (typeof command !== 'string' || command.trim() === '') return '.command: expected a non-empty string';
    return { command };
  }
  if (type === 'http') {
    const url = handler['url'];
    if (typeof url !== 'string') return '.url: expected an http(s) URL';
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return `.url: ${JSON.stringify(url)} is not a URL`;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `.url: only http and https are posted to, got ${parsed.protocol}`;
    const headers = handler['headers'] ?? {};
    if (!isRecord(headers) || Object.values(headers).some((v) => typeof v !== 'string')) return '.headers: expected an object of strings';
    return { command: url, handler: { type: 'http', url, headers: headers as Record<string, string>, allowPrivate: opts.userOwned === true } };
  }
  if (type === 'prompt') {
    const prompt = handler['prompt'];
    if (typeof prompt !== 'string' || prompt.trim() === '') return '.prompt: expected a non-empty string';
    const model = handler['model'];
    if (model !== undefined && typeof model !== 'string') return '.model: expected a model name';
    return { command: prompt, handler: { type: 'prompt', prompt, ...(model !== undefined ? { model } : {}) } };
  }
  return `.type: cairn runs "command", "http" and "prompt" hooks, got ${JSON.stringify(type)}`;
}

/** The `hooks` key of one settings file: `{Event: [{matcher, hooks: [{type: "command", command, timeout}]}]}`. */
export function parseSettingsHooks(value: unknown, source: string, opts: SettingsHooksOptions = {}): ParsedHooks {
  const out: ParsedHooks = { hooks: [], problems: [] };
  const report = (key: string, why: string): void => {
    out.problems.push(`${source}: ${key}: ${why}; this hook is not loaded`);
  };
  if (value === undefined) return out;
  if (!isRecord(value)) {
    report('hooks', 'expected an object of events');
    return out;
  }
  for (const [event, groups] of Object.entries(value)) {
    const at = `hooks.${event}`;
    if (!isHookEvent(event)) {
      report(at, `unknown event (cairn runs ${HOOK_EVENTS.join(', ')})`);
      continue;
    }
    if (!Array.isArray(groups)) {
      report(at, 'expected an array of {matcher, hooks}');
      continue;
    }
    groups.forEach((group: unknown, g) => {
      const groupKey = `${at}[${g}]`;
      if (!isRecord(group)) return report(groupKey, 'expected an object {matcher, hooks}');
      const bad = matcherProblem(group['matcher']);
      if (bad) return report(`${groupKey}.matcher`, bad);
      const handlers = group['hooks'];
      if (!Array.isArray(handlers)) return report(`${groupKey}.hooks`, 'expected an array of {type: "command", command}');
      handlers.forEach((handler: unknown, h) => {
        const key = `${groupKey}.hooks[${h}]`;
        if (!isRecord(handler)) return report(key, 'expected an object {type: "command", command}');
        const kind = handlerOf(handler, opts);
        if (typeof kind === 'string') {
          const [field = '', why = kind] = kind.split(/: (.*)/s);
          return report(`${key}${field}`, why);
        }
        const fallback = kind.handler?.type === 'prompt' ? PROMPT_TIMEOUT_MS : DEFAULT_TIMEOUT_MS.claude;
        const timeout = timeoutOf(handler['timeout'], fallback);
        if (typeof timeout === 'string') return report(`${key}.timeout`, timeout);
        if (timeout.note) out.problems.push(`${source}: ${key}.timeout: ${timeout.note}`);
        const matcher = group['matcher'];
        out.hooks.push({
          event, command: kind.command, timeoutMs: timeout.ms, format: 'claude', source, key,
          ...(kind.handler ? { handler: kind.handler } : {}),
          ...(opts.origin !== undefined ? { origin: opts.origin } : {}),
          ...(opts.userOwned === true ? { userOwned: true } : {}),
          ...(typeof matcher === 'string' ? { matcher } : {}),
        });
      });
    });
  }
  return out;
}

/** `.hooks.json`: `{Event: [{matcher, command, timeout}]}` with cairn's event names (RoundEnd). */
export function parseCairnHooks(value: unknown, source: string): ParsedHooks {
  const out: ParsedHooks = { hooks: [], problems: [] };
  const report = (key: string, why: string): void => {
    out.problems.push(`${source}: ${key}: ${why}; this hook is not loaded`);
  };
  // Accept the file either as the events object itself or wrapped in {"hooks": ...}.
  const events = isRecord(value) && isRecord(value['hooks']) ? value['hooks'] : value;
  if (!isRecord(events)) {
    report('(top level)', 'expected an object of events');
    return out;
  }
  for (const [name, entries] of Object.entries(events)) {
    const event = CAIRN_EVENTS[name];
    if (!event) {
      report(name, `unknown event (.hooks.json runs ${Object.keys(CAIRN_EVENTS).join(', ')})`);
      continue;
    }
    if (!Array.isArray(entries)) {
      report(name, 'expected an array of {matcher, command, timeout}');
      continue;
    }
    entries.forEach((entry: unknown, i) => {
      const key = `${name}[${i}]`;
      if (!isRecord(entry)) return report(key, 'expected an object {matcher, command, timeout}');
      const bad = matcherProblem(entry['matcher']);
      if (bad) return report(`${key}.matcher`, bad);
      const command = entry['command'];
      if (typeof command !== 'string' || command.trim() === '') return report(`${key}.command`, 'expected a non-empty string');
      const timeout = timeoutOf(entry['timeout'], DEFAULT_TIMEOUT_MS.cairn);
      if (typeof timeout === 'string') return report(`${key}.timeout`, timeout);
      if (timeout.note) out.problems.push(`${source}: ${key}.timeout: ${timeout.note}`);
      const matcher = entry['matcher'];
      out.hooks.push({ event, command, timeoutMs: timeout.ms, format: 'cairn', source, key, ...(typeof matcher === 'string' ? { matcher } : {}) });
    });
  }
  return out;
}
