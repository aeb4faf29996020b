import type { PermissionMode } from '../events.js';
import { createPermissionChecker } from '../permissions/checker.js';
import { anchorRule, type RuleList } from '../permissions/rules/anchor.js';
import { splitRuleList } from '../permissions/rules/parse.js';
import type { LoadedSettings, RuleOrigin } from '../permissions/rules/settings.js';
import type { PermissionChecker } from '../permissions/types.js';
import { errorMessage } from '../util/error-message.js';

/**
 * The permission checker from the settings in force (session-facts.ts loads them) and the
 * command line's rules, in the starting mode; errors name the flag.
 */
export function permissionsFromSettings(
  opts: { cwd: string; cairnHome: string; mode: PermissionMode; allowedTools?: string[]; disallowedTools?: string[] },
  settings: LoadedSettings,
): { permissions: PermissionChecker; sources: string[]; origins: RuleOrigin[] } {
  const allowFlags = flagRuleList('--allowed-tools', opts.allowedTools ?? [], 'allow', opts.cwd);
  const denyFlags = flagRuleList('--disallowed-tools', opts.disallowedTools ?? [], 'deny', opts.cwd);
  const rules = {
    allow: [...allowFlags.flatMap((f) => f.rules), ...settings.rules.allow],
    ask: [...settings.rules.ask],
    deny: [...denyFlags.flatMap((f) => f.rules), ...settings.rules.deny],
  };
  const origins = [
    ...allowFlags.map(({ rule, rules: anchored }) => ({ rule, where: '--allowed-tools', list: 'allow' as const, anchored })),
    ...denyFlags.map(({ rule, rules: anchored }) => ({ rule, where: '--disallowed-tools', list: 'deny' as const, anchored })),
    ...settings.origins,
  ];
  return {
    permissions: createPermissionChecker({
      workspace: opts.cwd,
      mode: opts.mode,
      rules,
      cairnHome: opts.cairnHome,
      liftedBuiltinDeny: settings.liftedBuiltinDeny,
      additionalDirectories: settings.additionalDirectories,
      origins,
    }),
    sources: settings.sources,
    origins,
  };
}

/** A flag's rules; a `/x` path rule is anchored at the launch folder, as Claude Code does for flags. */
function flagRuleList(flag: string, values: readonly string[], list: RuleList, cwd: string): Array<{ rule: string; rules: string[] }> {
  return values.flatMap(splitRuleList).map((rule) => {
    try {
      return { rule, rules: anchorRule(rule, list, cwd) };
    } catch (error) {
      throw new Error(`${flag}: ${errorMessage(error)}`, { cause: error });
    }
  });
}

/**
 * The checker an agent of a fixed mode (explore: plan) runs under: the session's rules in force
 * now, its own mode. Without a fixed mode, the session's checker itself (mode changes apply).
 */
export function permissionsForMode(deps: { cwd: string; cairnHome: string; permissions: PermissionChecker }, mode: PermissionMode | undefined): PermissionChecker {
  if (mode === undefined) return deps.permissions;
  return createPermissionChecker({ workspace: deps.cwd, mode, rules: deps.permissions.rules(), cairnHome: deps.cairnHome });
}
