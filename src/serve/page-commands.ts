import type { AgentEvent } from '../events.js';
import { allowedModes, isPermissionMode, nextMode, planModeNote, whyNotOffered } from '../permission-modes.js';
import { errorMessage } from '../util/error-message.js';
import { HttpError } from './http-error.js';
import { stripTerminalControls } from '../util/terminal-text.js';
import { worktreeListing } from '../worktrees/worktree-list.js';
import { listServedWorktrees, removeServedWorktree } from './served-worktrees.js';
import type { SessionHub } from './session-hub.js';

/** The slash commands a page can run; their output is a notice in the session, so every tab sees it. */
export interface PageCommand {
  name: string;
  argHint?: string;
  description: string;
  /** The event that already shows the command's effect in every tab: when the run emits it, no notice repeats it. */
  shownBy?: AgentEvent['type'];
  run(hub: SessionHub, id: string, args: string): Promise<string>;
}

export const PAGE_COMMANDS: readonly PageCommand[] = [
  {
    name: 'mode',
    argHint: '<default|acceptEdits|plan|auto>',
    description: 'switch the permission mode (with no mode: the next one, as Shift+Tab in the terminal)',
    shownBy: 'mode_change',
    async run(hub, id, args) {
      // The terminal's policy (src/permission-modes.ts): the same modes offered, the same cycle.
      const { runtime, startedInBypass } = hub.get(id);
      const auto = runtime.session.autoModeAvailable;
      const allowed = allowedModes(startedInBypass, auto);
      const wanted = args.trim();
      if (wanted === '') {
        const mode = nextMode(runtime.session.mode, startedInBypass, auto);
        hub.setMode(id, mode);
        return `Mode: ${mode}`;
      }
      if (!isPermissionMode(wanted) || !allowed.includes(wanted)) {
        const why = isPermissionMode(wanted) ? ` (${whyNotOffered(wanted)})` : '';
        throw new HttpError(400, `mode: one of ${allowed.join(', ')}${why}`);
      }
      hub.setMode(id, wanted);
      return `Mode: ${wanted}`;
    },
  },
  {
    name: 'model',
    argHint: '<model>',
    description: 'switch the model for the next requests',
    async run(hub, id, args) {
      const model = args.trim();
      const session = hub.get(id).runtime.session;
      if (!model) return `Model: ${session.model}`;
      if (!session.switchModel(model)) throw new HttpError(400, `model: cannot switch to ${model} here`);
      return `Model: ${model}`;
    },
  },
  {
    name: 'clear',
    description: 'start the conversation again from nothing',
    async run(hub, id) {
      hub.get(id).runtime.session.clear();
      return 'Cleared: the next prompt starts a new conversation.';
    },
  },
  {
    name: 'compact',
    argHint: '[instructions]',
    description: 'summarise the conversation to free context',
    async run(hub, id, args) {
      try {
        await hub.get(id).runtime.session.compact(args.trim() || undefined);
      } catch (error) {
        throw new HttpError(409, `compact: ${errorMessage(error)}`);
      }
      return 'Compacted.';
    },
  },
  {
    name: 'plan',
    argHint: '[task]',
    description: 'show the approved plan again; with a task: switch to plan mode and start on it',
    async run(hub, id, args) {
      const task = args.trim();
      if (task === '') {
        const { plan } = hub.get(id);
        // The terminal's words (components/actions/plan.ts).
        if (!plan) return 'No plan has been approved in this session. /plan <task> switches to plan mode and starts on the task; the model can also ask to plan first.';
        return `Approved plan${plan.mode !== undefined ? ` (${planModeNote(plan.mode)})` : ''}:\n${plan.text}`;
      }
      hub.setMode(id, 'plan');
      hub.prompt(id, task);
      return 'Plan mode: the model explores read-only and presents a plan for you to approve.';
    },
  },
  {
    name: 'worktrees',
    argHint: '[remove NAME]',
    description: "list cairn's git worktrees (branch, state, commits ahead); remove a clean one",
    // A removal tells every tab itself (a notice); a listing is this command's output.
    shownBy: 'notice',
    async run(hub, id, args) {
      const [verb, name, ...rest] = args.split(/\s+/).filter(Boolean);
      if (verb === undefined) return stripTerminalControls(worktreeListing(await listServedWorktrees(hub, id)));
      if (verb !== 'remove' || name === undefined || rest.length > 0) throw new HttpError(400, 'worktrees: /worktrees lists them, /worktrees remove NAME removes a clean one (its branch stays)');
      return removeServedWorktree(hub, id, name);
    },
  },
  {
    name: 'help',
    description: 'list the commands',
    async run() {
      return PAGE_COMMANDS.map((c) => `/${c.name}${c.argHint ? ` ${c.argHint}` : ''} — ${c.description}`).join('\n');
    },
  },
];

/** Runs `/name args`; an unknown name is a 400 naming it. */
export async function runPageCommand(hub: SessionHub, id: string, text: string): Promise<string> {
  const match = /^\/(\S+)\s*([\s\S]*)$/.exec(text.trim());
  if (!match) throw new HttpError(400, 'text: a command starts with /');
  const [, name = '', args = ''] = match;
  const command = PAGE_COMMANDS.find((c) => c.name === name);
  if (!command) throw new HttpError(400, `text: no command /${name} (try /help)`);
  const session = hub.get(id).runtime.session;
  let shown = false;
  const off = session.subscribe((e) => {
    if (e.type === command.shownBy) shown = true;
  });
  try {
    const output = await command.run(hub, id, args);
    if (!shown) session.emit({ type: 'notice', level: 'info', message: output });
    return output;
  } finally {
    off();
  }
}
