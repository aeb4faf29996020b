import type { OfflinePlan, PlannedCall } from './offline-plan.js';

/**
 * `use the <name> skill [on <target>] [then <more>]` and `使用 <name> 技能 [处理 <target>] [然后 <more>]`:
 * load the skill, read the target when it is a file, then whatever `more` plans (`run <command>`),
 * so a skill's whole path, its allowed-tools included, runs without a network.
 */
export function skillPlan(text: string, planRest: (text: string) => OfflinePlan): OfflinePlan | undefined {
  const m =
    /^use\s+the\s+([a-z0-9-]+)\s+skill(?:\s+(?:on|for|with)\s+(\S+?))?\s*(?:,?\s*then\s+([\s\S]+?))?\s*\.?$/i.exec(text) ??
    /^(?:使用|用)\s*([a-z0-9-]+)\s*技能(?:\s*(?:处理|来处理)\s*(\S+?))?\s*(?:[，,]?\s*然后\s*([\s\S]+?))?\s*[。.]?$/.exec(text);
  if (!m) return undefined;
  const name = (m[1] ?? '').toLowerCase();
  const target = m[2]?.trim();
  const steps: PlannedCall[][] = [[{ name: 'load_skill', input: { name } }]];
  if (target && !/^https?:\/\//i.test(target)) steps.push([{ name: 'read_file', input: { path: target } }]);
  const rest = m[3] ? planRest(m[3]) : undefined;
  if (rest?.kind === 'tools') steps.push(...rest.steps);
  return { kind: 'tools', steps };
}
