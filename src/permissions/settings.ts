import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { PermissionModeSchema } from '../events.js';
import type { PermissionMode } from '../events.js';
import { prepareCairnDir } from '../util/cairn-dir.js';
import { readSettingsJson, SettingsFileError } from '../settings/settings-layers.js';
import { FileReadError } from '../util/read-text-file.js';
import { BUILTIN_DENY } from './builtin-deny.js';
import type { BuiltinDenyRule } from './builtin-deny.js';
import { parseRule, RuleError } from './rule-parse.js';
import type { PermissionRuleSet } from './types.js';
import type { RuleOrigin } from './unknown-tools.js';

export type { RuleOrigin } from './unknown-tools.js';

/** A settings file cairn cannot use; the message names the file and the field. Cairn refuses to start on it. */
export class SettingsError extends Error {
  override name = 'SettingsError';
}

// Unknown keys are allowed (and kept when cairn writes the file): settings are shared with other tools and versions.
const PermissionsSchema = z.looseObject({
  allow: z.array(z.string()).optional(),
  ask: z.array(z.string()).optional(),
  deny: z.array(z.string()).optional(),
  defaultMode: PermissionModeSchema.optional(),
  // Built-in deny rules (builtin-deny.ts) the user chose to lift; honoured from the user's own file only.
  liftBuiltinDeny: z.array(z.enum(BUILTIN_DENY.map((r) => r.id) as [BuiltinDenyRule['id'], ...BuiltinDenyRule['id'][]])).optional(),
});
const SettingsSchema = z.looseObject({ permissions: PermissionsSchema.optional() });
type Settings = z.infer<typeof SettingsSchema>;

const RULE_LISTS = ['allow', 'ask', 'deny'] as const;

export interface SettingsPaths {
  user: string;
  project: string;
  local: string;
}

export function settingsPaths(opts: { workspace: string; cairnHome: string }): SettingsPaths {
  return {
    user: join(opts.cairnHome, 'settings.json'),
    project: join(opts.workspace, '.cairn', 'settings.json'),
    local: join(opts.workspace, '.cairn', 'settings.local.json'),
  };
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `${out === '' ? '' : '.'}${String(key)}`;
  return out;
}

function validate(file: string, data: unknown): Settings {
  const parsed = SettingsSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue ? formatPath(issue.path) : '';
    const message = (issue?.message ?? 'invalid settings').replace(/^Invalid input: /, '');
    throw new SettingsError(`${file}: ${field ? `${field}: ` : ''}${message}`);
  }
  for (const list of RULE_LISTS) {
    parsed.data.permissions?.[list]?.forEach((rule, i) => {
      try {
        parseRule(rule);
      } catch (err) {
        if (err instanceof RuleError) throw new SettingsError(`${file}: permissions.${list}[${i}]: ${err.message}`);
        throw err;
      }
    });
  }
  return parsed.data;
}

/** The raw JSON of a settings file, or undefined when there is none; errors as SettingsError. */
async function readJson(file: string): Promise<unknown> {
  try {
    return await readSettingsJson(file);
  } catch (err) {
    if (err instanceof SettingsFileError) throw new SettingsError(err.message, { cause: err.cause ?? err });
    throw err;
  }
}

export async function readSettingsFile(file: string): Promise<Settings | undefined> {
  const data = await readJson(file);
  return data === undefined ? undefined : validate(file, data);
}

export interface LoadedSettings {
  rules: PermissionRuleSet;
  defaultMode?: PermissionMode;
  /** The settings files that exist, user first. */
  sources: string[];
  /** Every rule read, with its file and position (`<file>: permissions.deny[0]`). */
  origins: RuleOrigin[];
  /** Files passed over, each message naming the file and why (a FIFO or directory in its place). */
  warnings: string[];
  /** Built-in deny rules lifted by the user's settings file. */
  liftedBuiltinDeny: string[];
}

/**
 * Reads user, project and local settings. Rule lists merge (a deny anywhere wins, as the checker
 * checks deny first); defaultMode comes from the most specific file that sets it.
 */
export async function loadSettings(opts: { workspace: string; cairnHome: string }): Promise<LoadedSettings> {
  const paths = settingsPaths(opts);
  const result: LoadedSettings = { rules: { allow: [], ask: [], deny: [] }, sources: [], origins: [], warnings: [], liftedBuiltinDeny: [] };
  for (const file of [paths.user, paths.project, paths.local]) {
    let settings: Settings | undefined;
    try {
      settings = await readSettingsFile(file);
    } catch (err) {
      // Something that is not a file holds no settings: say so and start with the others.
      // A real file that cannot be used still stops start-up: its deny rules may matter.
      const cause = err instanceof SettingsError ? err.cause : undefined;
      if (!(cause instanceof FileReadError && cause.notAFile)) throw err;
      result.warnings.push(`${cause.message}; started without these settings`);
      continue;
    }
    if (!settings) continue;
    result.sources.push(file);
    for (const list of RULE_LISTS) {
      (settings.permissions?.[list] ?? []).forEach((rule, i) => {
        result.origins.push({ rule, where: `${file}: permissions.${list}[${i}]` });
        if (!result.rules[list].includes(rule)) result.rules[list].push(rule);
      });
    }
    if (settings.permissions?.defaultMode) result.defaultMode = settings.permissions.defaultMode;
    const lift = settings.permissions?.liftBuiltinDeny ?? [];
    // A repository's files (which a hostile model or a cloned project may have written) cannot lift them.
    if (file === paths.user) result.liftedBuiltinDeny.push(...lift);
    else if (lift.length > 0) result.warnings.push(`${file}: permissions.liftBuiltinDeny is ignored here; only ${paths.user} can lift a built-in deny rule`);
  }
  return result;
}

async function writeAtomically(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, text, 'utf8');
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

// Two "always allow" answers in quick succession must not lose one another's rules.
const writeQueues = new Map<string, Promise<void>>();

/** Adds allow rules to a settings file, keeping every other key; refuses to touch a file it cannot parse. */
export function addAllowRulesToFile(file: string, rules: string[]): Promise<void> {
  const previous = writeQueues.get(file) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(async () => {
    const data = (await readJson(file)) ?? {};
    const settings = validate(file, data);
    const permissions = { ...(settings.permissions ?? {}) };
    const allow = [...(permissions.allow ?? [])];
    for (const rule of rules) if (!allow.includes(rule)) allow.push(rule);
    permissions.allow = allow;
    // The workspace's .cairn/settings.local.json: its folder gets a .gitignore that covers it.
    await prepareCairnDir(dirname(file));
    await writeAtomically(file, `${JSON.stringify({ ...settings, permissions }, null, 2)}\n`);
  });
  writeQueues.set(file, next);
  return next;
}
