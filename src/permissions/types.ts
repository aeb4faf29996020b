import type { PermissionMode } from '../events.js';
import type { AnyTool } from '../tools/tool.js';

/**
 * What decided a verdict, for the decision log: rules (as the checker holds them), a built-in deny,
 * the mode, or the sandbox. Absent: cairn's own analysis (read-only, protected paths, outside the workspace).
 */
export type DecidedBy =
  | { kind: 'rule'; list: 'allow' | 'ask' | 'deny'; rules: string[] }
  | { kind: 'builtin'; rule: string }
  | { kind: 'mode' }
  | { kind: 'sandbox' };

/** The outcome of the decision chain for one tool call, before anyone is asked. */
export type PermissionCheck =
  /** readOnly: allowed because the command was judged read-only (it then runs where nothing can be written). */
  | { behavior: 'allow'; reason: string; readOnly?: boolean; by?: DecidedBy }
  | { behavior: 'deny'; reason: string; by?: DecidedBy }
  /** suggestions: the rules an "always allow" answer would add (one per part of a compound command). */
  /** folder: the same answer for the file's whole folder, offered as a second choice (f). */
  /**
   * classifiable: the question is where containment ends (outside the workspace, a new domain, a program
   * no rule names, leaving the sandbox), so in auto mode the classifier may answer it instead of the
   * user. Unset: only the user answers (protected paths, ask rules, what cairn cannot read).
   */
  /**
   * userOnly: nobody but the user answers, not a PermissionRequest hook either: a write to a protected
   * path (or one a command may make there), a command that needs approval each time.
   */
  | { behavior: 'ask'; reason: string; suggestions: string[]; folder?: string[]; by?: DecidedBy; classifiable?: boolean; userOnly?: boolean };

/** Where a rule came from: a settings file and line, a flag, or an answer this session. */
export interface RuleSource {
  /** The rule as written there. */
  rule: string;
  /** The file and field, the flag, or "this session". */
  where: string;
  file?: string;
  line?: number;
}

export type { AskPermission, PermissionAsk, PermissionDecision } from './ask.js';

export interface PermissionRuleSet {
  allow: string[];
  ask: string[];
  deny: string[];
  /** In rules() only: the built-in deny rules in force, as /rules shows them. */
  builtin?: string[];
}

export interface PermissionChecker {
  readonly mode: PermissionMode;
  setMode(mode: PermissionMode): void;
  check(tool: AnyTool, input: unknown): Promise<PermissionCheck>;
  /** Lets read-only tools read inside `dir` without asking (the session's own saved tool outputs); deny rules still apply. */
  allowReadsUnder?(dir: string): void;
  /** Adds "don't ask again this session" rules (allow); deny and ask rules for this run only (a hook's updatedPermissions). */
  addSessionRules(rules: string[], list?: 'allow' | 'ask' | 'deny'): void;
  /** Folders where reads need no approval and acceptEdits edits, for the rest of this run (a hook's addDirectories; absolute). */
  addDirectories?(dirs: string[]): void;
  /** Drops them again (/clear hard); returns how many distinct rules there were. Project rules stay. */
  forgetSessionRules?(): number;
  /** Allow rules for the rest of this turn only (a skill's allowed-tools); deny, ask and protected paths still come first. */
  grantForTurn?(rules: string[]): void;
  /** Drops the turn's grants. */
  endTurn?(): void;
  /** Saves rules to .cairn/settings.local.json (and applies them now). */
  saveProjectRules(rules: string[]): Promise<void>;
  /** The files and folders Read deny rules cover now (with their real paths), for the sandbox to hide. */
  readDeniedPlaces?(): Promise<string[]>;
  /** A matcher for Read deny rules, so tools that list many files can leave denied ones out. */
  readDeniedMatcher(): Promise<(absPath: string) => boolean>;
  /** The rules in force, for /rules. */
  rules(): PermissionRuleSet;
  /**
   * /permissions add: writes the rule into cairn's settings file of that scope (local:
   * .cairn/settings.local.json, project: .cairn/settings.json, user: $CAIRN_HOME/settings.json) and
   * puts it in force. Throws RuleError for a malformed rule, SettingsError for a file it cannot edit.
   */
  addRule?(list: 'allow' | 'ask' | 'deny', rule: string, scope: 'local' | 'project' | 'user'): Promise<{ added: boolean; file: string }>;
  /** /permissions remove: takes the rule out of every settings file its list came from, and out of force. */
  removeRule?(list: 'allow' | 'ask' | 'deny', rule: string): Promise<{ removedFrom: string[]; notInAFile: string[] }>;
  /** Where a rule the checker holds (as a verdict's `by` names it) came from. */
  ruleSource?(list: 'allow' | 'ask' | 'deny', rule: string): RuleSource | undefined;
}
