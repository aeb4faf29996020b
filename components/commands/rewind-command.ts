import { openRewind } from '../actions/rewind.js';
import type { SlashCommand } from './registry.js';

/** /rewind: the same dialog as Esc Esc on an empty prompt. */
export const rewindCommand: SlashCommand = {
  name: 'rewind',
  aliases: ['checkpoint'],
  description: 'Back to before an earlier prompt: conversation, files (by write_file, edit_file and bash) or both',
  run(_args, ctx) {
    openRewind(ctx);
  },
};
