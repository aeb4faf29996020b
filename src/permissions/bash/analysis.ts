import { hiddenEvaluation } from './arith.js';
import { indexNodes } from './nodes.js';
import { parseBash } from './parser.js';
import { looksLikeForkBomb } from './safety.js';
import { backquotedScripts, joinContinuations, readingDisagreement } from './verify.js';
import { walk } from './walk.js';
import type { Acc } from './walk.js';
import type { BashAnalysisDetail } from './analysis-detail.js';

export type { BashPart } from './command.js';
export type { BuiltinHit } from './safety.js';
export type { BashAnalysisDetail } from './analysis-detail.js';

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
    ...d.parts.flatMap((p) => {
      const target = p.writes[0] ?? (p.program !== 'mkdir' ? p.changes[0] : undefined);
      return target === undefined ? [] : [{ target, seq: p.seq }];
    }),
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
