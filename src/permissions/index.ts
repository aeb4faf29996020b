export { createPermissionChecker } from './checker.js';
export type { PermissionCheckerOptions } from './checker.js';
export { loadSettings, SettingsError, settingsPaths, addAllowRulesToFile } from './settings.js';
export type { LoadedSettings, SettingsPaths } from './settings.js';
export { parseRule, splitRuleList, canonicalToolName, RuleError } from './rule-parse.js';
export type { ParsedRule } from './rule-parse.js';
export { matchBashSpecifier, matchPathSpecifier } from './rule-match.js';
export { analyzeBashCommand } from './bash-analysis.js';
export type { BashAnalysis } from './bash-analysis.js';
