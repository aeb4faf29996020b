import { hiddenEvaluation } from './bash-arith.js';
import { indexNodes } from './bash-nodes.js';
import { handleWords } from './bash-command.js';
import type { BashPart, CommandSink, Stdin } from './bash-command.js';
import { parseBash } from './bash-parser.js';
import type { SyntaxNode } from './bash-parser.js';
import { assignedName, sensitiveVariable } from './bash-risk.js';
import { isBlockDevice, looksLikeForkBomb } from './bash-safety.js';
import type { BuiltinHit } from './bash-safety.js';
import { backquotedScripts, heredocDelimiter, joinContinuations, readingDisagreement } from './bash-verify.js';
import { literalValue, literalWord, wordOf } from './bash-words.js';
import type { Word } from './bash-words.js';

export type { BashPart } from './bash-command.js';
export type { BuiltinHit } from './bash-safety.js';

export interface BashAnalysisDetail {
  parts: BashPart[];
  /** Spellings that are not parts of their own (an `sh -c '...'` wrapper) but that deny and ask rules still see. */
  wrapperForms: string[];
  compound: boolean;
  /** Too dangerous to ever run (`rm -rf /`, `mkfs`, a write to a disk, a fork bomb), whatever the settings. */
  dangerous?: string;
  /** cairn's reading may not be bash's: a syntax error, or a construct tree-sitter is known to misread. */
  unparseable?: boolean;
  unparseableReason?: string;
  /** Set when what runs is computed at run time ($IFS tricks, a command name from an expansion, code hidden in a value). */
  obfuscated?: string;
  /** Redirect targets and output files: each is judged as write_file would be. */
  writesFiles: string[];
  /** Files changed by file programs (cp/mv/rm/touch/sed -i...): they must stay inside the workspace and unprotected. */
  changesFiles: string[];
  /** Path arguments of programs that read, and input redirects. */
  readsFiles: string[];
  /** Every part is read-only and nothing is written, risked, computed or changed: safe to run without asking. */
  readOnly: boolean;
  /** The built-in deny rules the command falls under, at any level of wrapping. */
  builtinHits: BuiltinHit[];
  /** `cd`, `pushd`, `env -C`...: relative paths after it cannot be resolved before it runs. */
  changesDirectory: boolean;
  /** Set when files are written and a later program (not provably read-only) may read them. */
  writesThenRuns?: string;
}

export interface BashAnalysis {
  parts: string[];
  compound: boolean;
  dangerous?: string;
  unparseable?: boolean;
  obfuscated?: string;
  writesFiles: string[];
}

export interface AnalyzeOptions {
  /** Reads a script file run by `source`, `.`, `bash FILE` or `bash < FILE`, or undefined when it cannot. */
  readScript?: (path: string) => Promise<string | undefined>;
}

// `sh -c "bash -c '...'"` nesting deeper than this is not followed; the command is then treated as unparseable.
const MAX_DEPTH = 4;
const MAX_TREE_DEPTH = 400;
// Longer commands are not parsed: tree-sitter alone needs about a second for 100 KB of hostile input.
const MAX_COMMAND_LENGTH = 128 * 1024;
const WRITE_OPERATORS = new Set(['>', '>>', '&>', '&>>', '>|', '<>']);
const SAFE_WRITE_TARGETS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;
const CONTROL_FLOW = new Set(['if_statement', 'for_statement', 'c_style_for_statement', 'while_statement', 'case_statement', 'function_definition', 'subshell']);
// Statements after which discovery order no longer follows execution order.
const REPEATS = new Set(['for_statement', 'c_style_for_statement', 'while_statement', 'function_definition']);

interface Acc {
  detail: BashAnalysisDetail;
  seq: number;
  redirectWrites: Array<{ target: string; seq: number }>;
  nested: Array<{ script: string; risk: string | undefined }>;
  fileScripts: Array<{ path: Word; risk: string | undefined }>;
  globalRisk?: string;
  unordered: boolean;
}

