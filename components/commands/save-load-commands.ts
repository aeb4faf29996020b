import { resume } from '../actions/resume.js';
import type { SlashCommand } from './registry.js';
import type { SessionActions } from './session-actions.js';
import { openResumePicker } from './session-commands.js';

/**
 * /rename NAME (also /save NAME), /fork and /load [name|n]: naming the session on screen, continuing
 * from here in a new one, and opening a saved one. Sessions are saved as they happen; these are
 * over the same actions (SessionActions.nameCurrent, forkCurrent, switchTo).
 */
export function saveLoadCommands(actions: SessionActions): SlashCommand[] {
  const save: SlashCommand = {
    name: 'rename',
    aliases: ['save'],
    description: 'Name this session: the header, the terminal title and /resume show it; cairn --resume <name> opens it',
    argHint: '[name]',
    async run(args, ctx) {
      if (!args) {
        const mine = (await actions.listSessions()).find((s) => s.id === actions.currentId);
        const id = actions.currentId ?? '(not saved)';
        const named = mine?.name !== undefined ? ` and named "${mine.name}"` : '';
        return ctx.print(`This session (${id}) is saved as it goes${named}. Name it with /rename <name>; /load <name> or cairn --resume <name> opens it later.`);
      }
      const result = await actions.nameCurrent(args);
      if ('problem' in result) return ctx.print(`Not saved: ${result.problem}.`, 'warning');
      const was = result.previous !== undefined ? ` (it was "${result.previous}")` : '';
      ctx.store.dispatch({ type: 'sessionName', name: result.name });
      ctx.print(`Named this session "${result.name}"${was}. Open it later with /load ${result.name} or cairn --resume ${result.name}.`);
    },
  };

  const fork: SlashCommand = {
    name: 'fork',
    description: 'Continue from here in a new session; this one stays as it is',
    async run(_args, ctx) {
      if (ctx.session.busy) return ctx.print('A turn is running; fork after it ends (or press Esc).', 'warning');
      const problem = actions.forkCurrent();
      if (problem !== undefined) ctx.print(problem, 'warning');
    },
  };

  const load: SlashCommand = {
    name: 'load',
    description: 'Open a saved session by its name, its number in /sessions or its id (none: pick one)',
    argHint: '[name|n]',
    async run(args, ctx) {
      if (!args) return openResumePicker(ctx.store, actions);
      let target = args;
      // A small number is a row of /sessions (newest first); a name or an id prefix otherwise.
      if (/^\d{1,4}$/.test(args)) {
        const list = await actions.listSessions();
        const row = list[Number(args) - 1];
        if (!row) return ctx.print(`There is no session ${args}: /sessions lists ${list.length}.`, 'warning');
        target = row.id;
      }
      resume(target, { store: ctx.store, sessions: actions });
    },
  };

  return [save, fork, load];
}
