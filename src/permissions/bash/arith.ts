import type { SyntaxNode } from './parser.js';
import type { NodeIndex } from './nodes.js';
import { literalValue } from './words.js';

/**
 * Bash evaluates some text as code that no tree shows: an arithmetic context (`$((x))`, `$[x]`,
 * `(( ))`, `let`, array subscripts, `[[ x -eq 1 ]]`, `declare -i`) evaluates a variable's value as an
 * expression, and `a[$(cmd)]` inside that value runs cmd; `${!x}` and `${x@P}` do the same through a
 * name or a prompt string. This finds such evaluations of values cairn cannot vouch for: values set
 * at run time in the command itself (read, a substitution, a loop over computed words). Variables the
 * command does not set come from the user's environment, which the model cannot choose.
 */

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/g;
// Variables bash itself sets from text the command chose: `$_` is the last word of the previous command, REPLY what read read...
const SET_BY_BASH = [
  '_', 'REPLY', 'MAPFILE', 'OPTARG', 'BASH_REMATCH', 'BASH_COMMAND', 'BASH_ARGV', 'BASH_ARGV0', 'BASH_EXECUTION_STRING', 'COPROC', 'DIRSTACK',
  'FUNCNAME', 'BASH_SOURCE', 'READLINE_LINE', 'READLINE_ARGUMENT', 'COMP_LINE', 'COMP_WORDS', 'COMPREPLY', 'BASH_ALIASES', 'BASH_CMDS',
];
const ARITH_TEST = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);
// Builtins whose arguments name variables they set.
const SETS_NAMES = new Set(['read', 'mapfile', 'readarray', 'getopts', 'wait', 'select']);
// Builtins whose name arguments may carry a subscript that is evaluated (`unset 'a[$(cmd)]'`).
const TAKES_NAMES = new Set(['read', 'mapfile', 'readarray', 'unset', 'printf', 'test', '[', 'declare', 'typeset', 'local', 'export', 'readonly', 'getopts', 'wait']);

interface Scan {
  /** Names whose value is set at run time by the command, or '*' when anything may be (eval, source). */
  unsafe: Set<string>;
  /** Names declared integer (`declare -i`): every assignment to them is evaluated. */
  integer: Set<string>;
  literalAssignments: Array<{ name: string; value: string }>;
}

function commandName(node: SyntaxNode): string | undefined {
  const name = node.childForFieldName('name') ?? node.namedChildren.find((c) => c?.type === 'command_name') ?? null;
  return name ? literalValue(name.namedChildren[0] ?? name) : undefined;
}

function argsOf(node: SyntaxNode): SyntaxNode[] {
  return node.namedChildren.filter((c): c is SyntaxNode => c !== null && c.type !== 'command_name' && c.type !== 'variable_assignment' && !c.type.endsWith('redirect'));
}

function assignedName(node: SyntaxNode): string | undefined {
  const first = node.namedChildren[0];
  if (!first) return undefined;
  if (first.type === 'subscript') return first.namedChildren[0]?.text;
  return first.text;
}

