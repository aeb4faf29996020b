// Wrapping a styled line must close its styles at each row end and reopen them on the next
// row, or a row repainted alone (line diffing, scrolling) loses its colour. wrap-ansi only
// reopens the last code it saw, which drops nested styles (bold inside a grey quote).

const SGR = /\x1b\[([0-9;]*)m/g;

type SgrState = Map<string, string>;

function apply(state: SgrState, params: string): void {
  const codes = params === '' ? ['0'] : params.split(';');
  for (let i = 0; i < codes.length; i++) {
    const n = Number(codes[i]);
    if (n === 38 || n === 48) {
      // Extended colour: 38;5;n or 38;2;r;g;b.
      const len = codes[i + 1] === '5' ? 2 : codes[i + 1] === '2' ? 4 : 0;
      state.set(n === 38 ? 'fg' : 'bg', codes.slice(i, i + 1 + len).join(';'));
      i += len;
    } else if (n === 0) state.clear();
    else if (n === 22) {
      state.delete('1');
      state.delete('2');
    } else if (n >= 23 && n <= 29) state.delete(String(n - 20));
    else if (n === 39) state.delete('fg');
    else if (n === 49) state.delete('bg');
    else if ((n >= 30 && n <= 37) || (n >= 90 && n <= 97)) state.set('fg', String(n));
    else if ((n >= 40 && n <= 47) || (n >= 100 && n <= 107)) state.set('bg', String(n));
    else if (n >= 1 && n <= 9) state.set(String(n), String(n));
  }
}

/** Each row closes what is still open at its end and the next row reopens it. */
export function carryStyles(rows: readonly string[]): string[] {
  const state: SgrState = new Map();
  return rows.map((row) => {
    const reopen = [...state.values()].map((c) => `\x1b[${c}m`).join('');
    for (const m of row.matchAll(SGR)) apply(state, m[1] ?? '');
    return reopen + row + (state.size > 0 ? '\x1b[0m' : '');
  });
}
