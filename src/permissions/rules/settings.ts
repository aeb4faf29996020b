import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import * as z from 'zod';
import { PERMISSION_MODES } from '../../permission-modes.js';
import type { PermissionMode } from '../../permission-modes.js';
import { writeFileAtomically } from '../../util/write-atomically.js';
import { prepareCairnDir } from '../../util/cairn-dir.js';
import { readSettingsJson, readSettingsJsonAndText, readSettingsLayers, SettingsFileError, type SettingsLayer } from '../../settings/settings-layers.js';
import { layersInForce, type WithheldSetting } from '../../settings/trusted-layers.js';
import { anchorRule } from './anchor.js';
import { BUILTIN_DENY } from './builtin-deny.js';
import type { BuiltinDenyRule } from './builtin-deny.js';
import { allowWildcardOk, parseRule, RuleError } from './parse.js';
import type { PermissionRuleSet } from '../types.js';
import type { RuleOrigin } from './unknown-tools.js';
import { ruleLines } from './rule-lines.js';

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
  // Claude Code's names, plus `manual` (its newer name for default); `auto` is honoured from user settings only.
  defaultMode: z.enum([...PERMISSION_MODES, 'manual']).optional(),
  additionalDirectories: z.array(z.string()).optional(),
  disableBypassPermissionsMode: z.literal('disable').optional(),
  // Built-in deny rules (builtin-deny.ts) the user chose to lift; honoured from the user's own file only.
  liftBuiltinDeny: z.array(z.enum(BUILTIN_DENY.map((r) => r.id) as [BuiltinDenyRule['id'], ...BuiltinDenyRule['id'][]])).optional(),
});
// Auto mode's classifier (cairn's key; Claude Code's autoMode lists are not read): honoured from user settings only.
const AutoModeSchema = z.looseObject({ model: z.string().min(1).optional() });
const SettingsSchema = z.looseObject({ permissions: PermissionsSchema.optional(), autoMode: AutoModeSchema.optional() });
type Settings = z.infer<typeof SettingsSchema>;

const RULE_LISTS = ['allow', 'ask', 'deny'] as const;

export interface SettingsPaths {
  user: string;
  project: string;
  local: string;
}

/** cairn's own three files (where "always allow" answers are saved). */
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
  /** Folders the agent may work in besides the workspace (absolute). */
  additionalDirectories: string[];
  /** The settings files that exist, lowest precedence first. */
  sources: string[];
  /** Every rule read, with its file and position (`<file>: permissions.deny[0]`). */
  origins: RuleOrigin[];
  /** Files passed over and keys not used, each message naming the file and why. */
  warnings: string[];
  /** Built-in deny rules lifted by the user's settings file. */
  liftedBuiltinDeny: string[];
  /** A settings file forbids bypassPermissions (`permissions.disableBypassPermissionsMode`). */
  bypassDisabled: boolean;
  /** `autoMode.model` from the user's settings: the model auto mode's classifier uses. */
  classifierModel?: string;
}

export interface SettingsPlaces {
  workspace: string;
  cairnHome: string;
  /** Claude Code's user folder (`claudeHomeFrom(env)`). */
  claudeHome: string;
}

/** Where a `/x` path rule of this file is anchored: the folder the file belongs to (Claude Code's rule). */
function anchorOf(layer: SettingsLayer, at: SettingsPlaces & { anchors?: Partial<SettingsPlaces> }): string {
  if (layer.scope !== 'user' || layer.commandLine) return at.anchors?.workspace ?? at.workspace;
  return layer.family === 'claude' ? (at.anchors?.claudeHome ?? at.claudeHome) : (at.anchors?.cairnHome ?? at.cairnHome);
}

/** A folder through its symlinks (a ~/.claude kept in a dotfiles repository), as the checker sees paths. */
async function realOrSame(dir: string): Promise<string> {
  try {
    return await realpath(dir);
  } catch {
    return dir; // absent: nothing there to read or write anyway
  }
}


const HOME_RELATIVE = /^~(?=$|\/)/;

/** The line of `permissions.<list>[i]` in the layer's text, when the layer was read with its text. */
const linesOfLayer = new WeakMap<SettingsLayer, ReturnType<typeof ruleLines>>();
function lineOf(layer: SettingsLayer, list: 'allow' | 'ask' | 'deny', i: number): { line?: number } {
  if (layer.text === undefined) return {};
  let lines = linesOfLayer.get(layer);
  if (!lines) linesOfLayer.set(layer, (lines = ruleLines(layer.text)));
  const line = lines.get(`${list}[${i}]`);
  return line === undefined ? {} : { line };
}

/**
 * The permission part of the settings layers in force (already filtered by workspace trust), lowest
 * precedence first. Rule lists concatenate (a deny anywhere wins: the checker checks deny first);
 * defaultMode comes from the most specific file that sets it. Throws SettingsError naming the file
 * and field for a malformed value; a rule for a tool cairn lacks is kept (reported elsewhere).
 */
