import { codeRisk } from './code-risk.js';
import { findFacts } from './find.js';
import { readFacts } from './readonly.js';
import { envRisk, optionRisk, sensitiveVariable, assignedName } from './risk.js';
import { builtinHits, dangerousCommand, interpreterHits } from './safety.js';
import type { BuiltinHit } from './safety.js';
import { baseName, shellWords, joinWords, literalWord } from './words.js';
import type { Word } from './words.js';
import { unwrapOnce } from './wrappers.js';
import { FILE_ONLY, writeFacts } from './writes.js';
import { itemAt } from '../../util/invariant.js';

export interface BashPart {
  /** The simple command with wrappers and harmless leading assignments looked through: what allow rules see. */
  text: string;
  /** The same words quoted as bash reads them (`node cli.js '2 weeks'`): what the user is shown. */
  shown: string;
  /** Every spelling of the part (with and without wrappers, by path and by base name): what deny and ask rules see. */
  forms: string[];
  /** The base name of the program that runs, after every wrapper; absent when it is computed at run time. */
  program?: string;
  /** The analysis proves the part only reads and prints (`ls`, `git status`, `grep x f`). */
  readOnly: boolean;
  /** Why no prefix allow rule may vouch for the part (an environment or option that changes what runs). */
  risk?: string;
  /** Path arguments the part reads. */
  reads: string[];
  /** The program's arguments as bash will pass them (a computed word as written, `$HOME/x`, with literal false); absent for builtins like `declare`. */
  args?: { value: string; literal: boolean; glob?: boolean }[];
  /** Output files it writes, judged as write_file would be (`tee F`, `sort -o F`, `--output=F`). */
  writes: string[];
  /** Files it changes, creates or removes (`cp`'s destination, `rm`'s targets, `sed -i`'s files). */
  changes: string[];
  /** Only changes the files it names: runs nothing else that could read what was just written. */
  fileOnly: boolean;
  /** Order of discovery, close to the order of execution: a write before a later program is a chain. */
  seq: number;
}

/** Where a command's standard input comes from, for shells that read their script from it. */
export type Stdin = { kind: 'literal'; text: string } | { kind: 'file'; path: Word } | { kind: 'other' } | { kind: 'none' };

/** What handling one simple command needs from the analysis around it. */
export interface CommandSink {
  nextSeq(): number;
  addPart(part: BashPart): void;
  addWrapperForms(forms: string[]): void;
  addNested(script: string, risk: string | undefined): void;
  addFileScript(path: Word, risk: string | undefined): void;
  setDangerous(reason: string): void;
  setObfuscated(reason: string): void;
  setUnparseable(reason: string): void;
  addBuiltinHits(hits: BuiltinHit[]): void;
  changesDirectory(): void;
}

// Safety net: wrappers nest only so deep before the command is treated as unreadable.
const MAX_UNWRAP = 16;
const GIT_GLOBAL_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix']);

/** Extra spellings deny rules match: the base name for a path (`/bin/rm` as `rm`), git without its global options. */
function extraForms(words: readonly Word[]): string[] {
  const first = words[0];
  if (!first) return [];
  const forms: string[] = [];
  const name = baseName(first.value);
  const rest = words.slice(1);
  if (name !== first.value) forms.push(joinWords([literalWord(name), ...rest]));
  if (name === 'git' || name === 'npm' || name === 'pnpm' || name === 'yarn') {
    let i = 0;
    for (let w = rest[i]?.value; w?.startsWith('-'); w = rest[i]?.value) i += GIT_GLOBAL_WITH_VALUE.has(w) && name === 'git' ? 2 : 1;
    if (i > 0) forms.push(joinWords([literalWord(name), ...rest.slice(i)]));
  }
  return forms;
}

