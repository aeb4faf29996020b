import { randomUUID } from 'node:crypto';
import { createPermissionChecker } from '../permissions/checker.js';
import { BUILTIN_DENY } from '../permissions/rules/builtin-deny.js';
import { askId } from '../permissions/approval-answers.js';
import type { AskPermission, PermissionChecker } from '../permissions/types.js';
import type { Skill } from '../skills/skill.js';
import { findSkill, sourceScope } from '../skills/skill.js';
import { skillContent, skillGrants } from '../skills/skill-content.js';
import type { SkillCatalog } from '../skills/skill-discovery.js';
import { createBashTool } from '../tools/bash.js';
import { createReadFileTool } from '../tools/read-file.js';
import type { CustomCommand } from './custom-command.js';
import type { CommandCatalog } from './command-discovery.js';
import { fillTemplate } from './command-template.js';
import { expandInlines } from './prompt-inlines.js';
import type { CommandSandbox } from '../sandbox/sandbox.js';
import type { CallApproval } from '../tools/tool.js';
import { GIT_DIFF_TOKEN, reviewDiffText } from '../review/review-diff.js';
import { runExpansionHooks, type ExpansionHooks } from './expansion-hooks.js';

/** A palette entry for a skill or a custom command. */
export interface SlashPromptEntry {
  name: string;
  description: string;
  argumentHint?: string;
  kind: 'skill' | 'command';
  scope: 'built-in' | 'user' | 'project';
  /** A skill's other names (`/create-skill` for skill-creator). */
  aliases?: readonly string[];
}

/** A `/name args` line made into the prompt the model gets, and what the turn may do without asking. */
export interface PreparedPrompt {
  name: string;
  prompt: string;
  grants: string[];
  /** A command's `model:`, for this prompt's turn only. */
  model?: string;
  /** A UserPromptExpansion hook blocked it: why (for the user); nothing is sent. */
  blocked?: string;
}

export interface SlashPromptDeps {
  cwd: string;
  cairnHome: string;
  skills: SkillCatalog;
  commands: CommandCatalog;
  permissions: PermissionChecker;
  /** Whether the workspace is trusted: an untrusted project's skills and commands grant nothing. */
  trusted: boolean;
  /** The environment `!`cmd`` runs with (the session's); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** The session's sandbox: a `!`cmd`` the chain lets through unasked runs inside it, as the model's commands do. */
  sandbox?: CommandSandbox;
  /** The session's hooks (UserPromptExpansion runs on each expansion); none: no hook runs. */
  hooks?: ExpansionHooks;
}

type Target = { kind: 'skill'; skill: Skill } | { kind: 'command'; command: CustomCommand };

/** Skills beat same-named commands, as in Claude Code. */
export function slashEntries(deps: Pick<SlashPromptDeps, 'skills' | 'commands'>): SlashPromptEntry[] {
  const skills = new Set(deps.skills.skills.map((s) => s.name));
  return [
    ...deps.skills.skills.map((s): SlashPromptEntry => ({
      name: s.name,
      description: s.description,
      ...(s.argumentHint ? { argumentHint: s.argumentHint } : {}),
      kind: 'skill',
      scope: sourceScope(s.source),
      ...(s.aliases ? { aliases: s.aliases } : {}),
    })),
    ...deps.commands.commands.filter((c) => !skills.has(c.name)).map((c): SlashPromptEntry => ({
      name: c.name,
      description: c.description,
      ...(c.argumentHint ? { argumentHint: c.argumentHint } : {}),
      kind: 'command',
      scope: sourceScope(c.source),
    })),
  ];
}

/** `name`, or `project:name` / `user:name` / `built-in:name` for one whose plain name a built-in command took. */
function find(deps: SlashPromptDeps, typed: string): Target | undefined {
  const name = typed.toLowerCase();
  const scoped = /^(user|project|built-in):(.+)$/.exec(name);
  const match = (n: string, scope?: string): Target | undefined => {
    const skills = deps.skills.skills.filter((s) => !scope || sourceScope(s.source) === scope);
    const skill = skills.find((s) => s.name === n);
    if (skill) return { kind: 'skill', skill };
    const command = deps.commands.commands.find((c) => c.name === n && (!scope || sourceScope(c.source) === scope));
    if (command) return { kind: 'command', command };
    // A skill's alias last: a skill or command that has the name for real comes first.
    const aliased = findSkill(skills, n);
    return aliased ? { kind: 'skill', skill: aliased } : undefined;
  };
  return match(name) ?? (scoped ? match(scoped[2] ?? '', scoped[1]) : undefined) ?? pluginByBareName(deps, name);
}

