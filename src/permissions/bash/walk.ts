import { handleWords } from './command.js';
import type { BashPart, CommandSink, Stdin } from './command.js';
import type { BashAnalysisDetail } from './analysis-detail.js';
import type { SyntaxNode } from './parser.js';
import { assignedName, sensitiveVariable } from './risk.js';
import { isBlockDevice } from './safety.js';
import { heredocDelimiter } from './verify.js';
import { literalValue, literalWord, wordOf } from './words.js';
import type { Word } from './words.js';

// The walk over one parsed script: simple commands, redirects, substitutions and statement-level assignments.

const WRITE_OPERATORS = new Set(['>', '>>', '&>', '&>>', '>|', '<>']);
const SAFE_WRITE_TARGETS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;
const CONTROL_FLOW = new Set(['if_statement', 'for_statement', 'c_style_for_statement', 'while_statement', 'case_statement', 'function_definition', 'subshell']);
// Statements after which discovery order no longer follows execution order.
const REPEATS = new Set(['for_statement', 'c_style_for_statement', 'while_statement', 'function_definition']);

/** What the walk gathers over the scripts of one command (the command itself, nested `sh -c` scripts, sourced files). */
export interface Acc {
  detail: BashAnalysisDetail;
  seq: number;
  redirectWrites: Array<{ target: string; seq: number }>;
  nested: Array<{ script: string; risk: string | undefined }>;
  fileScripts: Array<{ path: Word; risk: string | undefined }>;
  globalRisk?: string;
  unordered: boolean;
}

export function sinkFor(acc: Acc): CommandSink {
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

export function walk(node: SyntaxNode, acc: Acc, risk: string | undefined): void {
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
      const part: BashPart = { text: node.text, shown: node.text, forms: [node.text], program: keyword, readOnly, reads: [], writes: [], changes: [], fileOnly: false, seq: ++acc.seq };
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