/** Handles one simple command: looks through its wrappers, then judges the program it runs. */
export function handleWords(
  words: Word[],
  assignments: Word[],
  stdin: Stdin,
  sink: CommandSink,
  inherited: string | undefined,
  placeholder?: string,
): void {
  const kept = assignments.filter((a) => sensitiveVariable(assignedName(a.value) ?? a.value));
  const forms = [joinWords([...kept, ...words])];
  const env = [...assignments];
  const writes: string[] = [];
  let current = words;
  let appends = false;
  // Text the runner replaces with its input (xargs -I, find's {}): inside a script it is code cairn cannot see.
  let replace = placeholder;
  for (let depth = 0; ; depth++) {
    forms.push(joinWords(current), ...extraForms(current));
    // tree-sitter reads `coproc NAME { ...; }` as a simple command followed by others.
    if (current[0]?.value === 'coproc' && current.some((w) => w.literal && /^[{}()]$/.test(w.value))) {
      sink.setUnparseable('coproc with a compound command is read differently by cairn and bash');
    }
    const danger = dangerousCommand(current);
    if (danger) sink.setDangerous(danger);
    sink.addBuiltinHits(builtinHits(current, appends));
    if (depth >= MAX_UNWRAP) {
      sink.setUnparseable('wrappers are nested too deeply');
      break;
    }
    const next = unwrapOnce(current);
    const risk = (): string | undefined => envRisk(env) ?? inherited;
    if (next.kind === 'none') break;
    if (next.kind === 'opaque') {
      sink.setObfuscated(next.reason);
      break;
    }
    if (next.kind === 'command') {
      env.push(...next.effects.env);
      writes.push(...next.effects.writes);
      if (next.effects.chdir) sink.changesDirectory();
      appends ||= next.effects.appends === true;
      replace = next.effects.replace ?? replace;
      current = next.words;
      continue;
    }
    sink.addWrapperForms(forms);
    if (next.kind === 'script') {
      if (replace !== undefined && next.script.includes(replace)) sink.setObfuscated(`its input is put into the script ${JSON.stringify(next.script)}`);
      else if (next.literal) sink.addNested(next.script, risk());
      else sink.setObfuscated(`the script ${joinWords(current)} runs is computed at run time`);
    } else if (next.kind === 'stdin-script') {
      if (stdin.kind === 'literal') sink.addNested(stdin.text, risk());
      else if (stdin.kind === 'file') sink.addFileScript(stdin.path, risk());
      else sink.setObfuscated(`${baseName(itemAt(current, 0, 'command word').value)} runs a script read from its input, which cairn cannot see`);
    } else {
      // The file may change between this check and the run: running it is never read-only, and a rule must name it.
      sink.addFileScript(next.path, risk());
      const reads = values([next.path]);
      sink.addPart(partOf(forms, kept, current, { readOnly: false, reads, writes, changes: [], program: baseName(itemAt(current, 0, 'command word').value) }, sink.nextSeq()));
      return;
    }
    if (writes.length > 0) sink.addPart(partOf(forms, kept, current, { readOnly: false, reads: [], writes, changes: [] }, sink.nextSeq()));
    return;
  }
  judgeProgram(current, { kept, env, writes, appends, replace, forms, inherited }, sink);
}

interface Looked {
  kept: Word[];
  env: Word[];
  writes: string[];
  appends: boolean;
  replace: string | undefined;
  forms: string[];
  inherited: string | undefined;
}

function partOf(forms: string[], kept: Word[], words: Word[], facts: { readOnly: boolean; reads: string[]; writes: string[]; changes: string[]; risk?: string; program?: string; fileOnly?: boolean }, seq: number): BashPart {
  const text = joinWords([...kept, ...words]);
  const shown = shellWords([...kept, ...words]);
  const all = [...new Set([...forms, text])];
  const args = words.slice(1).map((w) => ({ value: w.value, literal: w.literal, ...(w.glob ? { glob: true } : {}) }));
  const part: BashPart = { text, shown, forms: all, readOnly: facts.readOnly, reads: facts.reads, args, writes: facts.writes, changes: facts.changes, fileOnly: facts.fileOnly ?? false, seq };
  if (facts.program !== undefined) part.program = facts.program;
  if (facts.risk !== undefined) part.risk = facts.risk;
  return part;
}

