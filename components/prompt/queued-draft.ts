import { attachmentChip } from '../../src/attachments/attachment-label.js';
import type { QueuedPrompt } from '../../src/session/queued-prompt.js';
import type { EditorState, PastedBlock } from './editor.js';

/**
 * The editor with prompts taken back from the queue (Esc, Up) before its draft, one per line,
 * cursor at the end. Each attachment comes back as the chip it was sent as: one unit for Backspace,
 * sent again with the prompt. An attachment whose chip is not in the text (a `@shot.png` mention
 * attaches it when the prompt is sent again) is left to the mention.
 */
export function draftWithQueued(taken: readonly QueuedPrompt[], editor: EditorState): EditorState {
  if (taken.length === 0) return editor;
  const pastes: PastedBlock[] = [...editor.pastes];
  const parts: string[] = [];
  const inUse = (placeholder: string): boolean =>
    pastes.some((p) => p.placeholder === placeholder) || editor.text.includes(placeholder) || parts.some((t) => t.includes(placeholder));
  for (const prompt of taken) {
    let text = prompt.text;
    const claimed: Array<{ at: number; end: number }> = [];
    for (const attachment of prompt.attachments ?? []) {
      const chip = attachmentChip(attachment);
      const found = findChip(text, chip, claimed);
      if (!found) continue;
      // Numbered like insertAttachment does when the same chip is already in the draft.
      let placeholder = `${chip} `;
      for (let n = 2; inUse(placeholder); n++) placeholder = `${chip.slice(0, -1)} #${n}] `;
      text = text.slice(0, found.at) + placeholder + text.slice(found.end);
      const delta = placeholder.length - (found.end - found.at);
      for (const c of claimed) {
        if (c.at < found.at) continue;
        c.at += delta;
        c.end += delta;
      }
      claimed.push({ at: found.at, end: found.at + placeholder.length });
      pastes.push({ placeholder, text: placeholder, attachment });
    }
    if (text !== '') parts.push(text);
  }
  const text = [...parts, editor.text].filter((t) => t !== '').join('\n');
  return { ...editor, text, pastes, cursor: text.length, historyIndex: undefined, draftBeforeHistory: undefined };
}

/** The first occurrence of `chip` (perhaps numbered `#2`, with the space after it) not already claimed. */
function findChip(text: string, chip: string, claimed: ReadonlyArray<{ at: number }>): { at: number; end: number } | undefined {
  const escaped = chip.slice(0, -1).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const match of text.matchAll(new RegExp(`${escaped}(?: #\\d+)?\\] ?`, 'g'))) {
    if (!claimed.some((c) => c.at === match.index)) return { at: match.index, end: match.index + match[0].length };
  }
  return undefined;
}
