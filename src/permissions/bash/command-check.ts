import type { PermissionMode } from '../../events.js';
import type { AnyTool } from '../../tools/tool.js';
import { analyzeBash } from './analysis.js';
import { cdPrelude } from './cd-prelude.js';
import type { BashAnalysisDetail, BashPart } from './analysis.js';
import { BUILTIN_DENY } from '../rules/builtin-deny.js';
import { argsReachOutside, judgeWrites, readScriptFile, readsOutside } from './command-paths.js';
import { deniedRead } from './command-reads.js';
import type { WriteTarget } from './command-paths.js';
import { matchBashSpecifier, matchPathSpecifier, ruleCoversTool } from '../rules/match.js';
import type { PathBases } from '../rules/match.js';
import type { ParsedRule } from '../rules/parse.js';
import { bashSuggestion } from '../rules/suggestions.js';
import type { PermissionCheck } from '../types.js';
import { allow, allowReadOnly, ask, BY_MODE, BY_SANDBOX, byRule, classifiableIf, deny, quoteList, userOnlyIf } from '../verdicts.js';

export interface RuleLists {
  allow: ParsedRule[];
  ask: ParsedRule[];
  deny: ParsedRule[];
}

/** What the command side of the chain needs from the checker. */
export interface CommandCheckContext {
  mode(): PermissionMode;
  rules(): RuleLists;
  bases(): Promise<PathBases>;
  /** The verdict write_file would get for this target (workspace, protected paths, Edit rules, mode). */
  checkWrite(target: string): Promise<PermissionCheck>;
  /** Ids of the built-in deny rules in force (recursive rm, sudo...): every mode, bypass included, unless a setting lifts one. */
  builtinDeny(): ReadonlySet<string>;
}

const READ_PROBE = { name: 'read_file', kind: 'read' as const };

export const PLAN_MODE_DENIAL = 'plan mode: commands do not run until the plan is approved';

/**
 * The bash side of the decision chain: catastrophic -> built-in deny -> deny rules -> unknowable under
 * deny rules -> denied writes and reads -> ask rules -> bypass -> plan (read-only only) -> what cannot
 * be read -> each part allowed by a rule or read-only -> writes and chains -> ask.
 * `sandboxed`: the command runs in the OS sandbox with auto-allow on; it is allowed right after the
 * ask rules (so every deny, the built-in denies, the dangerous check and the ask rules come first),
 * unless it visibly writes outside the workspace or into a protected path, which is asked as before.
 */
export async function checkCommand(ctx: CommandCheckContext, tool: AnyTool, command: string, sandboxed = false): Promise<PermissionCheck> {
  const b = await ctx.bases();
  const whole = await judgeCommand(ctx, tool, command, sandboxed, b);
  if (whole.behavior !== 'ask') return whole;
  // `cd sub && npm run lint`: the rest judged from the folder, as if run there (cd-prelude.ts).
  const cd = await cdPrelude(command, b);
  if (!cd) return whole;
  const cdForm = `cd ${cd.target}`;
  const asked = ctx.rules().ask.some((r) => ruleCoversTool(r, tool) && (r.specifier === undefined || matchBashSpecifier(r.specifier, cdForm)));
  if (asked) return whole;
  const rest = await judgeCommand(ctx, tool, cd.rest, sandboxed, { ...b, cwd: cd.dir });
  if (rest.behavior === 'allow') return { ...rest, reason: `${cdForm} (a folder in the workspace), then ${rest.reason}` };
  return rest.behavior === 'deny' ? rest : whole;
}

