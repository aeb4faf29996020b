import type { PermissionMode } from '../events.js';
import type { AnyTool } from '../tools/tool.js';
import { analyzeBash } from './bash-analysis.js';
import type { BashAnalysisDetail } from './bash-analysis.js';
import { matchBashSpecifier, ruleCoversTool } from './rule-match.js';
import type { PathBases } from './rule-match.js';
import type { ParsedRule } from './rule-parse.js';
import { bashSuggestion } from './suggestions.js';
import type { PermissionCheck } from './types.js';
import { allow, ask, deny, quoteList } from './verdicts.js';

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

// Targets whose real location cannot be known before the command runs.
const UNRESOLVABLE_TARGET = /[$`*?[{]/;

/** The bash side of the decision chain: safety -> deny -> ask -> bypass -> allow rules -> mode -> ask. */
export async function checkCommand(ctx: CommandCheckContext, tool: AnyTool, command: string): Promise<PermissionCheck> {
  let analysis: BashAnalysisDetail;
  try {
    analysis = await analyzeBash(command);
  } catch (err) {
    return ask(`cairn could not analyze the command: ${(err as Error).message}`, []);
  }
  const mode = ctx.mode();
  if (analysis.dangerous) return deny(`blocked as dangerous: ${analysis.dangerous}`);
  const rules = ctx.rules();
  const forms = [command, ...analysis.wrapperForms, ...analysis.parts.flatMap((p) => p.forms)];
  const hits = (rule: ParsedRule): boolean =>
    ruleCoversTool(rule, tool) && (rule.specifier === undefined || forms.some((f) => matchBashSpecifier(rule.specifier!, f)));
  const denied = rules.deny.find(hits);
  if (denied) return deny(`denied by rule ${denied.text}`);
  const asked = rules.ask.find(hits);
  if (asked) return ask(`matches the ask rule ${asked.text}`, []);
  if (analysis.unparseable) return ask('the command could not be parsed, so cairn cannot tell what it runs', []);
  if (mode === 'bypassPermissions') return allow('bypassPermissions mode');
  const bare = rules.allow.find((r) => r.specifier === undefined && ruleCoversTool(r, tool));
  if (bare) return allow(`allowed by rule ${bare.text}`);

  const allowedBy = (part: string): ParsedRule | undefined =>
    rules.allow.find((r) => r.specifier !== undefined && ruleCoversTool(r, tool) && matchBashSpecifier(r.specifier, part));
  const notAllowed = analysis.parts.filter((p) => !allowedBy(p.text)).map((p) => p.text);
  const badWrites = await writesNeedingPermission(ctx, analysis);
  if (!analysis.obfuscated && analysis.parts.length > 0 && notAllowed.length === 0 && badWrites.length === 0) {
    const used = [...new Set(analysis.parts.map((p) => allowedBy(p.text)!.text))];
    return allow(`allowed by rule ${used.join(', ')}`);
  }
  if (mode === 'plan') return deny('plan mode: commands do not run until the plan is approved');

  if (analysis.obfuscated) return ask(`cairn cannot tell what this command runs: ${analysis.obfuscated}`, []);
  const suggestions = notAllowed.map((p) => bashSuggestion(tool.name, p)).filter((s): s is string => s !== undefined);
  if (analysis.parts.length === 0) return ask('the command runs nothing a rule can match', []);
  if (notAllowed.length > 0) {
    const what = analysis.compound ? `compound command: ${quoteList(notAllowed)} not allowed` : `${quoteList(notAllowed)} is not allowed`;
    return ask(badWrites.length > 0 ? `${what}; ${badWrites.join('; ')}` : what, suggestions);
  }
  return ask(badWrites.join('; '), suggestions);
}

/** File writes by redirection that write_file would not be allowed to make, each as a reason. */
async function writesNeedingPermission(ctx: CommandCheckContext, analysis: BashAnalysisDetail): Promise<string[]> {
  const changesDirectory = analysis.parts.some((p) => /^(cd|pushd|popd)(\s|$)/.test(p.text));
  const reasons: string[] = [];
  for (const target of analysis.writesFiles) {
    if (UNRESOLVABLE_TARGET.test(target) || (changesDirectory && !target.startsWith('/') && !target.startsWith('~'))) {
      reasons.push(`writes to ${target}, which cannot be resolved before it runs`);
      continue;
    }
    const verdict = await ctx.checkWrite(target);
    if (verdict.behavior !== 'allow') reasons.push(`writes ${target}: ${verdict.reason}`);
  }
  return reasons;
}
