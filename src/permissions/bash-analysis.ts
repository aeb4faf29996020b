import { parseBash } from './bash-parser.js';
import type { SyntaxNode } from './bash-parser.js';
import { dangerousCommand, isBlockDevice, looksLikeForkBomb } from './bash-safety.js';
import { wordOf } from './bash-words.js';
import type { Word } from './bash-words.js';
import { unwrapOnce } from './bash-wrappers.js';

export interface BashPart {
  /** The simple command with wrappers and harmless leading assignments looked through: what allow rules see. */
  text: string;
  /** Every spelling of the part (with and without wrappers): what deny and ask rules see. */
  forms: string[];
}

export interface BashAnalysisDetail {
  parts: BashPart[];
  /** Spellings that are not parts of their own (an `sh -c '...'` wrapper) but that deny and ask rules still see. */
  wrapperForms: string[];
  compound: boolean;
  dangerous?: string;
  unparseable?: boolean;
  /** Set when what runs is computed at run time ($IFS tricks, a command name from an expansion): no prefix rule can vouch for it. */
  obfuscated?: string;
  writesFiles: string[];
}

export interface BashAnalysis {
  parts: string[];
  compound: boolean;
  dangerous?: string;
  unparseable?: boolean;
  obfuscated?: string;
  writesFiles: string[];
}

// `sh -c "bash -c '...'"` nesting deeper than this is not followed; the command is then treated as unparseable.
const MAX_DEPTH = 4;

// Leading assignments that change which program runs or what it loads are kept in the part, so a prefix rule never matches them.
const SENSITIVE_ASSIGNMENT = /^(PATH|LD_\w+|DYLD_\w+|BASH_ENV|ENV|IFS|SHELLOPTS|BASHOPTS|PROMPT_COMMAND|NODE_OPTIONS|PYTHONPATH|PYTHONSTARTUP|PERL5OPT|PERL5LIB|RUBYOPT|GIT_\w+|EDITOR|VISUAL|PAGER)=/;

const WRITE_OPERATORS = new Set(['>', '>>', '&>', '&>>', '>|', '<>']);
const SAFE_WRITE_TARGETS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;
const CONTROL_FLOW = new Set(['if_statement', 'for_statement', 'c_style_for_statement', 'while_statement', 'case_statement', 'function_definition', 'subshell']);

interface Acc extends BashAnalysisDetail {
  nested: string[];
}

function join(words: Word[]): string {
  return words.map((w) => w.value).join(' ');
}

function setDangerous(acc: Acc, reason: string | undefined): void {
  if (reason && !acc.dangerous) acc.dangerous = reason;
}

function handleCommand(node: SyntaxNode, acc: Acc): void {
  const words: Word[] = [];
  const kept: Word[] = [];
  for (const child of node.namedChildren) {
    if (!child) continue;
    walk(child, acc); // substitutions, $IFS and redirects inside the command
    if (child.type === 'variable_assignment') {
      if (SENSITIVE_ASSIGNMENT.test(child.text)) kept.push({ value: child.text, literal: false });
    } else if (child.type === 'command_name') {
      const name = child.namedChildren[0] ?? child;
      const word = wordOf(name);
      if (!word.literal) acc.obfuscated ??= `the command name ${name.text} is computed at run time`;
      words.push(word);
    } else if (!child.type.endsWith('_redirect')) {
      words.push(wordOf(child));
    }
  }
  if (words.length === 0) return; // a bare assignment runs nothing by itself
  const forms = [join([...kept, ...words])];
  let current = words;
  for (;;) {
    setDangerous(acc, dangerousCommand(current));
    const next = unwrapOnce(current);
    if (next.kind === 'none') break;
    if (next.kind === 'script') {
      acc.wrapperForms.push(...forms);
      acc.nested.push(next.script);
      acc.compound = true;
      return;
    }
    current = next.words;
    forms.push(join(current));
  }
  const text = join([...kept, ...current]);
  if (!forms.includes(text)) forms.push(text);
  acc.parts.push({ text, forms });
}

function handleRedirect(node: SyntaxNode, acc: Acc): void {
  const operator = node.children.find((c) => c && !c.isNamed)?.type ?? '';
  const destination = node.childForFieldName('destination');
  if (!destination) return;
  const isWrite = WRITE_OPERATORS.has(operator) || (operator === '>&' && !/^(\d+|-)$/.test(destination.text));
  if (!isWrite) return;
  const target = wordOf(destination).value;
  if (isBlockDevice(target)) setDangerous(acc, `redirect to the block device ${target}`);
  else if (!SAFE_WRITE_TARGETS.test(target)) {
    acc.writesFiles.push(target);
    acc.compound = true;
  }
}

function callsItself(body: SyntaxNode, name: string): boolean {
  return body.descendantsOfType('command_name').some((n) => n?.text === name);
}

function walk(node: SyntaxNode, acc: Acc): void {
  switch (node.type) {
    case 'command':
      handleCommand(node, acc);
      return;
    case 'file_redirect':
      handleRedirect(node, acc);
      break;
    case 'command_substitution':
    case 'process_substitution':
      acc.compound = true;
      break;
    case 'variable_name':
      if (node.text === 'IFS' && node.parent?.type !== 'variable_assignment') acc.obfuscated ??= 'it uses $IFS';
      if (node.text === 'IFS' && node.parent?.type === 'variable_assignment') acc.obfuscated ??= 'it changes IFS';
      break;
    case 'declaration_command':
    case 'unset_command':
    case 'test_command':
      acc.parts.push({ text: node.text, forms: [node.text] });
      break;
    case 'function_definition': {
      const name = node.childForFieldName('name')?.text;
      const body = node.childForFieldName('body');
      if (name && body && callsItself(body, name) && /[|&]/.test(body.text)) setDangerous(acc, 'fork bomb');
      break;
    }
    default:
      break;
  }
  if (CONTROL_FLOW.has(node.type)) acc.compound = true;
  for (const child of node.namedChildren) if (child) walk(child, acc);
}

async function analyzeInto(script: string, depth: number, acc: Acc): Promise<void> {
  if (depth > MAX_DEPTH) {
    acc.unparseable = true;
    return;
  }
  if (looksLikeForkBomb(script)) setDangerous(acc, 'fork bomb');
  const tree = await parseBash(script);
  try {
    // Still walk a tree with ERROR nodes: a `sudo` in the readable part must still deny.
    if (tree.rootNode.hasError) acc.unparseable = true;
    walk(tree.rootNode, acc);
  } finally {
    tree.delete();
  }
  const nested = acc.nested.splice(0);
  for (const inner of nested) await analyzeInto(inner, depth + 1, acc);
}

/** Splits a shell command into the simple commands it runs, looking through wrappers and `sh -c` scripts. */
export async function analyzeBash(command: string): Promise<BashAnalysisDetail> {
  const acc: Acc = { parts: [], wrapperForms: [], compound: false, writesFiles: [], nested: [] };
  await analyzeInto(command, 0, acc);
  if (acc.parts.length > 1) acc.compound = true;
  const { nested: _nested, ...detail } = acc;
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
