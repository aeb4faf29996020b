// Where each value of a JSON text starts and ends, by its path (`permissions.allow[2]`), so a settings
// file can be edited in place (one rule added or removed, every other byte, order, indentation and
// unknown keys, kept) and a rule's line found (rule-lines.ts). Keys are read as JSON.parse reads
// them. The text is assumed to parse (callers check with JSON.parse first).

export interface JsonSpan {
  path: Array<string | number>;
  /** Offset of the value's first character and one past its last. */
  start: number;
  end: number;
}

/** Every value's span, each container after its contents (so leaves, and a list's items, come in text order). */
export function jsonSpans(text: string): JsonSpan[] {
  const spans: JsonSpan[] = [];
  const path: Array<string | number> = [];
  const frames: Array<{ array: boolean; key?: string; index: number; start: number }> = [];
  let i = 0;
  const skipString = (): void => {
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
  };
  const begin = (): void => {
    const top = frames[frames.length - 1];
    if (top) path.push(top.array ? top.index : (top.key ?? ''));
  };
  const finish = (start: number): void => {
    spans.push({ path: [...path], start, end: i });
    const top = frames[frames.length - 1];
    if (!top) return;
    path.pop();
    if (top.array) top.index++;
    else delete top.key;
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '{' || c === '[') {
      begin();
      frames.push({ array: c === '[', index: 0, start: i });
      i++;
    } else if (c === '}' || c === ']') {
      const frame = frames.pop();
      i++;
      finish(frame?.start ?? i - 1);
    } else if (c === '"') {
      const top = frames[frames.length - 1];
      if (top && !top.array && top.key === undefined) {
        const from = i;
        skipString();
        top.key = JSON.parse(text.slice(from, i)) as string;
        continue;
      }
      begin();
      const from = i;
      skipString();
      finish(from);
    } else if (/[\s,:]/.test(c ?? '')) {
      i++;
    } else {
      begin();
      const from = i;
      while (i < text.length && !/[,\]}\s]/.test(text[i] ?? '')) i++;
      finish(from);
    }
  }
  return spans;
}

export const samePath = (a: readonly (string | number)[], b: readonly (string | number)[]): boolean => a.length === b.length && a.every((p, k) => p === b[k]);
