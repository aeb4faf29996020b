import { StartingSession } from '../../src/session/starting-session.js';
import type { AppContext, CommandRegistry, SlashCommand } from '../actions/app-context.js';
import { errorMessage } from '../../src/util/error-message.js';
import { editDistance } from '../../src/util/edit-distance.js';
import { group } from '../../src/util/invariant.js';

export type { SlashCommand, CommandRegistry } from '../actions/app-context.js';

export function needsArgs(command: SlashCommand): boolean {
  return command.argHint?.startsWith('<') === true;
}

export function createCommandRegistry(commands: readonly SlashCommand[] = []): CommandRegistry {
  const list: SlashCommand[] = [];
  const registry: CommandRegistry = {
    all: () => list,
    find(name) {
      const n = name.toLowerCase();
      return list.find((c) => c.name === n || c.aliases?.includes(n));
    },
    register(command) {
      const clash = list.find((c) => c.name === command.name);
      if (clash) throw new Error(`slash command /${command.name} is registered twice`);
      list.push(command);
    },
    filter(prefix) {
      const p = prefix.toLowerCase();
      const byName = list.filter((c) => c.name.startsWith(p));
      const byAlias = list.filter((c) => !byName.includes(c) && c.aliases?.some((a) => a.startsWith(p)));
      return [...byName, ...byAlias];
    },
    closest(name) {
      let best: { command: SlashCommand; distance: number } | undefined;
      for (const command of list) {
        for (const candidate of [command.name, ...(command.aliases ?? [])]) {
          const distance = editDistance(name.toLowerCase(), candidate);
          if (!best || distance < best.distance) best = { command, distance };
        }
      }
      // Beyond half the word, a suggestion is noise.
      return best && best.distance <= Math.max(2, Math.ceil(name.length / 2)) ? best.command : undefined;
    },
  };
  for (const c of commands) registry.register(c);
  return registry;
}

/** Splits "/mode plan" into its name and argument text; undefined when the text is not a command. */
export function parseSlash(text: string): { name: string; args: string } | undefined {
  const m = /^\/(\S*)\s*([\s\S]*)$/.exec(text.trim());
  if (!m) return undefined;
  return { name: group(m, 1), args: group(m, 2).trim() };
}

/** Runs a typed command line, or prints that it is unknown with the closest suggestion. */
export async function runSlash(text: string, ctx: AppContext): Promise<void> {
  const parsed = parseSlash(text);
  if (!parsed) return;
  // Commands read what start-up loads just after the first frame (tools, agents, skills and their
  // commands, cron, MCP): one typed before that has finished waits for it. A failure to start is
  // reported by itself; the command then runs with what there is.
  const { session } = ctx;
  if (session instanceof StartingSession && session.starting) await session.finishStartup().catch(() => undefined);
  const command = ctx.commands.find(parsed.name);
  if (!command) {
    const near = ctx.commands.closest(parsed.name);
    ctx.print(`Unknown command /${parsed.name}.${near ? ` Did you mean /${near.name}?` : ''} Type /help for the list.`, 'warning');
    return;
  }
  try {
    await command.run(parsed.args, ctx);
  } catch (error) {
    ctx.print(`/${command.name} failed: ${errorMessage(error)}`, 'error');
  }
}