function sinkFor(acc: Acc): CommandSink {
  const d = acc.detail;
  return {
    nextSeq: () => ++acc.seq,
    addPart: (part) => void d.parts.push(part),
    addWrapperForms: (forms) => void d.wrapperForms.push(...forms),
    addNested: (script, risk) => void acc.nested.push({ script, risk }),
    addFileScript: (path, risk) => void acc.fileScripts.push({ path, risk }),
    setDangerous: (reason) => void (d.dangerous ??= reason),
    setObfuscated: (reason) => void (d.obfuscated ??= reason),
    setUnparseable: (reason) => {
      d.unparseable = true;
      d.unparseableReason ??= reason;
    },
    addBuiltinHits: (hits) => void d.builtinHits.push(...hits),
    changesDirectory: () => void (d.changesDirectory = true),
  };
}

function isPipeSibling(node: SyntaxNode | null): boolean {
  const prev = node?.previousSibling;
  return prev?.type === '|' || prev?.type === '|&';
}

/** Where a command's standard input comes from: a literal here-string or here-document, or something cairn cannot see. */
function stdinOf(node: SyntaxNode): Stdin {
  const here = node.namedChildren.find((c) => c?.type === 'herestring_redirect');
  if (here) {
    const value = here.namedChildren[0];
    const text = value ? literalValue(value) : undefined;
    return text === undefined ? { kind: 'other' } : { kind: 'literal', text: `${text}\n` };
  }
  const holder = node.parent?.type === 'redirected_statement' ? node.parent : node;
  if (isPipeSibling(node) || isPipeSibling(holder)) return { kind: 'other' };
  if (holder === node) return { kind: 'none' };
  for (const r of holder.namedChildren) {
    if (r?.type === 'heredoc_redirect') {
      const start = r.children.find((c) => c?.type === 'heredoc_start');
      const body = r.children.find((c) => c?.type === 'heredoc_body');
      const quoted = start ? heredocDelimiter(start.text).quoted : false;
      const plain = body !== undefined && body !== null && body.namedChildren.length === 0 && !body.text.includes('\\');
      if (body && (quoted || plain)) return { kind: 'literal', text: body.text };
      return { kind: 'other' };
    }
    const source = r?.type === 'file_redirect' && r.children.some((c) => c?.type === '<') ? r.childForFieldName('destination') : null;
    if (source) return { kind: 'file', path: wordOf(source) };
  }
  return { kind: 'none' };
}

function handleCommand(node: SyntaxNode, acc: Acc, risk: string | undefined): void {
  const words: Word[] = [];
  const assignments: Word[] = [];
  for (const child of node.namedChildren) {
    if (!child) continue;
    walk(child, acc, risk); // substitutions, $IFS and redirects inside the command
    if (child.type === 'variable_assignment') assignments.push(wordOf(child));
    else if (child.type === 'command_name') words.push(wordOf(child.namedChildren[0] ?? child));
    else if (!child.type.endsWith('_redirect')) words.push(wordOf(child));
  }
  if (words.length === 0) return; // a bare assignment runs nothing by itself
  handleWords(words, assignments, stdinOf(node), sinkFor(acc), risk);
}

function handleRedirect(node: SyntaxNode, acc: Acc): void {
  const operator = node.children.find((c) => c && !c.isNamed)?.type ?? '';
  const destination = node.childForFieldName('destination');
  if (!destination) return;
  const target = wordOf(destination).value;
  if (operator === '<') {
    acc.detail.readsFiles.push(target);
    return;
  }
  const isWrite = WRITE_OPERATORS.has(operator) || (operator === '>&' && !/^(\d+|-)$/.test(destination.text));
  if (!isWrite) return;
  if (isBlockDevice(target)) acc.detail.dangerous ??= `redirect to the block device ${target}`;
  else if (!SAFE_WRITE_TARGETS.test(target)) {
    acc.detail.writesFiles.push(target);
    acc.redirectWrites.push({ target, seq: ++acc.seq });
    acc.detail.compound = true;
  }
}

