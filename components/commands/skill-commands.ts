import type { SlashPromptEntry } from '../../src/custom-commands/slash-prompts.js';
import { placeLabel } from '../../src/skills/skill-places.js';
import type { SkillRuntime } from '../../src/skills/skill-runtime.js';
import type { AppContext, SlashCommand } from '../actions/app-context.js';

/** Sends a prepared prompt as the user's next turn (queued behind a running one, as typed prompts are). */
function send(ctx: AppContext, prompt: string): void {
  if (ctx.store.getSnapshot().busy) ctx.store.dispatch({ type: 'queue', text: prompt });
  ctx.session.submit(prompt);
}

function entryCommand(skills: SkillRuntime, entry: SlashPromptEntry, name: string, aliases: readonly string[] = []): SlashCommand {
  return {
    name,
    ...(aliases.length > 0 ? { aliases } : {}),
    description: `(${entry.scope} ${entry.kind}) ${entry.description.replace(/\s+/g, ' ')}`,
    ...(entry.argumentHint ? { argHint: entry.argumentHint } : {}),
    async run(args, ctx) {
      const prepared = await skills.prepare(`/${name}${args ? ` ${args}` : ''}`, ctx.session.askChannel);
      if (!prepared) return ctx.print(`/${name} is no longer available.`, 'warning');
      if (prepared.blocked !== undefined) return ctx.print(prepared.blocked, 'warning');
      send(ctx, prepared.prompt);
    },
  };
}

/**
 * A command per skill and custom command, after the built-ins. One whose name a built-in took is
 * reachable as `<scope>:<name>` (`/project:help`), and the clash is told at start.
 */
export function skillCommands(skills: SkillRuntime | undefined, taken: (name: string) => boolean): { commands: SlashCommand[]; notices: string[] } {
  if (!skills) return { commands: [], notices: [] };
  const commands: SlashCommand[] = [listSkills(skills)];
  const notices: string[] = [];
  const names = new Set(skills.entries().map((e) => e.name));
  for (const entry of skills.entries()) {
    if (!taken(entry.name) && entry.name !== 'skills') {
      // An alias no command has taken: `/create-skill` still runs skill-creator.
      const aliases = (entry.aliases ?? []).filter((a) => !taken(a) && !names.has(a));
      commands.push(entryCommand(skills, entry, entry.name, aliases));
      continue;
    }
    const scoped = `${entry.scope}:${entry.name}`;
    notices.push(`The ${entry.kind} /${entry.name} has the name of a built-in command; run it as /${scoped}`);
    if (!taken(scoped)) commands.push(entryCommand(skills, entry, scoped));
  }
  return { commands, notices };
}

/** After a reload (a plugin switched on): the commands for entries the palette does not have yet. */
export function newSkillCommands(skills: SkillRuntime, registered: (name: string) => boolean): SlashCommand[] {
  return skills.entries().filter((e) => !registered(e.name)).map((e) => entryCommand(skills, e, e.name));
}

function listSkills(skills: SkillRuntime): SlashCommand {
  return {
    name: 'skills',
    description: 'Skills and custom commands: where each comes from, and problems found loading them',
    run(_args, ctx) {
      ctx.print(skillsReport(skills));
    },
  };
}

export function skillsReport(skills: SkillRuntime): string {
  const lines: string[] = [];
  const clip = (s: string): string => (s.length > 100 ? `${s.slice(0, 97)}...` : s).replace(/\s+/g, ' ');
  const { skills: list, replaced } = skills.skills;
  lines.push(list.length > 0 ? `Skills (${list.length}):` : 'No skills.');
  for (const s of list) {
    const over = replaced.get(s.name)?.map((r) => placeLabel({ source: r.source, dir: r.dir })) ?? [];
    const flags = [s.disableModelInvocation ? 'run by you only' : '', s.allowedTools.length > 0 ? `allows ${s.allowedTools.join(', ')}` : ''].filter(Boolean);
    lines.push(`  /${s.name}  ${clip(s.description)}`);
    lines.push(`      from ${s.file}${over.length > 0 ? `; replaces the one in ${over.join(', ')}` : ''}${flags.length > 0 ? `; ${flags.join('; ')}` : ''}`);
  }
  const commands = skills.commands.commands;
  if (commands.length > 0) {
    lines.push('', `Custom commands (${commands.length}):`);
    for (const c of commands) lines.push(`  /${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ''}  ${clip(c.description)}  (${c.file})`);
  }
  if (skills.problems.length > 0) lines.push('', `Problems (${skills.problems.length}):`, ...skills.problems.map((p) => `  ${p}`));
  return lines.join('\n');
}
