import { formatTask, type TaskStore } from '../../src/tasks/task-store.js';
import type { MessageBus, TeamMessage } from '../../src/team/message-bus.js';
import { LEAD, type Team } from '../../src/team/team.js';
import type { SlashCommand } from './registry.js';
import { errorMessage } from '../../src/util/error-message.js';

export interface TeamCommandDeps {
  team?: Team;
  bus?: MessageBus;
  tasks?: TaskStore;
}

const NONE = 'Teams are not available in this session.';

function formatMail(mail: readonly TeamMessage[]): string {
  return mail.map((m) => `  ${m.ts.slice(11, 16)} ${m.from}: ${m.text}`).join('\n');
}

/** /team, /inbox and /tasks: teammates, the lead's inbox and the shared task list. */
export function teamCommands(deps: TeamCommandDeps): SlashCommand[] {
  return [
    {
      name: 'team',
      description: 'Teammates: list, spawn <name> <type> <instructions>, stop <name>',
      argHint: '[spawn <name> <type> <instructions> | stop <name>]',
      async run(args, ctx) {
        const team = deps.team;
        if (!team) return ctx.print(NONE, 'warning');
        const [sub = '', name = '', type = '', ...rest] = args.split(/\s+/).filter(Boolean);
        if (sub === '' || sub === 'list') {
          const mates = team.list();
          if (mates.length === 0) return ctx.print('No teammates. Start one with /team spawn <name> <type> <instructions>.');
          const rows = mates.flatMap((m) => [
            `  ${m.name.padEnd(12)} ${m.type.padEnd(10)} ${m.status}`,
            ...(m.lastTool !== undefined ? [`      last call: ${m.lastTool}`] : []),
            ...(m.lastReply !== undefined ? [`      last reply: ${m.lastReply}`] : []),
          ]);
          return ctx.print(['Teammates (each one’s work is in its card; Tab selects a card, Enter opens it):', ...rows].join('\n'));
        }
        try {
          if (sub === 'spawn') {
            if (!name || !type || rest.length === 0) return ctx.print('Usage: /team spawn <name> <type> <instructions>', 'warning');
            // The team's own 'spawned' event says it started (as it does when the model spawns one).
            team.spawn(name, type, rest.join(' '));
            return;
          }
          if (sub === 'stop') {
            if (!name) return ctx.print('Usage: /team stop <name>', 'warning');
            await team.stop(name);
            return ctx.print(`Asked ${name} to stop; it acknowledges before it stops.`);
          }
        } catch (error) {
          return ctx.print(errorMessage(error), 'error');
        }
        return ctx.print(`Unknown /team subcommand "${sub}". Use /team, /team spawn or /team stop.`, 'warning');
      },
    },
    {
      name: 'inbox',
      description: "Show and clear the lead's inbox",
      async run(_args, ctx) {
        if (!deps.bus) return ctx.print(NONE, 'warning');
        const mail = await deps.bus.read(LEAD);
        ctx.print(mail.length === 0 ? 'The inbox is empty (messages already shown reached the model before its turn).' : `Inbox (${mail.length}):\n${formatMail(mail)}`);
      },
    },
    {
      name: 'tasks',
      description: 'Shared tasks in .cairn/tasks',
      async run(_args, ctx) {
        if (!deps.tasks) return ctx.print(NONE, 'warning');
        const tasks = await deps.tasks.list();
        ctx.print(
          tasks.length === 0
            ? 'No shared tasks.'
            : ['Shared tasks:', ...tasks.map((t) => `  ${formatTask(t)}`)].join('\n'),
        );
      },
    },
  ];
}
