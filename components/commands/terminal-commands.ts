import { mouseMessage } from '../app/terminal-controls.js';
import { copyAndSay } from '../actions/copy.js';
import { answerAt, answers, recentCodeBlocks } from '../transcript/copy-text.js';
import type { SlashCommand } from './registry.js';

/** /copy and /mouse: they act on the terminal (the app context's, once the app has it). */
export function terminalCommands(): SlashCommand[] {
  const copy: SlashCommand = {
    name: 'copy',
    description: "Copy the last answer to the clipboard (N: the Nth from last; code: pick a code block); plain text, as the model wrote it",
    argHint: '[N|code]',
    run(args, ctx) {
      const { items } = ctx.store.getSnapshot();
      const arg = args.trim().toLowerCase();
      if (arg === 'code') {
        const blocks = recentCodeBlocks(items);
        if (blocks.length === 0) return ctx.print('No code block in the answers yet.', 'warning');
        if (blocks.length === 1 && blocks[0]) return copyAndSay(blocks[0].text, ctx);
        ctx.store.dispatch({ type: 'dialog', dialog: { kind: 'copyCode', blocks, index: 0 } });
        return;
      }
      const n = arg === '' ? 1 : Number(arg);
      if (!Number.isInteger(n) || n < 1) return ctx.print(`/copy takes a number from 1 (the last answer) or "code", not "${args.trim()}".`, 'warning');
      const text = answerAt(items, n);
      if (text === undefined) {
        const count = answers(items).length;
        return ctx.print(count === 0 ? 'No answer to copy yet.' : `There ${count === 1 ? 'is 1 answer' : `are ${count} answers`}; /copy ${n} asks for the ${n}th from last.`, 'warning');
      }
      copyAndSay(text, ctx);
    },
  };
  const mouse: SlashCommand = {
    name: 'mouse',
    description: 'Mouse wheel scrolling on or off (off: the terminal selects text; on: Shift-drag selects)',
    argHint: '[on|off]',
    run(args, ctx) {
      const t = ctx.terminal;
      if (!t) return ctx.print('Mouse reporting is not available here.', 'warning');
      const arg = args.trim().toLowerCase();
      if (arg !== '' && arg !== 'on' && arg !== 'off') return ctx.print(`/mouse takes on or off, not "${args.trim()}".`, 'warning');
      const on = arg === '' ? !t.mouse() : arg === 'on';
      t.setMouse(on);
      ctx.print(mouseMessage(on));
    },
  };
  return [copy, mouse];
}