/** `$(<F)` is bash's `cat F`: a part of its own, so a rule for the command around it does not cover reading F. */
function readsAsCat(node: SyntaxNode, acc: Acc, risk: string | undefined): void {
  const inner = node.namedChildren;
  const redirect = inner.length === 1 && inner[0]?.type === 'file_redirect' && inner[0].children.some((c) => c?.type === '<') ? inner[0] : undefined;
  const source = redirect?.childForFieldName('destination');
  if (!source) return;
  handleWords([literalWord('cat'), wordOf(source)], [], { kind: 'none' }, sinkFor(acc), risk);
}

function callsItself(body: SyntaxNode, name: string): boolean {
  return body.descendantsOfType('command_name').some((n) => n?.text === name);
}

/** A statement-level assignment (`PATH=x; git status`, `export GIT_DIR=...`) changes every later command. */
function noteAssignment(node: SyntaxNode, acc: Acc): void {
  const name = assignedName(node.text);
  if (name !== undefined && sensitiveVariable(name)) acc.globalRisk ??= `it sets ${name}, which changes what later commands run or load`;
}

function walk(node: SyntaxNode, acc: Acc, risk: string | undefined): void {
  const d = acc.detail;
  switch (node.type) {
    case 'command':
      handleCommand(node, acc, risk);
      return;
    case 'file_redirect':
      handleRedirect(node, acc);
      break;
    case 'command_substitution':
    case 'process_substitution':
      d.compound = true;
      readsAsCat(node, acc, risk);
      break;
    case 'variable_name':
      if (node.text === 'IFS') d.obfuscated ??= node.parent?.type === 'variable_assignment' ? 'it changes IFS' : 'it uses $IFS';
      break;
    case 'variable_assignment':
      if (node.parent?.type !== 'command') noteAssignment(node, acc);
      break;
    case 'declaration_command':
    case 'unset_command':
    case 'test_command': {
      const keyword = node.children[0]?.type ?? '';
      const readOnly = node.type === 'test_command';
      const part: BashPart = { text: node.text, forms: [node.text], program: keyword, readOnly, reads: [], writes: [], changes: [], fileOnly: false, seq: ++acc.seq };
      if (risk) part.risk = risk;
      d.parts.push(part);
      break;
    }
    case 'function_definition': {
      const name = node.childForFieldName('name')?.text;
      const body = node.childForFieldName('body');
      if (name && body && callsItself(body, name) && /[|&]/.test(body.text)) d.dangerous ??= 'fork bomb';
      break;
    }
    default:
      break;
  }
  if (CONTROL_FLOW.has(node.type)) d.compound = true;
  if (REPEATS.has(node.type) || node.children.some((c) => c?.type === '&')) acc.unordered = true;
  for (const child of node.namedChildren) if (child) walk(child, acc, risk);
}

async function analyzeInto(original: string, depth: number, acc: Acc, risk: string | undefined): Promise<void> {
  const d = acc.detail;
  if (depth > MAX_DEPTH) {
    d.unparseable = true;
    d.unparseableReason ??= 'scripts are nested too deeply';
    return;
  }
  if (original.length > MAX_COMMAND_LENGTH) {
    d.unparseable = true;
    d.unparseableReason ??= `it is longer than ${MAX_COMMAND_LENGTH} characters, too long to analyze`;
    return;
  }
  let script = original;
  let tree = await parseBash(script);
  const joined = joinContinuations(script, tree.rootNode);
  if (joined !== undefined) {
    tree.delete();
    script = joined;
    tree = await parseBash(script);
  }
  try {
    const root = tree.rootNode;
    // Still walk a tree with ERROR nodes: a `sudo` in the readable part must still deny.
    if (root.hasError) {
      d.unparseable = true;
      d.unparseableReason ??= 'the command could not be parsed';
      if (looksLikeForkBomb(script)) d.dangerous ??= 'fork bomb';
    }
    const index = indexNodes(root);
    // The walks below recurse once per level: a tree deeper than this is not read at all.
    if (index.maxDepth > MAX_TREE_DEPTH) {
      d.unparseable = true;
      d.unparseableReason ??= 'it is nested too deeply to analyze';
      return;
    }
    const disagreement = readingDisagreement(script, root, index);
    if (disagreement) {
      d.unparseable = true;
      d.unparseableReason ??= disagreement;
    }
    const hidden = hiddenEvaluation(index);
    if (hidden) d.obfuscated ??= hidden;
    for (const inner of backquotedScripts(index)) acc.nested.push({ script: inner, risk });
    walk(root, acc, risk);
  } finally {
    tree.delete();
  }
  const nested = acc.nested.splice(0);
  for (const inner of nested) await analyzeInto(inner.script, depth + 1, acc, inner.risk);
}

