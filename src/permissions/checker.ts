import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { PermissionMode } from '../events.js';
import type { AnyTool } from '../tools/tool.js';
import { analyzeBash } from './bash-analysis.js';
import type { BashAnalysisDetail } from './bash-analysis.js';
import { isInside, realpathLongestPrefix, resolveToolPath } from './paths.js';
import type { ResolvedPath } from './paths.js';
import { matchBashSpecifier, matchPathSpecifier, ruleCoversTool } from './rule-match.js';
import type { PathBases } from './rule-match.js';
import { parseRule } from './rule-parse.js';
import type { ParsedRule } from './rule-parse.js';
import { addAllowRulesToFile, settingsPaths } from './settings.js';
import { bashSuggestion, pathSuggestion } from './suggestions.js';
import type { PermissionCheck, PermissionChecker, PermissionRuleSet } from './types.js';

export interface PermissionCheckerOptions {
  workspace: string;
  mode: PermissionMode;
  rules: PermissionRuleSet;
  cairnHome: string;
  /** The home directory for `~` in rules and paths; defaults to os.homedir(). */
  homeDir?: string;
}

interface Rules {
  allow: ParsedRule[];
  ask: ParsedRule[];
  deny: ParsedRule[];
}

const allow = (reason: string): PermissionCheck => ({ behavior: 'allow', reason });
const deny = (reason: string): PermissionCheck => ({ behavior: 'deny', reason });
const ask = (reason: string, suggestions: string[]): PermissionCheck => ({ behavior: 'ask', reason, suggestions: [...new Set(suggestions)] });

const quoteList = (items: string[]): string => items.map((i) => JSON.stringify(i)).join(', ');