function collect(index: NodeIndex): Scan {
  const scan: Scan = { unsafe: new Set(SET_BY_BASH), integer: new Set(), literalAssignments: [] };
  for (const node of index.of('variable_assignment')) {
    const name = node && assignedName(node);
    if (!node || !name) continue;
    const value = node.childForFieldName('value');
    const literal = value ? literalValue(value) : '';
    if (literal === undefined) scan.unsafe.add(name);
    else scan.literalAssignments.push({ name, value: literal });
  }
  for (const node of index.of('for_statement')) {
    const name = node?.childForFieldName('variable')?.text;
    if (!node || !name) continue;
    const values = node.childrenForFieldName('value').filter((v): v is SyntaxNode => v !== null);
    const literals = values.flatMap((v) => literalValue(v) ?? []);
    if (values.length === 0 || literals.length < values.length) scan.unsafe.add(name);
    else for (const value of literals) scan.literalAssignments.push({ name, value });
  }
  for (const node of index.of('command', 'declaration_command')) {
    if (!node) continue;
    const name = node.type === 'command' ? commandName(node) : node.children[0]?.type;
    if (name === 'eval' || name === 'source' || name === '.') scan.unsafe.add('*');
    const args = argsOf(node).map((a) => literalValue(a) ?? '');
    if (name && SETS_NAMES.has(name)) for (const a of args) if (!a.startsWith('-')) scan.unsafe.add(a.replace(/\[.*$/s, ''));
    if (name === 'printf') {
      const at = args.indexOf('-v');
      const target = at >= 0 ? args[at + 1] : undefined;
      if (target) scan.unsafe.add(target.replace(/\[.*$/s, ''));
    }
    if (node.type === 'declaration_command' && args.some((a) => /^[-+][a-zA-Z]*i/.test(a))) {
      for (const c of node.namedChildren) {
        const n = c?.type === 'variable_assignment' ? assignedName(c) : c?.type === 'variable_name' ? c.text : undefined;
        if (n) scan.integer.add(n);
      }
    }
  }
  for (const node of index.of('expansion')) {
    // `${x:=value}` and `${x=value}` assign.
    if (node && node.children.some((c) => c?.type === ':=' || c?.type === '=')) scan.unsafe.add(node.namedChildren[0]?.text ?? '*');
  }
  // A literal that names an unsafe variable is unsafe too (`x=y; y=$(...); $((x))`): spread along those names.
  const dependents = new Map<string, string[]>();
  const queue: string[] = [];
  for (const { name, value } of scan.literalAssignments) {
    if (value.includes('$') || value.includes('`')) queue.push(name);
    for (const ref of value.match(IDENTIFIER) ?? []) dependents.set(ref, [...(dependents.get(ref) ?? []), name]);
  }
  for (const name of queue) scan.unsafe.add(name);
  const pending = [...scan.unsafe];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    for (const dependent of dependents.get(name) ?? []) {
      if (!scan.unsafe.has(dependent)) {
        scan.unsafe.add(dependent);
        pending.push(dependent);
      }
    }
  }
  return scan;
}

/** Why evaluating this arithmetic text could run code, or undefined. */
function arithmeticRisk(node: SyntaxNode, scan: Scan): string | undefined {
  const names: string[] = [];
  const visit = (n: SyntaxNode): string | undefined => {
    switch (n.type) {
      case 'command_substitution':
      case 'process_substitution':
        return `the output of ${n.text} is evaluated as arithmetic`;
      case 'special_variable_name':
        return /^[#?$!-]$/.test(n.text) ? undefined : `arithmetic on the positional parameter $${n.text} can run code`;
      case 'variable_name':
        if (/^\d+$/.test(n.text)) return `arithmetic on the positional parameter $${n.text} can run code`;
        names.push(n.text);
        return undefined;
      case 'word':
      case 'string_content':
      case 'raw_string':
      case 'ansi_c_string': {
        // Quoted or escaped text reaches arithmetic as it is, and bash expands `a[$(cmd)]` subscripts in it again.
        const text = n.type === 'string_content' ? n.text : (literalValue(n) ?? n.text);
        if (text.includes('$') || text.includes('`')) return `arithmetic evaluates ${n.text}, and bash runs the substitutions in its array subscripts`;
        names.push(...(text.match(IDENTIFIER) ?? []));
        return undefined;
      }
      default:
        for (const c of n.namedChildren) {
          const why = c ? visit(c) : undefined;
          if (why) return why;
        }
        return undefined;
    }
  };
  const why = visit(node);
  if (why) return why;
  const hit = names.find((n) => scan.unsafe.has(n) || (scan.unsafe.has('*') && !/^\d/.test(n)));
  return hit === undefined ? undefined : `arithmetic evaluates ${hit}, whose value is set at run time and can hide code`;
}

/** Whether a test expression is inside `[[ ]]`, where -eq and friends evaluate their operands as arithmetic. */
function inDoubleBracket(node: SyntaxNode): boolean {
  for (let n = node.parent; n; n = n.parent) {
    if (n.type === 'test_command') return n.children[0]?.type === '[[';
    if (!/expression$/.test(n.type)) return false;
  }
  return false;
}

/** `name[...$...]`: a name whose subscript expands something (checked without backtracking). */
function evaluatedSubscript(value: string): boolean {
  const open = /^[A-Za-z_]\w*\[/.exec(value)?.[0].length;
  if (open === undefined) return false;
  const inner = value.slice(open, value.lastIndexOf(']'));
  return inner.includes('$') || inner.includes('`');
}

/** The pieces of an array element `[index]=value` that make up its index (tree-sitter reads the element as one word). */
function arraySubscript(element: SyntaxNode | null): SyntaxNode[] {
  if (!element || !element.text.startsWith('[')) return [];
  const pieces = element.type === 'concatenation' ? element.namedChildren.filter((c): c is SyntaxNode => c !== null) : [element];
  // The index ends at the first unquoted `]`: a quoted one (`[']'...]`) is part of the index.
  const end = pieces.findIndex((p, i) => p.type === 'word' && p.text.slice(i === 0 ? 1 : 0).includes(']'));
  return end < 0 ? pieces : pieces.slice(0, end + 1);
}

function arithmeticContexts(index: NodeIndex, scan: Scan): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  const push = (n: SyntaxNode | null | undefined): void => void (n && out.push(n));
  for (const n of index.of('arithmetic_expansion', 'c_style_for_statement', 'compound_statement', 'subscript', 'expansion', 'binary_expression', 'command', 'variable_assignment', 'array')) {
    if (!n) continue;
    if (n.type === 'arithmetic_expansion') push(n);
    else if (n.type === 'c_style_for_statement') n.namedChildren.filter((c) => c?.type !== 'do_group').forEach(push);
    else if (n.type === 'compound_statement' && n.children[0]?.type === '((') push(n);
    else if (n.type === 'subscript') n.namedChildren.slice(1).forEach(push);
    else if (n.type === 'expansion') {
      // `${x:offset:length}`: both are arithmetic.
      const colon = n.children.findIndex((c) => c?.type === ':');
      if (colon >= 0) n.children.slice(colon + 1).forEach(push);
    } else if (n.type === 'binary_expression' && inDoubleBracket(n)) {
      if (n.children.some((c) => c?.type === 'test_operator' && ARITH_TEST.has(c.text))) push(n);
    } else if (n.type === 'command' && commandName(n) === 'let') argsOf(n).forEach(push);
    else if (n.type === 'array') n.namedChildren.forEach((e) => arraySubscript(e).forEach(push));
    else if (n.type === 'variable_assignment' && scan.integer.has(assignedName(n) ?? '')) push(n.childForFieldName('value'));
  }
  return out;
}

/** A reason when the script evaluates text as code that the analysis cannot see, or undefined. */
export function hiddenEvaluation(index: NodeIndex): string | undefined {
  const scan = collect(index);
  for (const n of index.of('expansion')) {
    if (!n) continue;
    const ops = n.children.map((c) => c?.type ?? '');
    if (ops.includes('@') && /@P\}$/.test(n.text)) return `${n.text} expands a prompt string, which runs the commands in it`;
    if (ops[1] === '!') {
      const listing = /^\$\{!\w+(\*|@|\[[@*]\])\}$/.test(n.text);
      const name = n.namedChildren[0]?.type === 'subscript' ? n.namedChildren[0].namedChildren[0]?.text : n.namedChildren[0]?.text;
      if (!listing && name !== undefined && (scan.unsafe.has(name) || scan.unsafe.has('*') || /^\d+$/.test(name))) {
        return `${n.text} expands the variable named by ${name}, which is set at run time and can hide code`;
      }
    }
  }
  for (const n of index.of('command', 'declaration_command', 'unset_command', 'test_command')) {
    if (!n) continue;
    const name = n.type === 'command' ? commandName(n) : n.children[0]?.type;
    if (name === 'declare' || name === 'typeset' || name === 'local') {
      if (argsOf(n).some((a) => /^[-+][a-zA-Z]*n/.test(a.text))) return `${name} -n makes a name reference, which can evaluate code`;
    }
    if (name === 'mapfile' || name === 'readarray') {
      if (argsOf(n).some((a) => /^-[a-zA-Z]*C/.test(a.text))) return `${name} -C runs a callback`;
    }
    if (name === 'alias' && argsOf(n).some((a) => a.text.includes('='))) return 'it defines an alias, which changes what later commands run';
    if (name === 'hash' && argsOf(n).some((a) => /^-[a-zA-Z]*p/.test(a.text))) return 'hash -p changes which program a name runs';
    if (name === 'enable') return 'enable changes which builtins run';
    if (name && (TAKES_NAMES.has(name) || n.type !== 'command')) {
      // A name argument with a subscript (`unset 'a[$(cmd)]'`, `[[ -v 'a[$(cmd)]' ]]`) is evaluated.
      const candidates = n.type === 'test_command' ? n.descendantsOfType(['raw_string', 'string', 'word', 'concatenation', 'ansi_c_string']) : argsOf(n);
      const bad = candidates.find((a) => {
        const v = a ? literalValue(a) : undefined;
        return v !== undefined && evaluatedSubscript(v);
      });
      if (bad) return `${bad.text} has a subscript that runs code when ${name} evaluates it`;
    }
  }
  // `declare -i y; read y`: every value an integer variable gets is evaluated, however it gets it.
  for (const name of scan.integer) {
    if (scan.unsafe.has(name) || scan.unsafe.has('*')) return `the integer variable ${name} gets a value set at run time, which bash evaluates as arithmetic`;
  }
  for (const ctx of arithmeticContexts(index, scan)) {
    const why = arithmeticRisk(ctx, scan);
    if (why) return why;
  }
  return undefined;
}
