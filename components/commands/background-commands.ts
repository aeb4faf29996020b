import type { BackgroundAgentInfo } from '../../src/agents/background-agents.js';
import type { AgentDefinition } from '../../src/agents/agent-definition.js';
import type { AgentLoadProblem } from '../../src/agents/agent-definition-loader.js';
import { formatLocalTime } from '../../src/cron/scheduler.js';
import type { CronTaskInfo } from '../../src/cron/types.js';
import type { BackgroundWork } from '../../src/runtime/background-work.js';
import type { ShellInfo } from '../../src/shells/shell-manager.js';
import type { AppContext, SlashCommand } from '../actions/app-context.js';
import { group } from '../../src/util/invariant.js';

export interface BackgroundCommandDeps {
  /** The runtime's cron scheduler and shell manager; absent where there is no runtime (some tests). */
  background?: Pick<BackgroundWork, 'cron' | 'shells'> & Partial<Pick<BackgroundWork, 'agents' | 'watches'>>;
  /** The agent types on offer and the definition files that were skipped. */
  agents(): Promise<{ agents: readonly AgentDefinition[]; problems: readonly AgentLoadProblem[] }>;
}

const NO_RUNTIME = 'Background work is not available in this session.';

function oneLine(text: string, max = 60): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function table(rows: string[][]): string[] {
  const widths = rows.reduce<number[]>((w, row) => row.map((cell, i) => Math.max(w[i] ?? 0, cell.length)), []);
  return rows.map((row) => `  ${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ')}`);
}

export function cronTaskRow(task: CronTaskInfo): string[] {
  const kind = [task.durable ? 'durable' : 'session', task.recurring ? 'recurring' : 'one-shot', ...(task.autoRun ? ['auto-run'] : [])].join(', ');
  const next = task.nextRunAt !== undefined ? `next ${formatLocalTime(task.nextRunAt)}` : 'no next run';
  return [task.id, task.cron, next, kind, oneLine(task.prompt)];
}

const CRON_USAGE = 'Usage: /cron, /cron delete <id>, /cron clear [durable], /cron test <prompt>';

function cronCommand(deps: BackgroundCommandDeps): SlashCommand {
  return {
    name: 'cron',
    description: 'Scheduled tasks: list, delete, clear, fire a test run',
    argHint: '[delete <id> | clear [durable] | test <prompt>]',
    run(args, ctx) {
      const cron = deps.background?.cron;
      if (!cron) return ctx.print(NO_RUNTIME, 'warning');
      const sub = args.split(/\s+/)[0] ?? '';
      const arg = args.slice(sub.length).trim();
      switch (sub) {
        case '':
        case 'list': {
          const tasks = cron.list();
          const list = tasks.length === 0 ? ['No scheduled tasks.'] : [`Scheduled tasks (${tasks.length}):`, ...table(tasks.map(cronTaskRow))];
          return ctx.print([...list, `Scheduler: ${cron.status().line}.`].join('\n'));
        }
        case 'delete': {
          if (!arg) return ctx.print('Usage: /cron delete <id> (/cron lists the ids).', 'warning');
          if (!cron.delete(arg)) return ctx.print(`No scheduled task "${arg}". /cron lists them.`, 'warning');
          return ctx.print(`Deleted scheduled task ${arg}.`);
        }
        case 'clear': {
          if (arg !== '' && arg !== 'durable') return ctx.print(`Unknown option "${arg}" for /cron clear: use /cron clear or /cron clear durable.`, 'warning');
          const n = cron.clear({ durableOnly: arg === 'durable' });
          // Toasts of the tasks deleted go with them (deleted events); a full clear takes test runs' too.
          if (arg !== 'durable') ctx.store.dispatch({ type: 'toastExpire', now: Date.now(), cron: true });
          return ctx.print(`Deleted ${n} ${arg === 'durable' ? 'durable ' : ''}scheduled task${n === 1 ? '' : 's'}.`);
        }
        case 'test': {
          if (!arg) return ctx.print('Usage: /cron test <prompt>', 'warning');
          const fired = cron.fireNow(arg);
          return ctx.print(`Fired a test run (${fired.task.id}): ${oneLine(fired.prompt)}`);
        }
        default:
          return ctx.print(`Unknown /cron subcommand "${sub}". ${CRON_USAGE}`, 'warning');
      }
    },
  };
}

export function shellRow(shell: ShellInfo): string[] {
  const how = shell.status === 'running' ? 'running' : shell.exitCode !== undefined ? `${shell.status} (exit ${shell.exitCode})` : shell.signal ? `${shell.status} (${shell.signal})` : shell.status;
  return [shell.id, how, oneLine(shell.command)];
}

