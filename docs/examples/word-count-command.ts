import type { SlashCommand } from '../../components/commands/registry.js';

// The example of docs/guide/add-a-slash-command.md: /words <text> counts the words of its argument.
export const wordsCommand: SlashCommand = {
  name: 'words',
  aliases: ['wc'],
  description: 'Count the words of a text',
  // `<text>`: required, so picking it from the palette leaves the prompt open for the argument.
  argHint: '<text>',
  run(args, ctx) {
    if (!args) return ctx.print('Usage: /words <text>', 'warning');
    const words = args.split(/\s+/).filter(Boolean).length;
    ctx.print(`${words} ${words === 1 ? 'word' : 'words'}`);
  },
};
