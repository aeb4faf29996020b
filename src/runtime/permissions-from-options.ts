import type { PermissionMode } from '../events.js';
import { createPermissionChecker } from '../permissions/checker.js';
import { parseRule, splitRuleList } from '../permissions/rule-parse.js';
import { loadSettings, type RuleOrigin } from '../permissions/settings.js';
import type { PermissionChecker } from '../permissions/types.js';
import { errorMessage } from '../util/error-message.js';

/** Settings files merged with the command line's rules; errors name the file or flag. */
export async function permissionsFromOptions(opts: {
  cwd: string;
  cairnHome: string;
  permissionMode?: PermissionMode;
  allowedTools?: string[];
  disallowedTools?: string[];
}): Promise<{ permissions: PermissionChecker; sources: string[]; origins: RuleOrigin[]; warnings: string[] }> {
  const settings = await loadSettings({ workspace: opts.cwd, cairnHome: opts.cairnHome });
  const allowFlags = flagRuleList('--allowed-tools', opts.allowedTools ?? []);
  const denyFlags = flagRuleList('--disallowed-tools', opts.disallowedTools ?? []);
  const rules = {
    allow: [...allowFlags, ...settings.rules.allow],
    ask: [...settings.rules.ask],
    deny: [...denyFlags, ...settings.rules.deny],
  };
  const mode = opts.permissionMode ?? settings.defaultMode ?? 'default';
  const origins = [
    ...allowFlags.map((rule) => ({ rule, where: '--allowed-tools' })),
    ...denyFlags.map((rule) => ({ rule, where: '--disallowed-tools' })),
    ...settings.origins,
  ];
  return {
    permissions: createPermissionChecker({ workspace: opts.cwd, mode, rules, cairnHome: opts.cairnHome, liftedBuiltinDeny: settings.liftedBuiltinDeny }),
    sources: settings.sources,
    origins,
    warnings: settings.warnings,
  };
}

function flagRuleList(flag: string, values: readonly string[]): string[] {
  const rules = values.flatMap(splitRuleList);
  for (const rule of rules) {
    try {
      parseRule(rule);
    } catch (error) {
      throw new Error(`${flag}: ${errorMessage(error)}`, { cause: error });
    }
  }
  return rules;
}