// Standard streams and the null device: writing them changes no file.
const NOT_A_FILE = /^(-|\/dev\/(null|stdout|stderr|tty|fd\/\d+))$/;
const values = (words: readonly Word[]): string[] => words.map((w) => w.value).filter((v) => v !== '' && !NOT_A_FILE.test(v));

/** Judges the program a simple command runs once its wrappers are looked through. */
function judgeProgram(words: Word[], looked: Looked, sink: CommandSink): void {
  const first = itemAt(words, 0, 'command word');
  const args = words.slice(1);
  if (!first.literal) {
    sink.setObfuscated(first.glob ? `the command name ${first.value} is a pattern bash expands at run time` : `the command name ${first.value} is computed at run time`);
  } else if (looked.replace !== undefined && first.value.includes(looked.replace)) {
    sink.setObfuscated(`xargs puts its input in the command name ${first.value}`);
  }
  const name = first.literal ? baseName(first.value) : undefined;
  if (name === 'cd' || name === 'pushd' || name === 'popd') sink.changesDirectory();
  const trapped = args[0]?.value === '--' ? args[1] : args[0];
  if (name === 'trap' && trapped && !trapped.value.startsWith('-') && args.length > 1) {
    if (trapped.literal) sink.addNested(trapped.value, looked.inherited);
    else sink.setObfuscated('the trap runs a command computed at run time');
  }
  if (name !== undefined) sink.addBuiltinHits(interpreterHits(name, args));
  const reads: string[] = [];
  const writes = [...looked.writes];
  const changes: string[] = [];
  let readOnly = name !== undefined && looked.writes.length === 0;
  let risk = envRisk(looked.env) ?? looked.inherited;
  const seq = sink.nextSeq(); // before any -exec command: find starts first
  if (name === 'find') {
    const facts = findFacts(args);
    for (const command of facts.commands) {
      // `{}` stands for what find found under its start points: judge the command on paths there.
      const found = (start: Word): Word => ({ ...start, value: `${start.value.replace(/\/+$/, '')}/{}` });
      const words = command.flatMap((w) => (w.value === '{}' ? facts.starts.map(found) : [w]));
      if (words.length > 0) handleWords(words, [], { kind: 'none' }, sink, looked.inherited, '{}');
      else sink.setUnparseable('find -exec without a command');
    }
    if (facts.deletes) {
      looked.forms.push(joinWords([literalWord('rm'), ...facts.starts]));
      sink.addBuiltinHits([{ id: 'recursive-rm', detail: `${joinWords(words)}: find -delete removes everything it matches, like a recursive rm` }]);
      changes.push(...values(facts.starts));
    }
    writes.push(...values(facts.writes));
    reads.push(...values(facts.starts), ...values(facts.reads));
    readOnly &&= facts.commands.length === 0 && !facts.deletes && facts.writes.length === 0 && !facts.follows;
  } else if (name !== undefined) {
    const r = readFacts(name, args);
    const w = writeFacts(name, args);
    reads.push(...values(r.reads), ...values(w.reads ?? []));
    writes.push(...values(w.writes));
    changes.push(...values(w.changes));
    readOnly &&= r.readOnly && w.writes.length === 0 && w.changes.length === 0 && !w.risk;
    risk ??= w.risk ?? optionRisk(name, args) ?? codeRisk(name, args, looked.appends);
    if (name === 'command' && /^-[vV]$/.test(args[0]?.value ?? '')) readOnly = true;
  }
  // A pattern in any argument lists its directory (`echo ~/.ssh/*`): that is a read of the directory.
  reads.push(...args.filter((a) => a.glob === true && !reads.includes(a.value)).map((a) => a.value));
  if (risk !== undefined || looked.appends) readOnly = false;
  const facts = { readOnly, reads, writes, changes, fileOnly: name !== undefined && FILE_ONLY.has(name), ...(risk ? { risk } : {}), ...(name ? { program: name } : {}) };
  sink.addPart(partOf(looked.forms, looked.kept, words, facts, seq));
}
