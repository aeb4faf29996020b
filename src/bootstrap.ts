import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { PermissionMode } from './events.js';
import { createPermissionChecker } from './permissions/checker.js';
import { loadSettings } from './permissions/settings.js';
import { parseRule, splitRuleList } from './permissions/rule-parse.js';
import { createOfflineProvider } from './providers/offline.js';
import { createProvider, resolveProvider } from './providers/registry.js';
import { AgentSession } from './session/agent-session.js';
import { listSessions } from './session/session-list.js';
import { loadSession, type LoadedSession } from './session/session-loader.js';
import { sessionFile } from './session/session-paths.js';
import { SessionWriter } from './session/session-writer.js';
import { createSystemPromptSource } from './context/system-prompt-source.js';
import type { PromptSection } from './context/system-prompt.js';
import { createBuiltinTools } from './tools/builtin.js';
import { createCompactTool } from './tools/compact.js';
import { createMemoryTool } from './tools/memory.js';
import { writeEpisodicNote } from './context/compact.js';
import { notice } from './events.js';

export interface RuntimeOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  interactive: boolean;
  provider?: string;
  model?: string;
  permissionMode?: PermissionMode;
  allowedTools?: string[];
  disallowedTools?: string[];
  maxTurns?: number;
  now?: () => Date;
  /** Resume the newest session of this workspace (-c). */
  continueLatest?: boolean;
  /** Resume this session id (--resume ID). */
  resumeId?: string;
  /** Write the session file (default true). */
  persist?: boolean;
}

export interface Runtime {
  session: AgentSession;
  cwd: string;
  cairnHome: string;
  /** Where the provider choice came from, for the "offline model" announcement. */
  providerSource: string;
  systemPrompt(): Promise<string>;
  systemPromptSections(): Promise<PromptSection[]>;
  settingsSources: string[];
  sessionId: string;
  contextWindow: number;
  sessionFile?: string;
  /** Set when a session was resumed: its events re-render the transcript. */
  resumed?: LoadedSession;
  /** Things to tell the user at start (no session to continue, repaired lines). */
  startupNotices: string[];
  close(): void;
}

export function cairnHomeFrom(env: NodeJS.ProcessEnv): string {
  return env['CAIRN_HOME'] || path.join(os.homedir(), '.cairn');
}

/**
 * Builds everything a session needs from flags, environment and settings files.
 * Throws SettingsError / ConfigError (messages name the file and field): cairn refuses
 * to start half-configured.
 */
export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const cwd = await fs.realpath(options.cwd);
  const cairnHome = cairnHomeFrom(options.env);
  const settings = await loadSettings({ workspace: cwd, cairnHome });
  const flagRules = {
    allow: flagRuleList('--allowed-tools', options.allowedTools ?? []),
    deny: flagRuleList('--disallowed-tools', options.disallowedTools ?? []),
  };
  const rules = {
    allow: [...flagRules.allow, ...settings.rules.allow],
    ask: [...settings.rules.ask],
    deny: [...flagRules.deny, ...settings.rules.deny],
  };
  const mode = options.permissionMode ?? settings.defaultMode ?? 'default';
  const permissions = createPermissionChecker({ workspace: cwd, mode, rules, cairnHome });

  const resolved = await resolveProvider({
    flags: { ...(options.provider ? { provider: options.provider } : {}), ...(options.model ? { model: options.model } : {}) },
    env: options.env,
    cairnHome,
  });
  const provider = createProvider(resolved, {
    createOffline: (model) =>
      createOfflineProvider({ model, deltaDelayMs: Number(options.env['CAIRN_OFFLINE_DELAY_MS'] ?? (options.interactive ? 8 : 0)) }),
  });
  const startupNotices: string[] = [];
  const now = options.now ?? (() => new Date());
  let resumed: LoadedSession | undefined;
  let resumeFile: string | undefined;
  if (options.resumeId) {
    resumeFile = sessionFile(cairnHome, cwd, options.resumeId);
    resumed = await loadSession(resumeFile);
  } else if (options.continueLatest) {
    const latest = (await listSessions(cairnHome, cwd))[0];
    if (latest) {
      resumeFile = latest.file;
      resumed = await loadSession(latest.file);
    } else {
      startupNotices.push('No earlier session in this workspace to continue; starting a new one.');
    }
  }
  if (resumed) startupNotices.push(...resumed.warnings);
  const sessionId = resumed?.header.id ?? randomUUID();

  const tools = [...createBuiltinTools(), createMemoryTool({ cairnHome, now }), createCompactTool()];
  const promptSource = createSystemPromptSource({ cwd, cairnHome, now, toolNames: () => tools.map((t) => t.name) });
  const system = async (ctx: { mode: PermissionMode; model: string }): Promise<string> => (await promptSource.build(ctx)).text;
  const session = new AgentSession({
    provider,
    tools,
    permissions,
    cwd,
    system,
    interactive: options.interactive,
    ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}),
    ...(resumed ? { history: resumed.messages } : {}),
    compaction: {
      thresholdTokens: compactThreshold(options.env, resolved.contextWindow),
      onCompacted: async (result, trigger) => {
        await writeEpisodicNote(cwd, now(), result, trigger);
      },
    },
  });
  const usageLog = path.join(cairnHome, 'usage.jsonl');
  session.subscribe((event) => {
    if (event.type !== 'usage') return;
    const line = { ts: now().toISOString(), session: sessionId, provider: session.providerName, model: event.model ?? session.model, ...event.usage };
    fs.mkdir(cairnHome, { recursive: true })
      .then(() => fs.appendFile(usageLog, `${JSON.stringify(line)}\n`))
      .catch((error: unknown) => session.emit(notice('warning', `Could not append to ${usageLog}: ${error instanceof Error ? error.message : String(error)}`)));
  });

  let writer: SessionWriter | undefined;
  if (options.persist !== false) {
    const file = resumeFile ?? sessionFile(cairnHome, cwd, sessionId);
    writer = resumeFile ? SessionWriter.resume(file) : SessionWriter.create(file, { id: sessionId, cwd, created: now().toISOString() });
    const w = writer;
    session.subscribe((event) => w.append(event));
  }
  return {
    sessionId,
    contextWindow: resolved.contextWindow,
    ...(writer ? { sessionFile: writer.file } : {}),
    ...(resumed ? { resumed } : {}),
    startupNotices,
    close: () => writer?.close(),
    session,
    cwd,
    cairnHome,
    providerSource: resolved.source,
    settingsSources: settings.sources,
    systemPrompt: async () => system({ mode: session.mode, model: session.model }),
    systemPromptSections: async () => (await promptSource.build({ mode: session.mode, model: session.model })).sections,
  };
}

/** Splits and checks rules given on the command line, naming the flag in any error. */
function flagRuleList(flag: string, values: readonly string[]): string[] {
  const rules = values.flatMap(splitRuleList);
  for (const rule of rules) {
    try {
      parseRule(rule);
    } catch (error) {
      throw new Error(`${flag}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return rules;
}

/** CAIRN_COMPACT_THRESHOLD (tokens) overrides 80% of the model's context window. */
function compactThreshold(env: NodeJS.ProcessEnv, contextWindow: number): number {
  const raw = env['CAIRN_COMPACT_THRESHOLD'];
  if (raw !== undefined && raw !== '') {
    const n = Number(raw);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`CAIRN_COMPACT_THRESHOLD: expected a positive number of tokens, got "${raw}"`);
    return n;
  }
  return Math.floor(contextWindow * 0.8);
}