async function judgeCommand(ctx: CommandCheckContext, tool: AnyTool, command: string, sandboxed: boolean, b: PathBases): Promise<PermissionCheck> {
  const mode = ctx.mode();
  const rules = ctx.rules();
  const readable = (real: string): boolean =>
    !rules.deny.some((r) => r.specifier !== undefined && ruleCoversTool(r, READ_PROBE) && matchPathSpecifier(r.specifier, real, b));
  let analysis: BashAnalysisDetail;
  try {
    analysis = await analyzeBash(command, { readScript: (path) => readScriptFile(path, b, readable) });
  } catch (err) {
    const why = `cairn could not analyze the command: ${(err as Error).message}`;
    return mode === 'plan' ? deny(`${PLAN_MODE_DENIAL} (${why})`) : ask(why, []);
  }
  if (analysis.dangerous) return deny(`blocked as dangerous: ${analysis.dangerous}`);
  const builtin = ctx.builtinDeny();
  const hit = analysis.builtinHits.find((h) => builtin.has(h.id));
  if (hit) {
    const rule = BUILTIN_DENY.find((r) => r.id === hit.id);
    const by = { kind: 'builtin' as const, rule: rule?.text ?? hit.id };
    return deny(rule ? `denied by the built-in rule ${rule.text}: ${hit.detail}. ${rule.reason}` : `denied by the built-in rule ${hit.id}: ${hit.detail}`, by);
  }

  const forms = [command, ...analysis.wrapperForms, ...analysis.parts.flatMap((p) => p.forms)];
  const hits = (rule: ParsedRule): boolean => {
    const { specifier } = rule;
    return ruleCoversTool(rule, tool) && (specifier === undefined || forms.some((f) => matchBashSpecifier(specifier, f)));
  };
  const denied = rules.deny.find(hits);
  if (denied) return deny(`denied by rule ${denied.text}`, byRule('deny', denied));
  // A deny rule cannot be checked against a program cairn cannot name: with deny rules in force, that is a deny.
  const unknowable = analysis.obfuscated ?? (analysis.unparseable ? (analysis.unparseableReason ?? 'it could not be parsed') : undefined);
  const denyRules = [
    ...rules.deny.filter((r) => r.specifier !== undefined && ruleCoversTool(r, tool)).map((r) => r.text),
    ...BUILTIN_DENY.filter((r) => builtin.has(r.id)).map((r) => r.text),
  ];
  if (unknowable !== undefined && denyRules.length > 0) {
    return deny(`cairn cannot tell what this command runs (${unknowable}), so it cannot check it against the deny rules ${denyRules.join(', ')}`);
  }

  // Plan mode runs nothing but read-only commands; the read deny rules below still hold for those.
  if (mode === 'plan' && !analysis.readOnly) return deny(PLAN_MODE_DENIAL, BY_MODE);
  const targets: WriteTarget[] = [
    ...analysis.writesFiles.map((target) => ({ target, strict: true })),
    ...analysis.changesFiles.map((target) => ({ target, strict: false })),
  ];
  const writes = await judgeWrites(targets, analysis.changesDirectory, (t) => ctx.checkWrite(t), b);
  if (writes.denied) return deny(writes.denied);
  const reads = [
    ...analysis.parts.flatMap((p) => p.reads.map((target) => ({ target, ...(p.program ? { program: p.program } : {}) }))),
    ...analysis.readsFiles.filter((t) => !analysis.parts.some((p) => p.reads.includes(t))).map((target) => ({ target })),
  ];
  const readDenied = await deniedRead(reads, rules.deny, b);
  if (readDenied) return deny(readDenied);
  const asked = rules.ask.find(hits);
  if (asked) return ask(`matches the ask rule ${asked.text}`, [], undefined, byRule('ask', asked));
  if (mode === 'bypassPermissions') return allow('bypassPermissions mode', BY_MODE);
  if (sandboxed && mode !== 'plan') {
    // Writes the analysis can see outside the workspace or into protected paths are still asked (the sandbox would refuse them anyway).
    const loose = await judgeWrites(targets.map((t) => ({ ...t, strict: false })), analysis.changesDirectory, (t) => ctx.checkWrite(t), b);
    if (loose.reasons.length === 0) {
      return allow('runs in the sandbox, which keeps its writes in the workspace and its network to approved domains (sandbox.autoAllowBashIfSandboxed)', BY_SANDBOX);
    }
  }

  const readOnlyWhy = analysis.readOnly ? await readsOutside(analysis.readsFiles, analysis.changesDirectory, b) : 'it is not read-only';
  if (mode === 'plan') return readOnlyWhy === undefined ? allowReadOnly('plan mode: read-only command') : deny(PLAN_MODE_DENIAL, BY_MODE);
  if (analysis.unparseable) return ask(`the command could not be parsed as bash would read it, so cairn cannot tell what it runs (${unknowable})`, []);
  if (analysis.obfuscated) return ask(`cairn cannot tell what this command runs: ${analysis.obfuscated}`, []);
  if (analysis.parts.length === 0) return ask('the command runs nothing a rule can match', []);

  const bare = rules.allow.find((r) => r.specifier === undefined && ruleCoversTool(r, tool));
  if (bare) {
    // A bare rule vouches for every program, but not for reaching outside the workspace or into protected files.
    const loose = await judgeWrites(targets.map((t) => ({ ...t, strict: false })), analysis.changesDirectory, (t) => ctx.checkWrite(t), b);
    return loose.reasons.length === 0 ? allow(`allowed by rule ${bare.text}`, byRule('allow', bare)) : userOnlyIf(classifiableIf(ask(loose.reasons.join('; '), []), loose.userOnly !== true), loose.userOnly === true);
  }
  if (readOnlyWhy === undefined) return allowReadOnly('read-only command inside the workspace');

  // Input redirects (`cat < F`, `$(<F)`) belong to no part's arguments: a part runs as read-only only if they stay inside too.
  const redirectReads = analysis.readsFiles.filter((t) => !analysis.parts.some((p) => p.reads.includes(t)));
  const redirectWhy = await readsOutside(redirectReads, analysis.changesDirectory, b);
  const verdicts = await Promise.all(analysis.parts.map((p) => judgePart(p, rules.allow, tool, analysis.changesDirectory, b, redirectWhy)));
  // Every part has a verdict; were one missing, its part would count as not allowed.
  const notAllowed = analysis.parts.filter((_p, i) => verdicts[i]?.rule === undefined && !verdicts[i]?.readOnly);
  const problems = [...writes.reasons, ...(analysis.writesThenRuns ? [analysis.writesThenRuns] : [])];
  if (notAllowed.length === 0 && problems.length === 0) {
    const usedRules = verdicts.flatMap((v) => (v.rule ? [v.rule] : []));
    const used = [...new Set(usedRules.map((r) => r.text))];
    const writesNote = targets.length > 0 ? '; its writes are allowed as file edits' : '';
    if (used.length > 0) return allow(`allowed by rule ${used.join(', ')}${writesNote}`, byRule('allow', ...usedRules));
    return targets.length === 0 && !analysis.writesThenRuns ? allowReadOnly('read-only programs') : allow(`read-only programs${writesNote}`);
  }
  const suggestions = notAllowed
    .filter((p) => p.risk === undefined)
    .map((p) => bashSuggestion(tool.commandRulesOf ?? tool.name, p.text))
    .filter((s): s is string => s !== undefined);
  if (notAllowed.length > 0) {
    const risky = notAllowed.find((p) => p.risk !== undefined);
    // Quoted as it will run (`node cli.js '2 weeks'`), not as the words rules match.
    const list = quoteList(notAllowed.map((p) => p.shown));
    const [only] = notAllowed;
    // Worded as the request it is: the user is asked, nothing has been refused.
    const what = risky
      ? `${JSON.stringify(risky.shown)} needs approval each time: ${risky.risk}`
      : only && notAllowed.length === 1 && !analysis.compound
        ? `needs your approval: no rule allows ${only.shown}`
        : `needs your approval: no rule allows ${list} in this compound command`;
    const why = verdicts.find((v) => v.readsWhy)?.readsWhy;
    // Programs no rule names, reaching past the workspace: auto mode's classifier may answer, unless a write is the user's alone.
    return userOnlyIf(classifiableIf(ask([what, ...(why ? [why] : []), ...problems].join('; '), suggestions), writes.userOnly !== true), writes.userOnly === true || risky !== undefined);
  }
  return userOnlyIf(classifiableIf(ask(problems.join('; '), suggestions), writes.userOnly !== true), writes.userOnly === true);
}

