import type { OfflinePlan, PlannedCall } from './offline-script.js';

/**
 * `use the <name> skill [on <target>]` and `使用 <name> 技能 [处理 <target>]`: load the skill, then read
 * the target when it is a file, so a skill's whole path runs without a network.
 */
export function skillPlan(text: string): OfflinePlan | undefined {
  const m =
    /^use\s+the\s+([a-z0-9-]+)\s+skill(?:\s+(?:on|for|with)\s+([\s\S]+?))?\s*\.?$/i.exec(text) ??
    /^(?:使用|用)\s*([a-z0-9-]+)\s*技能(?:\s*(?:处理|来处理|于|在)\s*([\s\S]+?))?\s*[。.]?$/.exec(text);
  if (!m) return undefined;
  const name = (m[1] ?? '').toLowerCase();
  const target = m[2]?.trim();
  const steps: PlannedCall[][] = [[{ name: 'load_skill', input: { name } }]];
  if (target && !/^https?:\/\//i.test(target) && !/\s/.test(target)) steps.push([{ name: 'read_file', input: { path: target } }]);
  return { kind: 'tools', steps };
}
