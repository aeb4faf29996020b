import { lstat, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { PermissionMode } from '../events.js';
import { effectsOf } from '../tools/tool.js';
import type { AnyTool } from '../tools/tool.js';
import { checkCommand } from './bash/command-check.js';
import type { CommandCheckContext, RuleLists } from './bash/command-check.js';
import { isInside, realpathLongestPrefix, resolveToolPath } from './paths.js';
import type { ResolvedPath } from './paths.js';
import { protectedReason } from './protected-paths.js';
import { matchPathSpecifier, ruleCoversTool } from './rules/match.js';
import type { PathBases } from './rules/match.js';
import { parseRule } from './rules/parse.js';
import type { ParsedRule } from './rules/parse.js';
import { addAllowRulesToFile, savedRuleOrigins, settingsPaths } from './rules/settings.js';
import type { RuleOrigin } from './rules/settings.js';
import { pathSuggestion } from './rules/suggestions.js';
import type { PermissionCheck, PermissionChecker, PermissionRuleSet } from './types.js';
import { allow, ask, askBeyondContainment, BY_MODE, byRule, deny, quoteList, userOnlyIf } from './verdicts.js';
import { BUILTIN_DENY } from './rules/builtin-deny.js';
import { pathlessScopedVerdict, withDontAsk } from './rules/scoped.js';
import { checkDomain } from './rules/domain.js';
import { errorMessage } from '../util/error-message.js';
import { readDenyPlaces } from './rules/read-deny-places.js';
import { addRule, removeRule, type RuleEditState } from './rules/rule-edits.js';

const READ_PROBE = { name: 'read_file', kind: 'read' as const };

export interface PermissionCheckerOptions {
  workspace: string;
  mode: PermissionMode;
  rules: PermissionRuleSet;
  cairnHome: string;
  /** The home directory for `~` in rules and paths; defaults to os.homedir(). */
  homeDir?: string;
  /** Built-in deny rules a setting lifted (`permissions.liftBuiltinDeny`); no mode can lift them. */
  liftedBuiltinDeny?: readonly string[];
  /** Folders besides the workspace where reads need no approval and acceptEdits edits (absolute). */
  additionalDirectories?: readonly string[];
  /** Where each configured rule came from (file and line, or flag), for the decision log. */
  origins?: readonly RuleOrigin[];
}

// What a bash redirect is judged as: a write of that file.
const WRITE_PROBE: AnyTool = {
  name: 'write_file',
  description: 'a file written by a shell redirect',
  inputSchema: undefined as never,
  kind: 'edit',
  effects: () => 'workspace',
  call: async () => ({ content: '' }),
};

/** A rule that names a place outside the workspace explicitly: absolute (`/x`, `//x`) or in home (`~/x`). */
const namesPathExplicitly = (rule: ParsedRule): boolean => rule.specifier !== undefined && /^(\/|~\/|~$)/.test(rule.specifier);

/**
 * The decision chain: bash safety -> deny rules -> ask rules -> protected paths -> bypass -> allow rules
 * -> read-only tools -> mode -> ask. It only decides; the loop asks the user (or denies when nobody can answer).
 */
export function createPermissionChecker(opts: PermissionCheckerOptions): PermissionChecker {
  let mode = opts.mode;
  const configured: RuleLists = { allow: opts.rules.allow.map(parseRule), ask: opts.rules.ask.map(parseRule), deny: opts.rules.deny.map(parseRule) };
  const added: ParsedRule[] = []; // freshly saved project rules (allow); they are in the file too
  let session: ParsedRule[] = []; // "don't ask again this session" (allow), until /clear hard
  const readableDirs: string[] = []; // the session's own folders (saved tool outputs), real paths
  let turn: ParsedRule[] = []; // a skill's allowed-tools, until the turn ends; after deny, ask and protected paths like any allow
  const localSettings = settingsPaths({ workspace: opts.workspace, cairnHome: opts.cairnHome }).local;
  let basesPromise: Promise<PathBases> | undefined;
  let extraPromise: Promise<string[]> | undefined;
  const extraDirs = [...(opts.additionalDirectories ?? [])];
  const extraRoots = (): Promise<string[]> => (extraPromise ??= Promise.all(extraDirs.map((d) => realpathLongestPrefix(d))));
  const origins: RuleOrigin[] = [...(opts.origins ?? [])];
  const builtinDeny: ReadonlySet<string> = new Set(BUILTIN_DENY.map((r) => r.id).filter((id) => !opts.liftedBuiltinDeny?.includes(id)));

  const bases = (): Promise<PathBases> =>
    (basesPromise ??= Promise.all([realpathLongestPrefix(opts.workspace), realpathLongestPrefix(opts.homeDir ?? homedir()), extraRoots()]).then(
      ([workspace, home, readRoots]) => ({ workspace, home, readRoots }),
    ));
  const current = (): RuleLists => ({ allow: [...configured.allow, ...added, ...session, ...turn], ask: configured.ask, deny: configured.deny });
  // A path whose real place cannot be found (realpath EACCES on /proc/1/root/...) may lead anywhere,
  // a denied file included: ask, or deny while deny rules that could reach it are in force.
  const unresolved = (tool: AnyTool, err: unknown): PermissionCheck => {
    const why = `cannot resolve a path it names: ${errorMessage(err)}`;
    const reaches = (r: ParsedRule): boolean => tool.command !== undefined || ruleCoversTool(r, tool);
    return configured.deny.some(reaches) ? deny(`${why}, while deny rules are in force`) : ask(why, []);
  };

  async function checkPaths(tool: AnyTool, given: string[], readOnly: boolean): Promise<PermissionCheck> {
    const b = await bases();
    let paths: ResolvedPath[];
    try {
      paths = await Promise.all(given.map((p) => resolveToolPath(p, b.workspace, b.home)));
    } catch (err) {
      return unresolved(tool, err);
    }
    const rules = current();
    // Deny and ask also look at the path as written, in case a symlink would carry it out of a denied pattern.
    const hits = (rule: ParsedRule): boolean => {
      const { specifier } = rule;
      return (
        ruleCoversTool(rule, tool) &&
        (specifier === undefined || paths.some((p) => matchPathSpecifier(specifier, p.real, b) || matchPathSpecifier(specifier, p.lexical, b)))
      );
    };
    const denied = rules.deny.find(hits);
    if (denied) return deny(`denied by rule ${denied.text}`, byRule('deny', denied));
    const asked = rules.ask.find(hits);
    if (asked) return ask(`matches the ask rule ${asked.text}`, [], undefined, byRule('ask', asked));
    // The session's own saved outputs: spelled and really inside one of its folders, never a sibling or another session's.
    const ownOutput = (p: ResolvedPath): boolean => readableDirs.some((d) => isInside(d, p.real) && isInside(d, p.lexical));
    if (readOnly && paths.length > 0 && paths.every(ownOutput)) return allow('reads the session\'s own saved output');
    // A path is inside only if both its spelling and its real location are: `link/../x` must not slip out either way.
    // Inside means in the workspace or a folder added by permissions.additionalDirectories.
    const roots = [b.workspace, ...(await extraRoots())];
    const inside = (p: ResolvedPath): boolean => roots.some((root) => isInside(root, p.real) && isInside(root, p.lexical));
    const guarded = readOnly
      ? []
      : (await Promise.all(paths.map(async (p) => {
          const why = protectedReason(p.real, b) ?? protectedReason(p.lexical, b) ?? (await hardLinked(p.real));
          return why === undefined ? [] : [`${p.given}: ${why}`];
        }))).flat();
    if (mode === 'bypassPermissions') return allow('bypassPermissions mode', BY_MODE);
    if (guarded.length > 0) {
      if (mode === 'plan') return deny(`plan mode: ${tool.name} would make changes; nothing changes until the plan is approved`, BY_MODE);
      return userOnlyIf(ask(`${tool.name} would change a protected path (${guarded.join('; ')})`, []), true);
    }

    // Rules reach only as far as they say: a bare rule or a workspace-relative pattern never covers a write outside.
    const allowedBy = (p: ResolvedPath): ParsedRule | undefined =>
      rules.allow.find(
        (r) =>
          ruleCoversTool(r, tool) &&
          (readOnly || inside(p) || namesPathExplicitly(r)) &&
          (r.specifier === undefined || matchPathSpecifier(r.specifier, p.real, b)),
      );
    const uncovered = paths.filter((p) => !allowedBy(p));
    if (uncovered.length === 0 && (paths.length > 0 || rules.allow.some((r) => r.specifier === undefined && ruleCoversTool(r, tool)))) {
      const bare = rules.allow.filter((r) => r.specifier === undefined && ruleCoversTool(r, tool)).slice(0, 1);
      const used = paths.length > 0 ? paths.flatMap((p) => allowedBy(p) ?? []) : bare;
      return allow(`allowed by rule ${[...new Set(used.map((r) => r.text))].join(', ')}`, byRule('allow', ...used));
    }
    const outside = uncovered.filter((p) => !inside(p));
    // Past the workspace, or a tool no rule names: auto mode's classifier may answer (protected paths were asked above).
    const asking = tool.onlyTheUserApproves === true ? ask : askBeyondContainment;
    const askWith = async (reason: string): Promise<PermissionCheck> => {
      if (uncovered.length === 0) return asking(reason, [tool.name]);
      const offers = await Promise.all(uncovered.map(async (p) => pathSuggestion(tool, p.real, await isDirectory(p.real), b)));
      const folders = offers.some((o) => o.folder !== undefined) ? offers.map((o) => o.folder ?? o.rule) : [];
      return asking(reason, offers.map((o) => o.rule), folders);
    };
    const outsideReason = (): string =>
      `${quoteList(outside.map((p) => p.given))} ${outside.length === 1 ? 'is' : 'are'} outside the workspace`;

    if (readOnly) return outside.length === 0 ? allow('read-only') : askWith(outsideReason());
    if (mode === 'plan') return deny(`plan mode: ${tool.name} would make changes; nothing changes until the plan is approved`, BY_MODE);
    // Auto mode runs what stays in the workspace as acceptEdits does; its classifier judges only what leaves it.
    if ((mode === 'acceptEdits' || mode === 'auto') && tool.kind === 'edit' && outside.length === 0) return allow(`${mode}: file edit inside the workspace`, BY_MODE);
    if (outside.length > 0) return askWith(outsideReason());
    const target = uncovered.length > 0 ? ` ${quoteList(uncovered.map((p) => p.given))}` : '';
    return askWith(`needs your approval: no rule allows ${tool.name}${target}`);
  }

  /** A tool whose purpose is a question for the user (exit_plan_mode): asked in plan mode, a no-op error elsewhere. */
  function checkAsksUser(tool: AnyTool): PermissionCheck {
    const rules = current();
    const named = (r: ParsedRule): boolean => r.tool === tool.name;
    const denied = rules.deny.find(named);
    if (denied) return deny(`denied by rule ${denied.text}`, byRule('deny', denied));
    // enter_plan_mode asks outside plan mode (may the model plan first?); exit_plan_mode in it (the plan).
    const entering = tool.name === 'enter_plan_mode';
    if (entering ? mode === 'plan' : mode !== 'plan') return allow(`${entering ? 'in' : 'not in'} plan mode: ${tool.name} has nothing to ask`);
    const allowed = rules.allow.find(named);
    if (allowed) return allow(`allowed by rule ${allowed.text}`, byRule('allow', allowed));
    return ask(entering ? 'the model asks to plan first: nothing changes in plan mode until you approve a plan' : 'the plan needs your approval before anything changes', []);
  }

  /** A call that must be put to the user: what the chain says still denies; anything else is asked, with no rule to remember. */
  async function decide(tool: AnyTool, input: unknown): Promise<PermissionCheck> {
    const mustAsk = tool.alwaysAsks?.(input);
    if (mustAsk === undefined) return decideByRules(tool, input);
    const verdict = await decideByRules(tool, input);
    if (verdict.behavior === 'deny') return verdict;
    if (mode === 'plan') return deny(`plan mode: ${mustAsk}, which needs your approval; nothing runs unasked until the plan is approved`, BY_MODE);
    const reason = verdict.behavior === 'ask' ? `${mustAsk}; ${verdict.reason}` : mustAsk;
    // Leaving the sandbox is where containment ends: the classifier may answer, unless the chain itself wants the user.
    const classifiable = tool.classifierMayAnswer === true && (verdict.behavior === 'allow' || verdict.classifiable === true);
    return userOnlyIf(classifiable ? askBeyondContainment(reason, []) : ask(reason, []), verdict.behavior === 'ask' && verdict.userOnly === true);
  }

  async function decideByRules(tool: AnyTool, input: unknown): Promise<PermissionCheck> {
    const command = tool.command?.(input);
    if (command !== undefined) return checkCommand(commandContext, tool, command, tool.sandboxAutoAllows?.(input) === true);
    if (tool.asksUser) return checkAsksUser(tool);
    const scoped = pathlessScopedVerdict(tool, input, current());
    if (scoped) return scoped;
    if (tool.url) return checkDomain(tool, tool.url(input), current(), mode);
    const effects = effectsOf(tool, input);
    return checkPaths(tool, tool.paths?.(input) ?? [], effects === 'none' || effects === 'session');
  }

  const editState = (): RuleEditState => ({
    configured,
    origins,
    saved: added,
    session: () => session,
    setSession: (rules) => {
      session = rules;
    },
  });

  const commandContext: CommandCheckContext = {
    mode: () => mode,
    rules: current,
    bases,
    checkWrite: (target) => checkPaths(WRITE_PROBE, [target], false),
    builtinDeny: () => builtinDeny,
  };

  return withDontAsk({
    get mode() {
      return mode;
    },
    setMode(next) {
      mode = next;
    },
    async check(tool, input) {
      let verdict: PermissionCheck;
      try {
        verdict = await decide(tool, input);
      } catch (err) {
        return unresolved(tool, err);
      }
      // Only auto mode has a classifier to answer; elsewhere the verdict reads as it always has.
      if (mode === 'auto' || verdict.behavior !== 'ask' || verdict.classifiable !== true) return verdict;
      const { classifiable: _dropped, ...asked } = verdict;
      return asked;
    },
    allowReadsUnder(dir) {
      readableDirs.push(resolve(dir));
    },
    addSessionRules(rules, list = 'allow') {
      if (list === 'allow') session = [...session, ...rules.map(parseRule)];
      else configured[list].push(...rules.map(parseRule)); // this run only: no file says so
    },
    addDirectories(dirs) {
      extraDirs.push(...dirs.map((d) => resolve(d)));
      extraPromise = undefined;
      basesPromise = undefined;
    },
    forgetSessionRules() {
      const dropped = new Set(session.map((r) => r.text)).size;
      session = [];
      return dropped;
    },
    grantForTurn(rules) {
      turn = [...turn, ...rules.map(parseRule)];
    },
    endTurn() {
      turn = [];
    },
    async saveProjectRules(rules) {
      const parsed = rules.map(parseRule);
      added.push(...parsed); // applies now, even if the file cannot be written
      await addAllowRulesToFile(localSettings, rules);
      origins.push(...(await savedRuleOrigins(localSettings, rules)));
    },
    addRule(list, rule, scope) {
      const paths = settingsPaths({ workspace: opts.workspace, cairnHome: opts.cairnHome });
      const file = paths[scope];
      return addRule(editState(), list, rule, file, scope === 'user' ? opts.cairnHome : opts.workspace).then((added) => ({ added, file }));
    },
    removeRule(list, rule) {
      return removeRule(editState(), list, rule);
    },
    ruleSource(list, text) {
      const from = origins.find((o) => o.list === list && (o.anchored ?? [o.rule]).includes(text));
      if (from) return { rule: from.rule, where: from.where, ...(from.file !== undefined ? { file: from.file } : {}), ...(from.line !== undefined ? { line: from.line } : {}) };
      if (list !== 'allow') return undefined;
      if (session.some((r) => r.text === text)) return { rule: text, where: 'this session (an approval answer)' };
      if (turn.some((r) => r.text === text)) return { rule: text, where: "this turn (a skill's allowed-tools)" };
      return undefined;
    },
    async readDeniedPlaces() {
      const specifiers = current().deny.flatMap((r) => (r.specifier !== undefined && ruleCoversTool(r, READ_PROBE) ? [r.specifier] : []));
      return specifiers.length === 0 ? [] : readDenyPlaces(specifiers, await bases());
    },
    async readDeniedMatcher() {
      const b = await bases();
      const readDenies = current().deny.filter((r): r is ParsedRule & { specifier: string } => r.specifier !== undefined && r.tool === 'read_file');
      return (absPath) => readDenies.some((r) => matchPathSpecifier(r.specifier, absPath, b));
    },
    rules() {
      const texts = (list: ParsedRule[]): string[] => [...new Set(list.map((r) => r.text))];
      const r = { ...current(), allow: [...configured.allow, ...added, ...session] }; // a turn's grants are not the session's rules
      const builtin = BUILTIN_DENY.filter((b) => builtinDeny.has(b.id)).map((b) => b.text);
      return { allow: texts(r.allow), ask: texts(r.ask), deny: texts(r.deny), builtin };
    },
  });
}

/**
 * A file with other hard links is also every other path it is linked at (`ln .git/config notes`
 * made by an allowed command, then an "ordinary" edit): where those are cannot be known cheaply.
 */
async function hardLinked(path: string): Promise<string | undefined> {
  try {
    const s = await lstat(path);
    return s.isFile() && s.nlink > 1 ? `it has ${s.nlink - 1} other hard link${s.nlink > 2 ? 's' : ''}, so writing it changes files elsewhere` : undefined;
  } catch {
    return undefined; // a file about to be created has no other links
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false; // a path about to be created: suggest its parent directory
  }
}
