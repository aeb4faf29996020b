import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgentEvent } from '../events.js';
import type { AskPermission, PermissionAsk } from '../permissions/types.js';
import type { Availability } from './availability.js';
import { claudeHomeFrom, readSettingsLayers, type SettingsLayer } from '../settings/settings-layers.js';
import { buildPolicy } from './policy.js';
import { createSandbox, type CommandSandbox } from './sandbox.js';
import { sandboxSettingsFrom } from './sandbox-settings.js';

export interface SandboxStartup {
  sandbox: CommandSandbox;
  /** Told once at start: the sandbox is on but cannot run here, or settings that were not taken. */
  notices: string[];
}

// Keys that widen the boundary. A repository's own files could hand a hostile model a wider sandbox
// (write to ~, reach any domain, skip the sandbox for a command), so only the user's files set them.
const WIDENING: { key: string; get(s: Record<string, unknown>): unknown; widens?(value: unknown): boolean }[] = [
  { key: 'sandbox.enabled', get: (s) => s['enabled'], widens: (v) => v === false },
  { key: 'sandbox.allowUnsandboxedCommands', get: (s) => s['allowUnsandboxedCommands'], widens: (v) => v === true },
  { key: 'sandbox.failIfUnavailable', get: (s) => s['failIfUnavailable'], widens: (v) => v === false },
  { key: 'sandbox.filesystem.allowWrite', get: (s) => (s['filesystem'] as Record<string, unknown> | undefined)?.['allowWrite'] },
  { key: 'sandbox.network.allowedDomains', get: (s) => (s['network'] as Record<string, unknown> | undefined)?.['allowedDomains'] },
  { key: 'sandbox.network.allowAll', get: (s) => (s['network'] as Record<string, unknown> | undefined)?.['allowAll'] },
  { key: 'sandbox.network.allowAllUnixSockets', get: (s) => (s['network'] as Record<string, unknown> | undefined)?.['allowAllUnixSockets'], widens: (v) => v === true },
  { key: 'sandbox.excludedCommands', get: (s) => s['excludedCommands'] },
  { key: 'sandbox.autoAllowBashIfSandboxed', get: (s) => s['autoAllowBashIfSandboxed'] },
];

/** The layers with widening sandbox keys dropped from project and local files, each drop reported. */
export function withoutProjectWidening(layers: readonly SettingsLayer[], notices: string[]): SettingsLayer[] {
  return layers.map((layer) => {
    const sandbox = layer.data['sandbox'];
    if (layer.scope === 'user' || typeof sandbox !== 'object' || sandbox === null || Array.isArray(sandbox)) return layer;
    const copy = structuredClone(sandbox) as Record<string, unknown>;
    for (const w of WIDENING) {
      const value = w.get(copy);
      if (value === undefined || (w.widens && !w.widens(value))) continue;
      notices.push(`${layer.file}: ${w.key} is ignored: a project's settings cannot widen the sandbox; set it in your user settings (~/.cairn/settings.json or ~/.claude/settings.json)`);
      const [, parent, leaf] = w.key.split('.');
      if (leaf === undefined) delete copy[parent ?? ''];
      else delete (copy[parent ?? ''] as Record<string, unknown>)[leaf];
    }
    return { ...layer, data: { ...layer.data, sandbox: copy } };
  });
}

/** What the sandbox needs of the live session to decide a new domain. */
export interface DomainAskSession {
  askChannel: AskPermission | undefined;
  emit(event: AgentEvent): void;
  /** Auto mode's classifier on the request ('ask': no verdict, or not auto mode). */
  classifyRequest?(request: PermissionAsk, signal: AbortSignal): Promise<'allow' | 'deny' | 'ask'>;
}

/**
 * How a new domain is decided: in auto mode by the classifier first (as web_fetch's new site is),
 * then, with no verdict, on the session's ask channel, emitting the permission_request the UI draws its
 * approval card from. Nobody to ask and no verdict: undefined (refused).
 */
export function announced(session: DomainAskSession | undefined): AskPermission | undefined {
  if (!session) return undefined;
  const channel = session.askChannel;
  if (!channel && !session.classifyRequest) return undefined;
  return async (request, signal) => {
    const judged = (await session.classifyRequest?.(request, signal)) ?? 'ask';
    if (judged === 'allow') return { behavior: 'allow' };
    if (judged === 'deny') return { behavior: 'deny', message: "auto mode's classifier blocked it" };
    if (!channel) return { behavior: 'deny', message: 'nobody to ask' };
    session.emit({ type: 'permission_request', ...request });
    return channel(request, signal);
  };
}