// Targets whose real location cannot be known before the command runs.
const UNRESOLVABLE_TARGET = /[$`*?[{]/;

/**
 * The decision chain: bash safety -> deny rules -> ask rules -> bypass -> allow rules -> read-only
 * tools -> mode -> ask. It only decides; the loop asks the user (or denies when nobody can answer).
 */
export function createPermissionChecker(opts: PermissionCheckerOptions): PermissionChecker {
  let mode = opts.mode;
  const configured: Rules = { allow: opts.rules.allow.map(parseRule), ask: opts.rules.ask.map(parseRule), deny: opts.rules.deny.map(parseRule) };
  const added: ParsedRule[] = []; // session and freshly saved project rules, both allow
  const localSettings = settingsPaths({ workspace: opts.workspace, cairnHome: opts.cairnHome }).local;
  let basesPromise: Promise<PathBases> | undefined;

  const bases = (): Promise<PathBases> =>
    (basesPromise ??= Promise.all([realpathLongestPrefix(opts.workspace), realpathLongestPrefix(opts.homeDir ?? homedir())]).then(
      ([workspace, home]) => ({ workspace, home }),
    ));
  const current = (): Rules => ({ allow: [...configured.allow, ...added], ask: configured.ask, deny: configured.deny });

  // Cairn's own permission settings: writing them would let the agent grant itself anything.
  const isProtected = (real: string, b: PathBases): boolean =>
    dirname(real) === join(b.workspace, '.cairn') && basename(real).startsWith('settings');

  async function checkCommand(tool: AnyTool, command: string): Promise<PermissionCheck> {
    let analysis: BashAnalysisDetail;
    try {
      analysis = await analyzeBash(command);
    } catch (err) {
      return ask(`cairn could not analyze the command: ${(err as Error).message}`, []);
    }
    if (analysis.dangerous) return deny(`blocked as dangerous: ${analysis.dangerous}`);
    const rules = current();
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
    const badWrites = await writesNeedingPermission(analysis);
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

  /** File writes by redirection that are not plainly inside the workspace, each as a reason. */
  async function writesNeedingPermission(analysis: BashAnalysisDetail): Promise<string[]> {
    const b = await bases();
    const changesDirectory = analysis.parts.some((p) => /^(cd|pushd|popd)(\s|$)/.test(p.text));
    const reasons: string[] = [];
    for (const target of analysis.writesFiles) {
      if (UNRESOLVABLE_TARGET.test(target) || (changesDirectory && !target.startsWith('/') && !target.startsWith('~'))) {
        reasons.push(`writes to ${target}, which cannot be resolved before it runs`);
        continue;
      }
      const real = (await resolveToolPath(target, b.workspace, b.home)).real;
      if (!isInside(real, b.workspace)) reasons.push(`writes ${target}, outside the workspace`);
      else if (isProtected(real, b)) reasons.push(`writes ${target}, cairn's permission settings`);
    }
    return reasons;
  }

  async function checkPaths(tool: AnyTool, input: unknown): Promise<PermissionCheck> {
    const b = await bases();
    let paths: ResolvedPath[];
    try {
      paths = await Promise.all((tool.paths?.(input) ?? []).map((p) => resolveToolPath(p, b.workspace, b.home)));
    } catch (err) {
      return ask(`cannot resolve the path: ${(err as Error).message}`, []);
    }
    const rules = current();
    // Deny and ask also look at the path as written, in case a symlink would carry it out of a denied pattern.
    const hits = (rule: ParsedRule): boolean =>
      ruleCoversTool(rule, tool) &&
      (rule.specifier === undefined ||
        paths.some((p) => matchPathSpecifier(rule.specifier!, p.real, b) || matchPathSpecifier(rule.specifier!, p.lexical, b)));
    const denied = rules.deny.find(hits);
    if (denied) return deny(`denied by rule ${denied.text}`);
    const asked = rules.ask.find(hits);
    if (asked) return ask(`matches the ask rule ${asked.text}`, []);
    if (mode === 'bypassPermissions') return allow('bypassPermissions mode');
    const bare = rules.allow.find((r) => r.specifier === undefined && ruleCoversTool(r, tool));
    if (bare) return allow(`allowed by rule ${bare.text}`);

    const readOnly = tool.isReadOnly?.(input) === true;
    const allowedBy = (p: ResolvedPath): ParsedRule | undefined =>
      readOnly || !isProtected(p.real, b)
        ? rules.allow.find((r) => r.specifier !== undefined && ruleCoversTool(r, tool) && matchPathSpecifier(r.specifier, p.real, b))
        : undefined;
    const uncovered = paths.filter((p) => !allowedBy(p));
    if (paths.length > 0 && uncovered.length === 0) {
      return allow(`allowed by rule ${[...new Set(paths.map((p) => allowedBy(p)!.text))].join(', ')}`);
    }
    const outside = uncovered.filter((p) => !isInside(p.real, b.workspace));
    const suggest = async (): Promise<string[]> =>
      uncovered.length === 0
        ? [tool.name]
        : Promise.all(uncovered.map(async (p) => pathSuggestion(tool, p.real, await isDirectory(p.real), b)));
    const outsideReason = (): string =>
      `${quoteList(outside.map((p) => p.given))} ${outside.length === 1 ? 'is' : 'are'} outside the workspace`;

    if (readOnly) return outside.length === 0 ? allow('read-only') : ask(outsideReason(), await suggest());
    if (mode === 'plan') return deny(`plan mode: ${tool.name} would make changes; nothing changes until the plan is approved`);
    const touchesSettings = uncovered.some((p) => isProtected(p.real, b));
    if (mode === 'acceptEdits' && tool.kind === 'edit' && outside.length === 0 && !touchesSettings) {
      return allow('acceptEdits: file edit inside the workspace');
    }
    if (outside.length > 0) return ask(outsideReason(), await suggest());
    if (touchesSettings) return ask(`${tool.name} would change cairn's permission settings`, []);
    const target = uncovered.length > 0 ? ` ${quoteList(uncovered.map((p) => p.given))}` : '';
    return ask(`${tool.name}${target} needs permission`, await suggest());
  }

  return {
    get mode() {
      return mode;
    },
    setMode(next) {
      mode = next;
    },
    async check(tool, input) {
      if (tool.command) return checkCommand(tool, tool.command(input));
      return checkPaths(tool, input);
    },
    addSessionRules(rules) {
      added.push(...rules.map(parseRule));
    },
    async saveProjectRules(rules) {
      const parsed = rules.map(parseRule);
      added.push(...parsed); // applies now, even if the file cannot be written
      await addAllowRulesToFile(localSettings, rules);
    },
    rules() {
      const texts = (list: ParsedRule[]): string[] => [...new Set(list.map((r) => r.text))];
      const r = current();
      return { allow: texts(r.allow), ask: texts(r.ask), deny: texts(r.deny) };
    },
  };
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false; // a path about to be created: suggest its parent directory
  }
}