export function permissionSettingsFrom(layers: readonly SettingsLayer[], at: SettingsPlaces & { anchors?: Partial<SettingsPlaces> }, home = homedir()): LoadedSettings {
  const result: LoadedSettings = { rules: { allow: [], ask: [], deny: [] }, additionalDirectories: [], sources: [], origins: [], warnings: [], liftedBuiltinDeny: [], bypassDisabled: false };
  const userFile = settingsPaths(at).user;
  for (const layer of layers) {
    const settings = validate(layer.file, layer.data);
    result.sources.push(layer.file);
    const permissions = settings.permissions;
    for (const list of RULE_LISTS) {
      (permissions?.[list] ?? []).forEach((rule, i) => {
        const where = `${layer.file}: permissions.${list}[${i}]`;
        const anchored = anchorRule(rule, list, anchorOf(layer, at));
        result.origins.push({ rule, where, list, anchored, file: layer.file, ...lineOf(layer, list, i) });
        if (list === 'allow' && !allowWildcardOk(parseRule(rule).tool)) {
          result.warnings.push(`${where}: ${JSON.stringify(rule)}: a "*" in an allow rule's tool name works only after mcp__<server>__ (as in Claude Code); not used`);
          return;
        }
        for (const r of anchored) if (!result.rules[list].includes(r)) result.rules[list].push(r);
      });
    }
    const mode = permissions?.defaultMode;
    // A repository's files cannot start cairn in auto mode, nor choose the model that judges its actions (as Claude Code).
    const usersOwn = layer.scope === 'user';
    if (mode === 'manual') result.defaultMode = 'default';
    else if (mode === 'auto' && !usersOwn) result.warnings.push(`${layer.file}: permissions.defaultMode: "auto" is honoured from user settings only; not used`);
    else if (mode !== undefined) result.defaultMode = mode;
    const classifierModel = settings.autoMode?.model;
    if (classifierModel !== undefined && usersOwn) result.classifierModel = classifierModel;
    else if (classifierModel !== undefined) result.warnings.push(`${layer.file}: autoMode.model is honoured from user settings only; not used`);
    for (const dir of permissions?.additionalDirectories ?? []) {
      const expanded = dir.replace(HOME_RELATIVE, home);
      const abs = isAbsolute(expanded) ? expanded : resolve(anchorOf(layer, at), expanded);
      if (!result.additionalDirectories.includes(abs)) result.additionalDirectories.push(abs);
    }
    if (permissions?.disableBypassPermissionsMode === 'disable') result.bypassDisabled = true;
    const lift = permissions?.liftBuiltinDeny ?? [];
    // A repository's files (which a hostile model or a cloned project may have written) cannot lift them.
    if (layer.file === userFile) result.liftedBuiltinDeny.push(...lift);
    else if (lift.length > 0) result.warnings.push(`${layer.file}: permissions.liftBuiltinDeny is ignored here; only ${userFile} can lift a built-in deny rule`);
  }
  return result;
}

/**
 * Reads every settings file (Claude Code's and cairn's, settings-layers.ts) and returns the
 * permission settings in force. `trusted`: whether the folder's own files may widen what is
 * allowed (workspace-trust.ts); when not, their allow rules, extra folders and looser modes wait.
 */
export async function loadSettings(opts: SettingsPlaces & { trusted: boolean }): Promise<LoadedSettings & { withheld: WithheldSetting[] }> {
  let read;
  try {
    read = await readSettingsLayers(opts);
  } catch (err) {
    if (err instanceof SettingsFileError) throw new SettingsError(err.message, { cause: err.cause ?? err });
    throw err;
  }
  const { layers, withheld } = layersInForce(read.layers, opts.trusted);
  const anchors = { workspace: await realOrSame(opts.workspace), cairnHome: await realOrSame(opts.cairnHome), claudeHome: await realOrSame(opts.claudeHome) };
  const loaded = permissionSettingsFrom(layers, { ...opts, anchors });
  return { ...loaded, warnings: [...read.warnings, ...loaded.warnings], withheld };
}

/** Where allow rules just saved to a file stand in it (file and line), for the decision log. */
export async function savedRuleOrigins(file: string, rules: readonly string[]): Promise<RuleOrigin[]> {
  const read = await readSettingsJsonAndText(file).catch(() => undefined);
  if (!read) return [];
  const allow = SettingsSchema.safeParse(read.data).data?.permissions?.allow ?? [];
  const lines = ruleLines(read.text);
  return rules.flatMap((rule) => {
    const i = allow.indexOf(rule);
    if (i < 0) return [];
    const line = lines.get(`allow[${i}]`);
    return [{ rule, where: `${file}: permissions.allow[${i}]`, list: 'allow' as const, anchored: [rule], file, ...(line !== undefined ? { line } : {}) }];
  });
}

// Two "always allow" answers (or /permissions edits) in quick succession must not lose one another's rules.
const writeQueues = new Map<string, Promise<unknown>>();

/** Runs `write` after every earlier write of `file` has ended. */
export function queuedWrite<T>(file: string, write: () => Promise<T>): Promise<T> {
  const previous = writeQueues.get(file) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(write);
  writeQueues.set(file, next);
  return next;
}

/** Adds allow rules to a settings file, keeping every other key; refuses to touch a file it cannot parse. */
export function addAllowRulesToFile(file: string, rules: string[]): Promise<void> {
  return queuedWrite(file, async () => {
    const data = (await readJson(file)) ?? {};
    const settings = validate(file, data);
    const permissions = { ...(settings.permissions ?? {}) };
    const allow = [...(permissions.allow ?? [])];
    for (const rule of rules) if (!allow.includes(rule)) allow.push(rule);
    permissions.allow = allow;
    // The workspace's .cairn/settings.local.json: its folder gets a .gitignore that covers it.
    await prepareCairnDir(dirname(file));
    await writeFileAtomically(file, `${JSON.stringify({ ...settings, permissions }, null, 2)}\n`);
  });
}