async function runFileScripts(acc: Acc, options: AnalyzeOptions, depth: number): Promise<void> {
  const d = acc.detail;
  for (const { path, risk } of acc.fileScripts.splice(0)) {
    const written = d.writesFiles.length > 0 || d.changesFiles.length > 0 || d.parts.some((p) => p.writes.length + p.changes.length > 0);
    const content = path.literal && !written && !d.changesDirectory && depth < MAX_DEPTH ? await options.readScript?.(path.value) : undefined;
    if (content === undefined) {
      d.obfuscated ??= written
        ? `it runs the script ${path.value} after writing files, so cairn cannot know what the script will contain`
        : `it runs the script ${path.value}, whose commands cairn could not read`;
      continue;
    }
    d.compound = true;
    await analyzeInto(content, depth + 1, acc, risk);
    await runFileScripts(acc, options, depth + 1);
  }
}

function writesThenRuns(acc: Acc): string | undefined {
  const d = acc.detail;
  const writes = [
    ...acc.redirectWrites,
    ...d.parts.filter((p) => p.writes.length > 0 || (p.changes.length > 0 && p.program !== 'mkdir')).map((p) => ({ target: [...p.writes, ...p.changes][0]!, seq: p.seq })),
  ];
  if (writes.length === 0 || d.parts.length < 2) return undefined;
  const first = writes.reduce((a, b) => (b.seq < a.seq ? b : a));
  const runs = d.parts.find((p) => !p.readOnly && !p.fileOnly && (acc.unordered || p.seq > first.seq));
  return runs ? `it writes ${first.target} and then runs ${JSON.stringify(runs.text)}, which may read what was written` : undefined;
}

/** Splits a shell command into the simple commands it runs, looking through wrappers and `sh -c` scripts. */
export async function analyzeBash(command: string, options: AnalyzeOptions = {}): Promise<BashAnalysisDetail> {
  const detail: BashAnalysisDetail = {
    parts: [], wrapperForms: [], compound: false, writesFiles: [], changesFiles: [], readsFiles: [], readOnly: false, builtinHits: [], changesDirectory: false,
  };
  const acc: Acc = { detail, seq: 0, redirectWrites: [], nested: [], fileScripts: [], unordered: false };
  await analyzeInto(command, 0, acc, undefined);
  await runFileScripts(acc, options, 0);
  for (const part of detail.parts) {
    if (acc.globalRisk && !part.risk) part.risk = acc.globalRisk;
    detail.writesFiles.push(...part.writes);
    detail.changesFiles.push(...part.changes);
    detail.readsFiles.push(...part.reads);
  }
  if (detail.parts.length > 1) detail.compound = true;
  const chain = writesThenRuns(acc);
  if (chain) detail.writesThenRuns = chain;
  detail.readOnly =
    detail.parts.length > 0 &&
    detail.parts.every((p) => p.readOnly && p.risk === undefined) &&
    detail.writesFiles.length === 0 &&
    detail.changesFiles.length === 0 &&
    !detail.obfuscated && !detail.unparseable && !detail.dangerous && !detail.changesDirectory && detail.builtinHits.length === 0;
  return detail;
}

export async function analyzeBashCommand(command: string): Promise<BashAnalysis> {
  const detail = await analyzeBash(command);
  const result: BashAnalysis = { parts: detail.parts.map((p) => p.text), compound: detail.compound, writesFiles: detail.writesFiles };
  if (detail.dangerous) result.dangerous = detail.dangerous;
  if (detail.unparseable) result.unparseable = true;
  if (detail.obfuscated) result.obfuscated = detail.obfuscated;
  return result;
}