/**
 * `permissions.additionalDirectories` from the user's files (the permission loader checks their form):
 * each is writable in the sandbox, so a repository's own files (`["~"]`) must not add one.
 */
function additionalDirectories(layers: readonly SettingsLayer[], notices: string[]): string[] {
  return layers.flatMap((l) => {
    const dirs = (l.data['permissions'] as Record<string, unknown> | undefined)?.['additionalDirectories'];
    if (!Array.isArray(dirs)) return [];
    if (l.scope !== 'user') {
      if (dirs.length > 0) notices.push(`${l.file}: permissions.additionalDirectories is ignored by the sandbox: a project's settings cannot make a folder writable there; set it in your user settings`);
      return [];
    }
    return dirs.filter((d): d is string => typeof d === 'string');
  });
}

/**
 * Reads the `sandbox` key of every settings file, applies `--sandbox`/`--no-sandbox`, and probes
 * bubblewrap when the sandbox is on. Throws naming the file and key for an invalid value.
 */
export async function setUpSandbox(opts: {
  cwd: string;
  cairnHome: string;
  env: NodeJS.ProcessEnv;
  /** --sandbox (true) or --no-sandbox (false). */
  flag?: boolean;
  /** Say once per cairn home that the sandbox is on by default (the interactive app; a script's output stays as it was). */
  introduce?: boolean;
  ask?: () => AskPermission | undefined;
  /** The live session: a new domain is asked on its channel, with the request shown as the loop shows a tool's. */
  session?: () => DomainAskSession | undefined;
  /** Tests: stands in for probing bubblewrap. */
  probe?: () => Promise<Availability>;
}): Promise<SandboxStartup> {
  const notices: string[] = [];
  const home = os.homedir();
  const { layers } = await readSettingsLayers({ workspace: opts.cwd, cairnHome: opts.cairnHome, claudeHome: claudeHomeFrom(opts.env, home) });
  const settings = sandboxSettingsFrom(withoutProjectWidening(layers, notices));
  if (opts.flag !== undefined) {
    settings.enabled = opts.flag;
    settings.containUnasked = opts.flag;
    settings.enabledByDefault = false;
  }
  const extraWritable = additionalDirectories(layers, settings.enabled ? notices : []);
  const sandbox = createSandbox({
    settings,
    policy: (tempDir) =>
      buildPolicy({
        workspace: opts.cwd,
        additionalDirectories: extraWritable,
        tempDir,
        home,
        filesystem: settings.filesystem,
        network: settings.network,
      }),
    ...(opts.ask ? { ask: opts.ask } : opts.session ? { ask: () => announced(opts.session?.()) } : {}),
    ...(opts.probe ? { probe: opts.probe } : {}),
  });
  if (settings.enabled || settings.containUnasked) {
    const availability = await sandbox.ready();
    if (!availability.available) {
      notices.push(
        settings.enabledByDefault === true
          ? `The sandbox is unavailable (${availability.reason}), so bash commands that may write or connect are asked about; set sandbox.enabled: false in your settings to stop this notice.`
          : !settings.enabled
          ? `The sandbox is unavailable (${availability.reason}); commands that run without asking are judged by cairn's bash analysis alone, with no operating-system boundary behind it.`
          : settings.failIfUnavailable
            ? `The sandbox is unavailable (${availability.reason}); sandbox.failIfUnavailable is set, so bash commands will not run.`
            : `The sandbox is unavailable (${availability.reason}); bash commands run without it, under the permission rules alone.`,
      );
    }
  }
  if (opts.introduce === true && settings.enabled && settings.enabledByDefault === true && sandbox.status().availability?.available === true) introduceOnce(opts.cairnHome, notices);
  return { sandbox, notices };
}

/**
 * The first start with the sandbox on by default says so in one line, once per cairn home: why
 * commands stop asking, and where to read more or turn it off.
 */
function introduceOnce(cairnHome: string, notices: string[]): void {
  const marker = path.join(cairnHome, 'state', 'sandbox-introduced');
  if (existsSync(marker)) return;
  notices.push(
    'The sandbox is on: commands run in bubblewrap, writing only in the workspace and reaching only hosts you approve, so a command that stays inside runs without asking. /sandbox explains; sandbox.enabled: false in your settings turns it off.',
  );
  try {
    mkdirSync(path.dirname(marker), { recursive: true });
    writeFileSync(marker, `${new Date().toISOString()}\n`);
  } catch (error) {
    notices.push(`Could not record that the sandbox was introduced (${marker}): ${(error as Error).message}`);
  }
}
