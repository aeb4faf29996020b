// The line each permission rule stands on in its settings file, so the decision log and /permissions
// can say "allowed by Bash(npm test:*) (.cairn/settings.json:7)". A small JSON walker: it follows
// the path of every string value and notes where `permissions.<list>[i]` starts.

export type RuleLineKey = `${'allow' | 'ask' | 'deny'}[${number}]`;

/** `allow[0]` -> 1-based line, for every rule string in the file's `permissions` lists. */
export function ruleLines(text: string): Map<RuleLineKey, number> {
  const out = new Map<RuleLineKey, number>();
  const path: Array<string | number> = [];
  // For each open container: an object's pending key, or an array's next index.
  const frames: Array<{ array: boolean; key?: string; index: number }> = [];
  let line = 1;
  let i = 0;
  const readString = (): string => {
    let value = '';
    i++; // the opening quote
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') {
        value += text.slice(i, i + 2);
        i += 2;
        continue;
      }
      if (text[i] === '\n') line++;
      value += text[i];
      i++;
    }
    i++; // the closing quote
    return value;
  };
  const valueStarts = (): void => {
    const top = frames[frames.length - 1];
    if (!top) return;
    path.push(top.array ? top.index : (top.key ?? ''));
  };
  const valueEnds = (): void => {
    const top = frames[frames.length - 1];
    if (!top) return;
    path.pop();
    if (top.array) top.index++;
    else delete top.key;
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '\n') {
      line++;
      i++;
    } else if (c === '{' || c === '[') {
      valueStarts();
      frames.push({ array: c === '[', index: 0 });
      i++;
    } else if (c === '}' || c === ']') {
      frames.pop();
      valueEnds();
      i++;
    } else if (c === '"') {
      const top = frames[frames.length - 1];
      if (top && !top.array && top.key === undefined) {
        top.key = readString();
        continue;
      }
      valueStarts();
      const [root, list, index] = path;
      if (path.length === 3 && root === 'permissions' && (list === 'allow' || list === 'ask' || list === 'deny') && typeof index === 'number') {
        out.set(`${list}[${index}]`, line);
      }
      readString();
      valueEnds();
    } else if (c === ',' || c === ':' || c === ' ' || c === '\t' || c === '\r') {
      i++;
    } else {
      // A number, true, false or null: one value.
      valueStarts();
      while (i < text.length && !/[,\]}\s]/.test(text[i] ?? '')) i++;
      valueEnds();
    }
  }
  return out;
}
