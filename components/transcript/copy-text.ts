import type { TranscriptItem } from '../store/types.js';

/** A fenced code block of an answer, as the model wrote it (no gutter, no wrapping, no colour). */
export interface CodeBlock {
  readonly lang: string;
  readonly text: string;
}

/** The answers' texts, newest first: what the model wrote, not the screen's wrapped lines. */
export function answers(items: readonly TranscriptItem[]): string[] {
  const out: string[] = [];
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item?.kind === 'assistant' && item.text.trim() !== '') out.push(item.text.trim());
  }
  return out;
}

/** The Nth answer from the last (1 = the last), or undefined when there are fewer. */
export function answerAt(items: readonly TranscriptItem[], n: number): string | undefined {
  return answers(items)[n - 1];
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;

/** Fenced code blocks (``` or ~~~, as CommonMark closes them), in the order written. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  let open: { fence: string; lang: string; lines: string[] } | undefined;
  for (const line of markdown.split('\n')) {
    if (!open) {
      const m = FENCE.exec(line);
      if (m?.[1]) open = { fence: m[1], lang: m[2] ?? '', lines: [] };
      continue;
    }
    const close = line.trim();
    if (close.startsWith(open.fence[0] ?? '`') && close.length >= open.fence.length && /^(`+|~+)$/.test(close)) {
      blocks.push({ lang: open.lang, text: open.lines.join('\n') });
      open = undefined;
    } else open.lines.push(line);
  }
  // An unclosed fence runs to the end of the answer (CommonMark), e.g. an answer cut off.
  if (open) blocks.push({ lang: open.lang, text: open.lines.join('\n') });
  return blocks;
}

/** Every answer's code blocks, the newest answer's first. */
export function recentCodeBlocks(items: readonly TranscriptItem[]): CodeBlock[] {
  return answers(items).flatMap((text) => codeBlocks(text));
}
