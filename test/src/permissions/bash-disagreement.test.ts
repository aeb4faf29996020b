import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeBash } from '../../../src/permissions/bash/analysis.js';
import { decideBash } from '../../helpers/permission-tools.js';

// Issue 29 item 3: where cairn's reading and bash's differ, the answer is "ask", never "allow". Each generated
// command runs in real bash in a temp dir; when bash ran the marker (`touch MARK`), cairn must not have let it run.

const MARK = 'touch MARK';

/** Whether real bash, given this command, ran the marker. */
function bashRunsMarker(command: string): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-disagree-'));
  try {
    const run = spawnSync('bash', ['--norc', '--noprofile', '-c', command], { cwd: dir, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' }, input: '', timeout: 5000 });
    if (run.error) throw run.error;
    return existsSync(join(dir, 'MARK'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// The payload in every quoting bash has: each spelling reaches arithmetic as `a[$(touch MARK)]` or `1+a[...]`.
const SUBSCRIPTS: Array<[string, string]> = [
  ['single-quoted', `'a[$(${MARK})]'`],
  ['single-quoted sum', `'1+a[$(${MARK})]'`],
  ['double-quoted, escaped $', `"a[\\$(${MARK})]"`],
  ['escaped word', 'a[\\$\\(touch\\ MARK\\)]'],
  ['ANSI-C', `$'a[\\x24(${MARK})]'`],
  ['backquotes single-quoted', `'a[\`${MARK}\`]'`],
];

// Arithmetic contexts: Q is where the operand goes.
const ARITHMETIC: Array<[string, (q: string) => string]> = [
  ['$(( ))', (q) => `echo $((${q}))`],
  ['"$(( ))"', (q) => `echo "$((${q}))"`],
  ['"$[ ]"', (q) => `echo "$[${q}]"`],
  ['"${a[index]}"', (q) => `echo "\${a[${q}]}"`],
  ['$[ ]', (q) => `echo $[${q}]`],
  ['(( ))', (q) => `((${q})); echo`],
  ['let', (q) => `let y=${q}; echo`],
  ['declare -i', (q) => `declare -i y=${q}; echo`],
  ['declare -i, later assignment', (q) => `declare -i y; y=${q}; echo`],
  ['declare -i, then read', (q) => `declare -i y; read y <<< ${q}; echo`],
  ['declare -i, then for', (q) => `declare -i y; for y in ${q}; do :; done; echo`],
  ['declare -i, then ${y:=}', (q) => `declare -i y; : \${y:=${q}}; echo`],
  ['declare -i, then mapfile', (q) => `declare -i y; mapfile y <<< ${q}; echo`],
  ['local -i from an argument', (q) => `f() { local -i y=$1; }; f ${q}; echo`],
  ['[[ -eq ]] right', (q) => `[[ 1 -eq ${q} ]]; echo`],
  ['[[ -lt ]] left', (q) => `[[ ${q} -lt 1 ]]; echo`],
  ['${x:offset}', (q) => `x=abc; echo \${x:${q}}`],
  ['${x:0:length}', (q) => `x=abc; echo "\${x:0:${q}}"`],
  ['${a[index]}', (q) => `echo \${a[${q}]}`],
  ['a[index]=', (q) => `a[${q}]=1; echo`],
  ['array element [index]=', (q) => `b=([${q}]=1); echo`],
  ['for (( ))', (q) => `for ((i=${q}; 0; )); do :; done; echo`],
  ['via a variable, $((x))', (q) => `x=${q}; echo $((x))`],
  ['via a variable, [[ -eq ]]', (q) => `x=${q}; [[ $x -eq 1 ]]; echo`],
  ['via a variable, ${a[x]}', (q) => `x=${q}; echo \${a[x]}`],
];

// Parameter expansions whose word holds the substitution, inside and outside double quotes and in a here-document.
const OPERATORS = [':-', '-', ':=', '=', '+', ':+', '#', '%', '/a/'];
const WORDS: Array<[string, string]> = [
  ['single-quoted', `'$(${MARK})'`],
  ['single-quoted backquotes', `'\`${MARK}\`'`],
  ['ANSI-C', `$'$(${MARK})'`],
];
const EXPANSION_CONTEXTS: Array<[string, (e: string) => string]> = [
  ['unquoted', (e) => `echo ${e}`],
  ['double-quoted', (e) => `echo "${e}"`],
  ['locale string', (e) => `echo $"${e}"`],
  ['here-document', (e) => `cat <<EOF\n${e}\nEOF`],
];

// Comments and escaped blanks: where does the word end, and does `#` start a comment?
const COMMENTS: Array<[string, string]> = [
  ['escaped space then #', `echo \\ #$(${MARK})`],
  ['escaped tab then #', `echo \\\t#$(${MARK})`],
  ['word, escaped space, #', `echo a\\ #$(${MARK})`],
  ['escaped space, # and backquotes', `echo \\ #\`${MARK}\``],
  ['line continuation then #', `echo a\\\n#$(${MARK})`],
  ['# inside double quotes after an escaped space', `echo "\\ #$(${MARK})"`],
  ['escaped space inside ${:-}', `echo \${x:-\\ #$(${MARK})}`],
  ['# after a brace', `echo {#$(${MARK})`],
  ['escaped space after ;', `true;\\ #$(${MARK})`],
  ['escaped space in a pipeline', `echo |\\ #$(${MARK})`],
  ['escaped space as the command', `\\ #$(${MARK})`],
  ['escaped space before a here-document word', `cat <<EOF\n\\ $(${MARK})\nEOF`],
];

// Where the arithmetic command itself sits: at the top, in a substitution, in a compound command.
const NESTING: Array<[string, (c: string) => string]> = [
  ['', (c) => c],
  [' in $( )', (c) => `echo "$(${c})"`],
  [' in if/then', (c) => `if true; then ${c}; fi`],
];

interface Generated {
  family: string;
  command: string;
}

function generate(): Generated[] {
  const out: Generated[] = [];
  for (const [ctx, wrap] of ARITHMETIC) {
    for (const [q, sub] of SUBSCRIPTS) {
      for (const [where, nest] of NESTING) out.push({ family: `arithmetic ${ctx}${where}, ${q}`, command: nest(wrap(sub)) });
    }
  }
  for (const [ctx, wrap] of EXPANSION_CONTEXTS) {
    for (const op of OPERATORS) {
      for (const [w, word] of WORDS) {
        // `+` expands its word only when x is set.
        const set = op.includes('+') || op === '#' || op === '%' || op === '/a/' ? 'x=a; ' : '';
        out.push({ family: `\${x${op}${w}} ${ctx}`, command: `${set}${wrap(`\${x${op}${word}}`)}` });
      }
    }
  }
  for (const [placement, command] of COMMENTS) out.push({ family: `comment: ${placement}`, command });
  return out;
}

// Allow rules for everything cairn can see in these commands, so only a misreading can stop them.
const RULES = { allow: ['Bash(echo:*)', 'Bash(cat:*)', 'Bash(let:*)', 'Bash(declare:*)', 'Bash(true:*)', 'Bash(read:*)'] };

let workspace: string;
beforeAll(() => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-disagree-ws-')));
});
afterAll(() => {
  rmSync(workspace, { recursive: true, force: true });
});

const generated = generate();
const runs = new Map(generated.map((g) => [g.command, bashRunsMarker(g.command)] as const));
const ran = generated.filter((g) => runs.get(g.command));

describe('generated commands that bash and cairn may read differently', () => {
  it('the marker works, and most generated shapes really run it in bash', () => {
    expect(bashRunsMarker(MARK)).toBe(true);
    expect(generated.length).toBeGreaterThanOrEqual(400);
    expect(ran.length).toBeGreaterThanOrEqual(300);
  });

  it.each(ran.map((g) => [`${g.family}: ${JSON.stringify(g.command)}`, g] as const))('bash runs the marker, so cairn asks: %s', async (_name, g) => {
    const detail = await analyzeBash(g.command);
    expect(detail.readOnly).toBe(false);
    for (const lift of [undefined, ['recursive-rm', 'sudo']]) {
      const result = await decideBash(workspace, { command: g.command, rules: RULES, expected: 'ask', ...(lift ? { lift } : {}) });
      expect(result.behavior, result.reason).not.toBe('allow');
    }
    // Every mode that asks or denies (bypassPermissions asks nothing; the OS sandbox contains it).
    for (const mode of ['acceptEdits', 'plan', 'dontAsk'] as const) {
      const result = await decideBash(workspace, { command: g.command, rules: RULES, mode, expected: 'ask' });
      expect(result.behavior, `${mode}: ${result.reason}`).not.toBe('allow');
    }
  });
});

// Shapes bash reads as plain text: they run no marker, and cairn still lets them run (it does not ask for everything).
const AGREED = [
  `echo \${x:-'$(${MARK})'}`,
  `echo a #$(${MARK})`,
  `echo "\${x:-'a'}"`,
  'x=3; echo $((x * 2))',
  `echo 'a[$(${MARK})]'`,
  `echo a\\ b #$(${MARK})`,
  `echo "$(echo '$x')"`,
  'b=([1]=x); echo ${b[1]}',
];

describe('commands both read the same way', () => {
  it.each(AGREED)('%s: bash runs no marker and cairn allows it', async (command) => {
    expect(bashRunsMarker(command)).toBe(false);
    const result = await decideBash(workspace, { command, rules: RULES, expected: 'allow' });
    expect(result.behavior, result.reason).toBe('allow');
  });
});
