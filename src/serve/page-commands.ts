import { PermissionModeSchema, type AgentEvent } from '../events.js';
import { errorMessage } from '../util/error-message.js';
import { HttpError } from './http-error.js';
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
    argHint: '<default|acceptEdits|plan|auto|dontAsk>',
    description: 'switch the permission mode',
    shownBy: 'mode_change',
    async run(hub, id, args) {
      const parsed = PermissionModeSchema.safeParse(args.trim());
      if (!parsed.success) throw new HttpError(400, `mode: one of ${PermissionModeSchema.options.join(', ')}`);
      hub.setMode(id, parsed.data);
      return `Mode: ${parsed.data}`;
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
