import { PermissionModeSchema } from '../../src/events.js';
import { allowedModes, whyNotOffered } from '../../src/permission-modes.js';
import { keyHelp } from '../keys/key-help.js';
import { isThemeName, THEME_NAMES } from '../theme/theme.js';
import type { AppContext, SlashCommand } from '../actions/app-context.js';
import { usageReport } from './usage-report.js';
import { rewindCommand } from './rewind-command.js';
import { describeRules } from '../../src/permissions/rules/listing.js';
import { permissionsCommand } from './permissions-command.js';
import { btwCommand } from './btw-command.js';
import { planCommand } from './plan-command.js';
import { modelCommand } from './model-command.js';

const help: SlashCommand = {
  name: 'help',
  aliases: ['?'],
  description: 'List commands and keys',
  run(_args, ctx) {
    const width = Math.max(...ctx.commands.all().map((c) => c.name.length + (c.argHint ? c.argHint.length + 1 : 0)));
    const lines = ctx.commands.all().map((c) => `  /${`${c.name}${c.argHint ? ` ${c.argHint}` : ''}`.padEnd(width)}  ${c.description}`);
    ctx.print(['Commands:', ...lines, ...keyHelp()].join('\n'));
  },
};

const clear: SlashCommand = {
  name: 'clear',
  aliases: ['new', 'reset'],
  description: 'Start a fresh conversation (hard: also forget this session’s remembered approvals)',
  argHint: '[hard]',
  run(args, ctx) {
    if (args && args !== 'hard') return ctx.print(`Unknown /clear option "${args}": /clear, or /clear hard to also forget the approvals remembered for this session.`, 'warning');
    // Stops a running turn too; the session's `clear` event empties the transcript and the todos.
    const { forgottenRules } = ctx.session.clear({ hard: args === 'hard' });
    if (args !== 'hard') return ctx.print('Started a new conversation.');
    const rules = `${forgottenRules} approval${forgottenRules === 1 ? '' : 's'} remembered for this session`;
    ctx.print(`Started a new conversation and forgot ${rules} and the todo list; project rules in settings stay.`);
  },
};

const mode: SlashCommand = {
  name: 'mode',
  description: 'Set the permission mode',
  argHint: '<mode>',
  run(args, ctx) {
    const { info } = ctx.store.getSnapshot();
    const allowed = allowedModes(info.startedInBypass, ctx.session.autoModeAvailable);
    if (!args) return ctx.print(`Mode: ${ctx.session.mode}. Choose one of: ${allowed.join(', ')}.`);
    const parsed = PermissionModeSchema.safeParse(args);
    if (!parsed.success || !allowed.includes(parsed.data)) {
      const why = parsed.success ? ` (${whyNotOffered(parsed.data)})` : '';
      return ctx.print(`Unknown mode "${args}"${why}. Choose one of: ${allowed.join(', ')}.`, 'warning');
    }
    ctx.session.setMode(parsed.data);
  },
};

const usage: SlashCommand = {
  name: 'usage',
  aliases: ['cost'],
  description: 'Token usage and estimated cost: session totals, cache reads, per-turn deltas (reset: start counting again)',
  argHint: '[reset]',
  run(args, ctx) {
    if (args === 'reset') {
      const before = ctx.store.getSnapshot().usage;
      ctx.store.dispatch({ type: 'usageReset' });
      const had = `${before.calls} model call${before.calls === 1 ? '' : 's'}, ${before.input + before.output} tokens`;
      return ctx.print(`Usage counters reset (they had ${had}); /usage counts from here. The context window is as full as before.`);
    }
    if (args) return ctx.print(`Unknown /usage option "${args}": /usage, or /usage reset to start counting again.`, 'warning');
    ctx.print(usageReport(ctx.store.getSnapshot()));
  },
};

const rules: SlashCommand = {
  name: 'rules',
  description: 'Permission rules in force',
  run(_args, ctx) {
    const r = ctx.session.permissions.rules();
    const tools = ctx.session.tools.map((t) => t.name);
    const section = (title: string, list: string[]): string => `${title}: ${list.length ? describeRules(list, tools).join(', ') : '(none)'}`;
    const builtin = section('Built-in deny, in every mode (lift one with permissions.liftBuiltinDeny in settings)', r.builtin ?? []);
    ctx.print([`Mode: ${ctx.session.mode}`, section('Allow', r.allow), section('Ask', r.ask), section('Deny', r.deny), builtin].join('\n'));
  },
};

const prompt: SlashCommand = {
  name: 'prompt',
  aliases: ['system'],
  description: 'Show the assembled system prompt',
  async run(_args, ctx) {
    ctx.print(await ctx.systemPrompt());
  },
};

const theme: SlashCommand = {
  name: 'theme',
  description: 'Switch colours (remembered)',
  argHint: `[${THEME_NAMES.join('|')}]`,
  async run(args, ctx) {
    const current = ctx.store.getSnapshot().themeName;
    const list = THEME_NAMES.map((t) => (t === current ? `${t} (in use)` : t)).join(', ');
    if (!args) return ctx.print(`Themes: ${list}. Switch with /theme <name>.`);
    if (!isThemeName(args)) return ctx.print(`Unknown theme "${args}". Themes: ${list}.`, 'warning');
    await ctx.setTheme(args);
    ctx.print(`Theme: ${args}.`);
  },
};

const exit: SlashCommand = {
  name: 'exit',
  aliases: ['quit', 'q'],
  description: 'Leave cairn',
  run(_args, ctx: AppContext) {
    ctx.exit(0);
  },
};

export function builtinCommands(): SlashCommand[] {
  return [help, clear, mode, planCommand, modelCommand, btwCommand, usage, rules, permissionsCommand(), prompt, theme, rewindCommand, exit];
}
