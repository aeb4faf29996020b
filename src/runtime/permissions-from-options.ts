import type { PermissionMode } from '../events.js';
import { createPermissionChecker } from '../permissions/checker.js';
import { anchorRule, type RuleList } from '../permissions/rule-anchor.js';
import { splitRuleList } from '../permissions/rule-parse.js';
import { loadSettings, type RuleOrigin } from '../permissions/settings.js';
import type { PermissionChecker } from '../permissions/types.js';
import type { WithheldSetting } from '../settings/trusted-layers.js';
import { errorMessage } from '../util/error-message.js';

/** Settings files merged with the command line's rules; errors name the file or flag. */
export async function permissionsFromOptions(opts: {
  cwd: string;
  cairnHome: string;
  /** Claude Code's user folder (`claudeHomeFrom(env)`). */
  claudeHome: string;
  /** Whether the workspace's own settings files may widen what is allowed (workspace-trust.ts). */
  trusted: boolean;
  permissionMode?: PermissionMode;
  allowedTools?: string[];
  disallowedTools?: string[];
}): Promise<{ permissions: PermissionChecker; sources: string[]; origins: RuleOrigin[]; warnings: string[]; withheld: WithheldSetting[] }> {
  const settings = await loadSettings({ workspace: opts.cwd, cairnHome: opts.cairnHome, claudeHome: opts.claudeHome, trusted: opts.trusted });
  const allowFlags = flagRuleList('--allowed-tools', opts.allowedTools ?? [], 'allow', opts.cwd);
  const denyFlags = flagRuleList('--disallowed-tools', opts.disallowedTools ?? [], 'deny', opts.cwd);
  const rules = {
    allow: [...allowFlags.flatMap((f) => f.rules), ...settings.rules.allow],
    ask: [...settings.rules.ask],
    deny: [...denyFlags.flatMap((f) => f.rules), ...settings.rules.deny],
  };
  const warnings = [...settings.warnings];
  let mode = opts.permissionMode ?? settings.defaultMode ?? 'default';
  if (mode === 'bypassPermissions' && settings.bypassDisabled) {
    warnings.push('bypassPermissions is turned off by permissions.disableBypassPermissionsMode in a settings file; started in default mode');
    mode = 'default';
  }
  const origins = [
    ...allowFlags.map(({ rule }) => ({ rule, where: '--allowed-tools' })),
    ...denyFlags.map(({ rule }) => ({ rule, where: '--disallowed-tools' })),
    ...settings.origins,
  ];
  return {
    permissions: createPermissionChecker({
      workspace: opts.cwd,
      mode,
      rules,
      cairnHome: opts.cairnHome,
      liftedBuiltinDeny: settings.liftedBuiltinDeny,
      additionalDirectories: settings.additionalDirectories,
    }),
    sources: settings.sources,
    origins,
    warnings,
    withheld: settings.withheld,
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
