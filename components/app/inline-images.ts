// Pictures in the transcript (tui.json `inlineImages`, off by default), in kitty: each image a
// prompt carries is sent to the terminal once as a small PNG, and the prompt's item gets the
// placeholder rows that show it (components/terminal/kitty-images.ts). Anywhere else, or with
// the setting off, nothing is written and the chip alone stays.
import { attachmentLabel } from '../../src/attachments/attachment-label.js';
import { thumbnailPng } from '../../src/attachments/thumbnail.js';
import type { AgentEvent } from '../../src/events.js';
import type { ImageBlock } from '../../src/messages.js';
import { errorMessage } from '../../src/util/error-message.js';
import type { TuiStore } from '../store/create-store.js';
import { detectImageProtocol, kittyDelete, kittyTransmit, thumbnailCells } from '../terminal/kitty-images.js';

/** Rows a thumbnail takes under its chip. */
export const THUMBNAIL_ROWS = 6;

export interface InlineImagesOptions {
  enabled: boolean;
  env: NodeJS.ProcessEnv;
  store: TuiStore;
  subscribe: (listener: (event: AgentEvent) => void) => () => void;
  /** Straight to the terminal, between frames. */
  write: (s: string) => void;
  columns: () => number;
}

/** Starts showing thumbnails when the setting is on and the terminal is kitty; returns what stops it. */
export function startInlineImages(options: InlineImagesOptions): () => void {
  if (!options.enabled || detectImageProtocol(options.env) !== 'kitty') return () => {};
  let next = 1;
  const sent = new Set<number>();
  let stopped = false;
  const show = async (block: ImageBlock): Promise<void> => {
    const png = await thumbnailPng(block);
    if (!png || stopped) return;
    // Ids 1-255 (a 256-colour foreground names the image); the 256th picture reuses the first id.
    const id = next;
    next = next === 255 ? 1 : next + 1;
    const cells = thumbnailCells(block.width, block.height, THUMBNAIL_ROWS, Math.max(1, options.columns() - 6));
    options.write(kittyTransmit(id, png, cells.columns, cells.rows));
    sent.add(id);
    options.store.dispatch({ type: 'thumbnail', label: attachmentLabel(block), image: id, columns: cells.columns, rows: cells.rows });
  };
  const off = options.subscribe((event) => {
    if (event.type !== 'user_prompt') return;
    for (const block of event.attachments ?? []) {
      if (block.type !== 'image') continue;
      show(block).catch((error: unknown) => options.store.dispatch({ type: 'notice', level: 'warning', message: `No thumbnail for ${block.name}: ${errorMessage(error)}` }));
    }
  });
  return () => {
    stopped = true;
    off();
    for (const id of sent) options.write(kittyDelete(id));
  };
}
