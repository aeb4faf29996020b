import type { NodeIndex } from './nodes.js';
import type { SyntaxNode } from './parser.js';

/**
 * tree-sitter-bash reads some valid scripts differently from bash (measured against bash 5.2):
 * `$'\\'` ends the string where bash does not, a heredoc delimiter written `E'O'F` is not
 * unquoted, backticks inside `${...}` or escaped inside other backticks are not seen, and
 * a backslash-newline inside a word splits it, a backslash-blank outside a word is whitespace (so
 * `echo \ #$(cmd)` ends in a comment for tree-sitter, while bash reads one word), and single quotes
 * in `"${x:-'...'}"` start a raw string where bash, inside double quotes, expands what they hold.
 * These checks find every such place, so that a command cairn reads differently from bash is never
 * allowed on cairn's reading.
 */

// Where bash does not interpret `$(`, backticks or `$'`: single quotes, ANSI-C strings, comments, quoted heredoc bodies.
const INERT = new Set(['raw_string', 'ansi_c_string', 'comment']);

function isEscaped(script: string, index: number): boolean {
  let n = 0;
  for (let i = index - 1; i >= 0 && script[i] === '\\'; i--) n += 1;
  return n % 2 === 1;
}

/** Bash's value of a heredoc delimiter word: quotes removed, and whether any part was quoted. */
export function heredocDelimiter(word: string): { delimiter: string; quoted: boolean } {
  let out = '';
  let quoted = false;
  for (let i = 0; i < word.length; i++) {
    const ch = word.charAt(i);
    if (ch === '\\' && i + 1 < word.length) {
      out += word[++i];
      quoted = true;
    } else if (ch === "'") {
      const end = word.indexOf("'", i + 1);
      out += word.slice(i + 1, end < 0 ? undefined : end);
      i = end < 0 ? word.length : end;
      quoted = true;
    } else if (ch === '"') {
      let j = i + 1;
      for (; j < word.length && word[j] !== '"'; j++) {
        if (word[j] === '\\' && /[$`"\\]/.test(word[j + 1] ?? '')) j += 1;
        out += word[j];
      }
      i = j;
      quoted = true;
    } else out += ch;
  }
  return { delimiter: out, quoted };
}

function quotedHeredocBody(node: SyntaxNode): boolean {
  const start = node.parent?.children.find((c) => c?.type === 'heredoc_start');
  return start !== undefined && start !== null && heredocDelimiter(start.text).quoted;
}

/** Whether bash reads the character at this node literally (inside single quotes, a comment, a quoted heredoc). */
function inert(node: SyntaxNode | null): boolean {
  for (let n = node; n; n = n.parent) {
    if (INERT.has(n.type)) return true;
    if ((n.type === 'heredoc_body' || n.type === 'heredoc_content') && quotedHeredocBody(n.type === 'heredoc_body' ? n : n.parent ?? n)) return true;
  }
  return false;
}

function nodeAt(root: SyntaxNode, index: number): SyntaxNode | null {
  return root.descendantForIndex(index, index + 1);
}

/** The script with bash's line continuations (backslash-newline outside quotes and comments) removed, when it has any. */
export function joinContinuations(script: string, root: SyntaxNode): string | undefined {
  const cuts: number[] = [];
  for (let i = script.indexOf('\\\n'); i >= 0; i = script.indexOf('\\\n', i + 2)) {
    if (!isEscaped(script, i) && !inert(nodeAt(root, i))) cuts.push(i);
  }
  if (cuts.length === 0) return undefined;
  let out = '';
  let from = 0;
  for (const cut of cuts) {
    out += script.slice(from, cut);
    from = cut + 2;
  }
  return out + script.slice(from);
}

/** Where an ANSI-C string `$'...'` starting at `start` ends for bash: backslash escapes any character. */
function ansiCEnd(script: string, start: number): number {
  let i = start + 2;
  while (i < script.length && script[i] !== "'") i += script[i] === '\\' ? 2 : 1;
  return i + 1;
}

function startsNode(root: SyntaxNode, index: number, types: readonly string[]): boolean {
  for (let n = nodeAt(root, index); n; n = n.parent) {
    if (n.startIndex !== index) return false;
    if (types.includes(n.type)) return true;
  }
  return false;
}

function endsNode(root: SyntaxNode, index: number, type: string): boolean {
  for (let n = nodeAt(root, index); n; n = n.parent) {
    if (n.type === type && n.endIndex === index + 1) return true;
  }
  return false;
}

// The characters after which bash starts a new word, so that a `#` there begins a comment.
const WORD_BREAK = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);

/** A comment tree-sitter sees where bash reads a `#` inside a word (after an escaped blank, `a\ #b`). */
function misreadComment(script: string, index: NodeIndex): string | undefined {
  for (const node of index.of('comment')) {
    const at = node.startIndex;
    if (at === 0) continue;
    if (!WORD_BREAK.has(script.charAt(at - 1)) || isEscaped(script, at - 1)) {
      return `bash reads ${JSON.stringify(script.slice(at, at + 12))} as part of a word, where cairn sees a comment`;
    }
  }
  return undefined;
}

/** A backslash-blank tree-sitter skips as whitespace: to bash it is a quoted blank inside a word (`echo \ x` is one word, " x"). */
function skippedEscapedBlank(script: string, root: SyntaxNode): string | undefined {
  for (let i = script.indexOf('\\'); i >= 0; i = script.indexOf('\\', i + 1)) {
    const next = script[i + 1];
    if ((next !== ' ' && next !== '\t') || isEscaped(script, i)) continue;
    const at = nodeAt(root, i);
    // Inside a token (a word, a string's text, a pattern) the backslash is part of what tree-sitter read.
    if (!at || at.childCount === 0 || inert(at) || doubleQuoted(at, true)) continue;
    return `bash reads the escaped blank at ${JSON.stringify(script.slice(i, i + 12))} as part of a word, where cairn sees a space`;
  }
  return undefined;
}

/** Two words with nothing between them: bash reads one word (`y=a[\\$x]` is one, tree-sitter may end the first at `[`). */
function splitWord(index: NodeIndex): string | undefined {
  for (const node of index.of('command', 'declaration_command', 'unset_command', 'array')) {
    const words = node.namedChildren.filter((c): c is SyntaxNode => c !== null && !c.type.endsWith('redirect'));
    for (let i = 1; i < words.length; i++) {
      const [prev, next] = [words[i - 1], words[i]];
      if (prev && next && prev.endIndex === next.startIndex) return `bash reads ${JSON.stringify((prev.text + next.text).slice(0, 40))} as one word, where cairn sees two`;
    }
  }
  return undefined;
}

/** Whether bash reads this node inside double quotes (a string, an unquoted here-document), where `'` and `\\ ` are plain characters. */
function doubleQuoted(node: SyntaxNode, itself = false): boolean {
  for (let n = itself ? node : node.parent; n; n = n.parent) {
    if (n.type === 'string' || n.type === 'translated_string') return true;
    if (n.type === 'heredoc_body') return !quotedHeredocBody(n);
    // A substitution starts a new quoting context: `"$(echo '$x')"` holds a real raw string.
    if (n.type === 'command_substitution' || n.type === 'process_substitution') return false;
  }
  return false;
}

/** `"${x:-'$(cmd)'}"`: tree-sitter reads a raw string, bash reads quotes as characters and expands what is between them. */
function quotedRawString(index: NodeIndex): string | undefined {
  for (const node of index.of('raw_string', 'ansi_c_string')) {
    const body = node.text.slice(node.type === 'raw_string' ? 1 : 2, -1);
    if (/[$`"\\]/.test(body) && doubleQuoted(node)) {
      return `inside double quotes bash expands what ${node.text.slice(0, 20)} holds, which cairn read as quoted`;
    }
  }
  return undefined;
}

/** A reason when bash would read the script differently from the tree, or undefined when they agree. */
export function readingDisagreement(script: string, root: SyntaxNode, index: NodeIndex): string | undefined {
  // A carriage return is whitespace to tree-sitter and part of a word to bash.
  if (/[\x00-\x08\x0b-\x1f\x7f]/.test(script)) return 'it contains control characters that bash and cairn read differently';
  const misread = misreadComment(script, index) ?? skippedEscapedBlank(script, root) ?? splitWord(index) ?? quotedRawString(index);
  if (misread) return misread;
  for (const node of index.of('ansi_c_string')) {
    if (node && ansiCEnd(script, node.startIndex) !== node.endIndex) return `bash ends the string ${node.text.slice(0, 20)}… elsewhere`;
  }
  for (let i = script.indexOf('$'); i >= 0; i = script.indexOf('$', i + 1)) {
    const next = script[i + 1];
    if (next !== "'" && next !== '(') continue;
    if (isEscaped(script, i) || inert(nodeAt(root, i))) continue;
    // Inside double quotes `$'` is a dollar and a quote, not an ANSI-C string.
    const at = nodeAt(root, i);
    if (next === "'" && (at?.type === 'string_content' || (at?.type === '$' && at.parent?.type === 'string'))) continue;
    const types = next === "'" ? ['ansi_c_string'] : ['command_substitution', 'arithmetic_expansion'];
    if (!startsNode(root, i, types)) return `cairn cannot see what runs at ${JSON.stringify(script.slice(i, i + 12))}`;
  }
  for (let i = script.indexOf('`'); i >= 0; i = script.indexOf('`', i + 1)) {
    if (isEscaped(script, i) || inert(nodeAt(root, i))) continue;
    if (!startsNode(root, i, ['command_substitution']) && !endsNode(root, i, 'command_substitution')) {
      return `cairn cannot see what runs in the backquotes at ${JSON.stringify(script.slice(i, i + 12))}`;
    }
  }
  for (const redirect of index.of('heredoc_redirect')) {
    const start = redirect?.children.find((c) => c?.type === 'heredoc_start');
    const end = redirect?.children.find((c) => c?.type === 'heredoc_end');
    if (!start) continue;
    const { delimiter } = heredocDelimiter(start.text);
    if (!end || end.text.replace(/^\t+/, '') !== delimiter) return `bash ends the here-document ${start.text} elsewhere`;
  }
  return undefined;
}

/**
 * Inside backquotes bash removes the backslash before `$`, a backquote or a backslash (and `"` within
 * double quotes) and parses the result again: those scripts, decoded, for a second reading.
 */
export function backquotedScripts(index: NodeIndex): string[] {
  const scripts: string[] = [];
  for (const node of index.of('command_substitution')) {
    if (!node || !node.text.startsWith('`') || !node.text.includes('\\')) continue;
    let quoted = false;
    for (let n = node.parent; n; n = n.parent) if (n.type === 'string') quoted = true;
    const body = node.text.slice(1, -1);
    scripts.push(body.replace(quoted ? /\\([$`\\"])/g : /\\([$`\\])/g, '$1'));
  }
  return scripts;
}