interface PartVerdict {
  rule?: ParsedRule;
  readOnly: boolean;
  readsWhy?: string;
}

/** A part runs if a prefix rule allows it (and nothing in it changes what runs), or if it is provably read-only inside the workspace. */
async function judgePart(
  part: BashPart,
  allowRules: readonly ParsedRule[],
  tool: AnyTool,
  changesDirectory: boolean,
  b: PathBases,
  redirectWhy: string | undefined,
): Promise<PartVerdict> {
  const rule = part.risk === undefined ? allowRules.find((r) => r.specifier !== undefined && ruleCoversTool(r, tool) && matchBashSpecifier(r.specifier, part.text)) : undefined;
  // A rule covers the part only as far as its arguments stay in the workspace; beyond, the part is judged as if no rule named it.
  const outside = rule ? await argsReachOutside(part.args ?? [], changesDirectory, b) : undefined;
  if (rule && outside === undefined) return { rule, readOnly: part.readOnly };
  if (outside !== undefined && (!part.readOnly || part.risk !== undefined || changesDirectory)) return { readOnly: false, readsWhy: outside };
  if (!part.readOnly || part.risk !== undefined || changesDirectory) return { readOnly: false };
  const readsWhy = redirectWhy ?? (await readsOutside(part.reads, changesDirectory, b));
  return readsWhy === undefined ? { readOnly: true } : { readOnly: false, readsWhy };
}
