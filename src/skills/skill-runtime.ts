import { discoverCommands, type CommandCatalog } from '../custom-commands/command-discovery.js';
import type { CommandSandbox } from '../sandbox/sandbox.js';
import type { ExpansionHooks } from '../custom-commands/expansion-hooks.js';
import { prepareSlashPrompt, slashEntries, type PreparedPrompt, type SlashPromptEntry } from '../custom-commands/slash-prompts.js';
import type { AgentEvent } from '../events.js';
import type { AskPermission, PermissionChecker } from '../permissions/types.js';
import type { AnyTool } from '../tools/tool.js';
import { sourceScope, type Skill } from './skill.js';
import { skillGrants } from './skill-content.js';
import { discoverSkills, type SkillCatalog } from './skill-discovery.js';
import { skillListing, type SkillListing } from './skill-listing.js';
import { commandPlaces, skillPlaces, type Place } from './skill-places.js';
import { activePlugins } from '../plugins/active-plugins.js';
import type { LoadedPlugin } from '../plugins/plugin.js';
import { createLoadSkillTool } from './load-skill-tool.js';

/** Skills and custom commands for one session: found once at start. */
export interface SkillRuntime {
  skills: SkillCatalog;
  commands: CommandCatalog;
  /** Bad skill and command files (skipped) and the rules loaded ones bend, each naming the file, for the start-up notices. */
  problems: string[];
  loadSkillTool: AnyTool;
  /**
   * load_skill for subagents: its grants join the session's turn the subagent runs in (the parent
   * could load the same skill itself); outside a turn (a scheduled run) it grants nothing.
   */
  subagentLoadSkillTool: AnyTool;
  /** The system prompt's skills section for a model with this context window. */
  listing(contextWindow: number): SkillListing;
  /** Palette entries: every skill, then the commands no skill shadows. */
  entries(): SlashPromptEntry[];
  /**
   * `/name args` as the prompt to send, or undefined when it names no skill or command. The grants
   * apply from the moment that prompt's turn starts (not before: a running turn must not gain them).
   */
  prepare(text: string, ask?: AskPermission, signal?: AbortSignal): Promise<PreparedPrompt | undefined>;
  /** The model a prepared prompt's command names, taken once when that prompt's turn starts. */
  modelFor(prompt: string): string | undefined;
  /** Finds the skills and commands again (a plugin was switched on or off); `skills`, `commands` and `entries()` then show the new ones. */
  reload(): Promise<void>;
  /** Scopes grants to turns: a prompt's grants start with its turn, and every grant ends with the turn. */
  follow(session: { subscribe(listener: (event: AgentEvent) => void): () => void }): () => void;
}

export interface SkillRuntimeOptions {
  cwd: string;
  cairnHome: string;
  env: NodeJS.ProcessEnv;
  /** The session's sandbox, for `!`cmd`` in skills and commands. */
  sandbox?: CommandSandbox;
  permissions: PermissionChecker;
  /** Whether the workspace is trusted (default true): an untrusted project's skills and commands load, but their allowed-tools grant nothing. */
  trusted?: boolean;
  /** --bare: only the shipped skills and --plugin-dir plugins' are loaded, no user or project folder. */
  bare?: boolean;
  /** The shipped skills folder; found from the installed package when the key is absent. */
  shippedDir?: string | undefined;
  /** The session's hooks: UserPromptExpansion runs on each `/name` expansion. */
  hooks?: ExpansionHooks;
}

/** Every place skills and commands come from: a plugin's after the user's and the project's, so `/<plugin>:<name>` never takes their names. */
async function discoverAll(opts: SkillRuntimeOptions): Promise<[SkillCatalog, CommandCatalog]> {
  const plugins = (await activePlugins({ ...opts, trusted: opts.trusted ?? true })).plugins;
  const pluginPlaces = (paths: (p: LoadedPlugin) => string[]): Place[] => plugins.flatMap((p) => paths(p).map((dir) => ({ source: 'plugin' as const, dir, namespace: p.name })));
  return Promise.all([
    discoverSkills([...skillPlaces(opts).filter((p) => opts.bare !== true || p.source === 'cairn'), ...pluginPlaces((p) => p.skillPaths)]),
    discoverCommands([...(opts.bare === true ? [] : commandPlaces(opts)), ...pluginPlaces((p) => p.commandPaths)]),
  ]);
}

export async function loadSkillRuntime(opts: SkillRuntimeOptions): Promise<SkillRuntime> {
  let [skills, commands] = await discoverAll(opts);
  const problems = [
    ...skills.problems.map((p) => `Skill ${p.file}: ${p.message}; it is skipped`),
    ...commands.problems.map((p) => `Command ${p.file}: ${p.message}; it is skipped`),
    ...skills.skills.flatMap((s) => (s.warnings ?? []).map((w) => `Skill ${s.file}: ${w}`)),
    ...commands.commands.flatMap((c) => (c.warnings ?? []).map((w) => `Command ${c.file}: ${w}`)),
  ];
  for (const command of commands.commands) {
    const skill = skills.skills.find((s) => s.name === command.name);
    if (skill) problems.push(`Command /${command.name} (${command.file}) has the name of the skill ${skill.file}; the skill wins`);
  }
  const pending = new Map<string, string[]>();
  const models = new Map<string, string>();
  const grant = (rules: string[]): void => {
    if (rules.length > 0) opts.permissions.grantForTurn?.(rules);
  };
  const trusted = opts.trusted ?? true;
  let inTurn = false;
  const activate = (skill: Skill): boolean => {
    const granted = trusted || sourceScope(skill.source) !== 'project';
    grant(skillGrants(skill, granted));
    return granted;
  };
  const deps = { cwd: opts.cwd, cairnHome: opts.cairnHome, skills, commands, permissions: opts.permissions, trusted, env: opts.env, ...(opts.sandbox ? { sandbox: opts.sandbox } : {}), ...(opts.hooks ? { hooks: opts.hooks } : {}) };
  return {
    get skills() {
      return skills;
    },
    get commands() {
      return commands;
    },
    problems,
    async reload() {
      [skills, commands] = await discoverAll(opts);
      deps.skills = skills;
      deps.commands = commands;
    },
    loadSkillTool: createLoadSkillTool({ skills: () => skills.skills, activate }),
    subagentLoadSkillTool: createLoadSkillTool({
      skills: () => skills.skills,
      activate: (skill) => (inTurn ? activate(skill) : 'a subagent outside a turn of the session (a scheduled run) gets no grants'),
    }),
    listing: (contextWindow) => skillListing(skills.skills, contextWindow),
    entries: () => slashEntries(deps),
    async prepare(text, ask, signal) {
      const prepared = await prepareSlashPrompt(deps, text, ask, signal);
      if (prepared?.blocked !== undefined) return prepared;
      if (prepared && prepared.grants.length > 0) pending.set(prepared.prompt, prepared.grants);
      if (prepared?.model !== undefined) models.set(prepared.prompt, prepared.model);
      return prepared;
    },
    modelFor(prompt) {
      const model = models.get(prompt);
      models.delete(prompt);
      return model;
    },
    follow(session) {
      return session.subscribe((event) => {
        if (event.type === 'user_prompt') {
          inTurn = true;
          opts.permissions.endTurn?.();
          const rules = pending.get(event.text);
          pending.delete(event.text);
          if (rules) grant(rules);
        } else if (event.type === 'terminal') {
          inTurn = false;
          opts.permissions.endTurn?.();
        }
      });
    },
  };
}