/** A plugin's `/<plugin>:<name>` typed as `/<name>`: found when exactly one plugin has that name (and nothing else does). */
function pluginByBareName(deps: SlashPromptDeps, name: string): Target | undefined {
  if (name.includes(':')) return undefined;
  const suffix = `:${name}`;
  const skills = deps.skills.skills.filter((s) => s.source === 'plugin' && s.name.endsWith(suffix));
  const commands = deps.commands.commands.filter((c) => c.source === 'plugin' && c.name.endsWith(suffix) && !skills.some((s) => s.name === c.name));
  if (skills.length + commands.length !== 1) return undefined;
  return skills[0] ? { kind: 'skill', skill: skills[0] } : commands[0] ? { kind: 'command', command: commands[0] } : undefined;
}

/**
 * Makes `/name args` into the prompt for a skill or custom command: the body with its arguments
 * filled in, `!`cmd`` run through the permission chain and `@file` included. Undefined when the
 * line names neither (it goes to the model as typed).
 */
export async function prepareSlashPrompt(deps: SlashPromptDeps, text: string, ask?: AskPermission, signal?: AbortSignal): Promise<PreparedPrompt | undefined> {
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return undefined;
  const target = find(deps, m[1] ?? '');
  if (!target) return undefined;
  const args = (m[2] ?? '').trim();
  const source = target.kind === 'skill' ? target.skill.source : target.command.source;
  const granted = deps.trusted || sourceScope(source) !== 'project';
  const grants = target.kind === 'skill' ? skillGrants(target.skill, granted) : granted ? target.command.allowedTools : [];
  const { body: template, argumentNames: names } = target.kind === 'skill' ? target.skill : target.command;
  const body = fillTemplate(template, args, names);
  const filled = await expandInlines(body, inlineDeps(deps, grants, ask, signal ?? new AbortController().signal));
  const name = target.kind === 'skill' ? target.skill.name : target.command.name;
  const made =
    target.kind === 'skill'
      ? `/${name}${args ? ` ${args}` : ''}\n\nRun the "${name}" skill (${target.skill.file}):\n\n${await skillContent(target.skill, filled)}`
      : `/${name}${args ? ` ${args}` : ''}\n\n${filled}`;
  // Last, so nothing in the diff is taken for an argument, a `!`cmd`` or an @file.
  const expanded = made.includes(GIT_DIFF_TOKEN) ? made.split(GIT_DIFF_TOKEN).join(await reviewDiffText(deps.cwd, args, signal)) : made;
  const verdict = await runExpansionHooks(deps.hooks, { name, args, source, prompt: expanded }, signal);
  if ('blocked' in verdict) return { name, prompt: '', grants: [], blocked: verdict.blocked };
  const model = target.kind === 'command' ? target.command.model : undefined;
  return { name, prompt: verdict.prompt, grants, ...(model !== undefined ? { model } : {}) };
}

/** The chain `!`cmd`` and `@file` go through: the session's rules in force, the command's allowed-tools added. */
function inlineDeps(deps: SlashPromptDeps, grants: string[], ask: AskPermission | undefined, signal: AbortSignal) {
  const rules = deps.permissions.rules();
  const inForce = new Set(rules.builtin ?? []);
  const checker = createPermissionChecker({
    workspace: deps.cwd,
    mode: deps.permissions.mode,
    rules: { allow: [...rules.allow, ...grants], ask: rules.ask, deny: rules.deny },
    cairnHome: deps.cairnHome,
    liftedBuiltinDeny: BUILTIN_DENY.filter((b) => !inForce.has(b.text)).map((b) => b.id),
  });
  const bash = createBashTool({ ...(deps.env ? { env: deps.env } : {}), ...(deps.sandbox ? { sandbox: deps.sandbox } : {}) });
  const read = createReadFileTool();
  return {
    cwd: deps.cwd,
    checkRead: (file: string) => checker.check(read, { path: file }),
    checkCommand: (command: string) => checker.check(bash, { command }),
    ...(ask
      ? {
          ask: async (what: { command: string } | { file: string }, reason: string) => {
            const request = 'command' in what
              ? { id: `inline_${randomUUID()}`, request_id: askId(), name: 'bash', input: { command: what.command }, reason, suggestions: [] }
              : { id: `inline_${randomUUID()}`, request_id: askId(), name: 'read_file', input: { path: what.file }, reason, suggestions: [] };
            return (await ask(request, signal)).behavior === 'allow';
          },
        }
      : {}),
    run: async (command: string, approval: CallApproval) => {
      const result = await bash.call({ command }, { cwd: deps.cwd, signal, approval });
      return result.content;
    },
  };
}
