import { resume } from '../actions/resume.js';
import type { SlashCommand } from './registry.js';
import type { SessionActions } from './session-actions.js';
import { openResumePicker } from './session-commands.js';

/**
 * /save [name] and /load [name|n]: naming the session on screen and opening a saved one. Sessions
 * are saved as they happen; these are rename and resume under the names the design documents use,
 * over the same actions (SessionActions.nameCurrent, switchTo), so a /rename is a one-line alias.
 */
export function saveLoadCommands(actions: SessionActions): SlashCommand[] {
  const save: SlashCommand = {
    name: 'save',
    description: 'Name this session so /load <name> and cairn --resume <name> find it',
    argHint: '[name]',
    async run(args, ctx) {
      if (!args) {
        const mine = (await actions.listSessions()).find((s) => s.id === actions.currentId);
        const id = actions.currentId ?? '(not saved)';
        const named = mine?.name !== undefined ? ` and named "${mine.name}"` : '';
        return ctx.print(`This session (${id}) is saved as it goes${named}. Name it with /save <name>; /load <name> or cairn --resume <name> opens it later.`);
      }
      const result = await actions.nameCurrent(args);
      if ('problem' in result) return ctx.print(`Not saved: ${result.problem}.`, 'warning');
      const was = result.previous !== undefined ? ` (it was "${result.previous}")` : '';
      ctx.print(`Saved this session as "${result.name}"${was}. Open it later with /load ${result.name} or cairn --resume ${result.name}.`);
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

  return [save, load];
}
