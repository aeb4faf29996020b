// Finds where a growing markdown text can be cut so the part before never changes its
// rendering again: a blank line outside a code fence, followed by a line that cannot continue
// the block before it (not indented, not a list item): a complete line, or one still arriving
// that starts with a letter. The gemini-cli idea
// (`findLastSafeSplitPoint`), made stricter so rendering the parts separately gives exactly
// the lines of rendering the whole (a list item after a blank line would join the list above).

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_ITEM = /^(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;

export type SplitScanner = {
  /**
   * `text` is the whole text from index `offset` on (default 0): it must extend what the previous
   * call saw, and `offset` must not pass the last split returned, so a caller can keep only its
   * unfinished part. Returns the last safe split index of the whole text (0 = none).
   */
  feed(text: string, offset?: number): number;
};

export function createSplitScanner(): SplitScanner {
  let scanned = 0; // start of the first line not yet seen whole
  let fence: { char: string; length: number } | undefined;
  let afterBlank = false;
  let seenContent = false;
  let split = 0;
  return {
    feed(text, offset = 0) {
      if (offset > split) throw new Error(`safe-split: offset ${offset} passes the last split ${split}`);
      for (let nl = text.indexOf('\n', scanned - offset); nl !== -1; nl = text.indexOf('\n', scanned - offset)) {
        const line = text.slice(scanned - offset, nl);
        const start = scanned;
        scanned = offset + nl + 1;
        if (fence) {
          const close = FENCE.exec(line);
          const marker = close?.[1];
          if (marker && marker[0] === fence.char && marker.length >= fence.length && line.trim() === marker) {
            fence = undefined;
          }
          continue;
        }
        if (line.trim() === '') {
          afterBlank = seenContent;
          continue;
        }
        if (afterBlank && !/^[ \t]/.test(line) && !LIST_ITEM.test(line)) split = start;
        afterBlank = false;
        seenContent = true;
        const open = FENCE.exec(line)?.[1];
        if (open && !(open[0] === '`' && line.slice(line.indexOf(open) + open.length).includes('`'))) {
          fence = { char: open.charAt(0), length: open.length };
        }
      }
      // A line still arriving that starts with a letter cannot continue the block before the blank
      // line (nor open a fence or a list): the split is known from its first character, so the
      // block before is finished while the new paragraph's first line is still streaming.
      if (!fence && afterBlank && /^[A-Za-z]/.test(text.slice(scanned - offset, scanned - offset + 1))) split = scanned;
      return split;
    },
  };
}

/** One-shot form: the last safe split index of `text` (0 when there is none). */
export function findLastSafeSplit(text: string): number {
  return createSplitScanner().feed(text);
}