function bashesCommand(deps: BackgroundCommandDeps): SlashCommand {
  return {
    name: 'bashes',
    aliases: ['shells'],
    description: "Background shells: list, show one's output, kill one, or stop the model watching one",
    argHint: '[<id> | kill <id> | unwatch <id>]',
    async run(args, ctx) {
      const shells = deps.background?.shells;
      if (!shells) return ctx.print(NO_RUNTIME, 'warning');
      const m = /^kill\s+(\S+)$/.exec(args);
      if (m) {
        const id = group(m, 1);
        if (!(await shells.kill(id))) return ctx.print(`No running background shell "${id}". /bashes lists them.`, 'warning');
        return ctx.print(`Killed background shell ${id}.`);
      }
      const unwatch = /^unwatch\s+(\S+)$/.exec(args);
      if (unwatch) {
        const id = group(unwatch, 1);
        // The watch's own notice says it stopped; the model is told with its next request.
        if (!deps.background?.watches?.stop(id, 'the user stopped the watch')) return ctx.print(`The model is not watching "${id}".`, 'warning');
        return;
      }
      if (/^\S+$/.test(args) && args !== 'kill' && args !== 'unwatch') return showShell(shells, args, ctx);
      if (args !== '') return ctx.print('Usage: /bashes, /bashes <id>, /bashes kill <id> or /bashes unwatch <id>', 'warning');
      const list = shells.list();
      if (list.length === 0) return ctx.print('No background shells.');
      const running = list.filter((s) => s.status === 'running').length;
      ctx.print([`Background shells (${running} running):`, ...table(list.map(shellRow))].join('\n'));
    },
  };
}

const SHELL_LINES = 40;

/** A shell's output so far, its last lines when long; the model's unread output stays unread. */
function showShell(shells: BackgroundWork['shells'], id: string, ctx: AppContext): void {
  const out = shells.output(id);
  if (!out) {
    const known = shells.list().map((s) => s.id);
    return ctx.print(`No background shell "${id}".${known.length > 0 ? ` Known: ${known.join(', ')}.` : ''}`, 'warning');
  }
  const lines = out.text.replace(/\n+$/, '').split('\n');
  const shown = lines.slice(-SHELL_LINES);
  const earlier = lines.length - shown.length;
  const body = out.text.trim() === '' ? ['  (no output yet)'] : shown.map((l) => `  ${l}`);
  const head = `${id} ${shellRow(out.info)[1]}: ${oneLine(out.info.command)}`;
  const notes = [...(earlier > 0 ? [`  … ${earlier} earlier lines`] : []), ...(out.truncated ? ['  (the middle of a long output is not kept)'] : [])];
  ctx.print([head, ...notes, ...body].join('\n'));
}

export function backgroundAgentRow(agent: BackgroundAgentInfo, now: number): string[] {
  const took = Math.max(0, Math.round(((agent.endedAt ?? now) - agent.startedAt) / 1000));
  const progress = `${agent.turns} turn${agent.turns === 1 ? '' : 's'}${agent.lastTool !== undefined ? `, last ${agent.lastTool}` : ''}, ${took}s`;
  return [agent.id, agent.status, progress, oneLine(`${agent.agentType}: ${agent.description}`)];
}

const AGENTS_USAGE = 'Usage: /agents, or /agents stop <id> (Tab selects a background agent\'s card, Enter opens it, x stops it)';

function agentsCommand(deps: BackgroundCommandDeps): SlashCommand {
  return {
    name: 'agents',
    description: 'Background agents (running ones with their progress; stop <id> stops one) and the agent types',
    argHint: '[stop <id>]',
    async run(args, ctx) {
      const running = deps.background?.agents;
      const stop = /^stop\s+(\S+)$/.exec(args.trim());
      if (stop) {
        const id = group(stop, 1);
        if (!running?.stop(id)) return ctx.print(`No running background agent "${id}". /agents lists them.`, 'warning');
        return ctx.print(`Stopping background agent ${id}; its card and the model are told when it has stopped.`);
      }
      if (args.trim() !== '') return ctx.print(AGENTS_USAGE, 'warning');
      const { agents, problems } = await deps.agents();
      const list = running?.list() ?? [];
      const live = list.filter((a) => a.status === 'running').length;
      const lines =
        list.length === 0
          ? ['No background agents (the agent tool starts one with run_in_background).']
          : [`Background agents (${live} running; /agents stop <id> stops one):`, ...table(list.map((a) => backgroundAgentRow(a, ctx.now())))];
      lines.push(`Agent types (${agents.length}):`, ...agents.map((a) => `  ${a.name} — ${a.description}\n    ${a.source === 'built-in' ? 'built-in' : a.source}`));
      for (const p of problems) lines.push(`Skipped ${p.file}: ${p.message}`);
      ctx.print(lines.join('\n'));
    },
  };
}

const TODO_GLYPH = { completed: '✓', in_progress: '▸', pending: '☐' } as const;

const todosCommand: SlashCommand = {
  name: 'todos',
  aliases: ['todo'],
  description: 'The todo list',
  run(_args, ctx: AppContext) {
    const { todos } = ctx.store.getSnapshot();
    if (todos.length === 0) return ctx.print('No todos.');
    const done = todos.filter((t) => t.status === 'completed').length;
    ctx.print([`Todos (${done}/${todos.length} done):`, ...todos.map((t) => `  ${TODO_GLYPH[t.status]} ${t.status === 'in_progress' ? t.activeForm : t.content}`)].join('\n'));
  },
};

/** /cron, /bashes, /agents and /todos. */
export function backgroundCommands(deps: BackgroundCommandDeps): SlashCommand[] {
  return [cronCommand(deps), bashesCommand(deps), agentsCommand(deps), todosCommand];
}
