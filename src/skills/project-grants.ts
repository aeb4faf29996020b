// What a project's own skills and commands would allow once its folder is trusted: their
// `allowed-tools`, which grant nothing until then (skill-runtime.ts). Named in the trust question.
import { discoverCommands } from '../custom-commands/command-discovery.js';
import { sourceScope } from './skill.js';
import { discoverSkills } from './skill-discovery.js';
import { commandPlaces, skillPlaces } from './skill-places.js';

/** One line per project skill or command that carries `allowed-tools`: its file and the rules it would grant. */
export async function projectGrantLines(cwd: string): Promise<string[]> {
  // Only the project's places are read: the user's own skills grant whatever the folder's trust.
  const opts = { cwd, cairnHome: '', env: {}, shippedDir: undefined };
  const project = <P extends { source: Parameters<typeof sourceScope>[0] }>(places: P[]): P[] => places.filter((p) => sourceScope(p.source) === 'project');
  const [skills, commands] = await Promise.all([discoverSkills(project(skillPlaces(opts))), discoverCommands(project(commandPlaces(opts)))]);
  return [
    ...skills.skills.filter((s) => s.allowedTools.length > 0).map((s) => `${s.file}: the skill ${s.name} would run ${s.allowedTools.join(', ')} without asking while it is in use`),
    ...commands.commands.filter((c) => c.allowedTools.length > 0).map((c) => `${c.file}: the command /${c.name} would run ${c.allowedTools.join(', ')} without asking while it is in use`),
  ];
}
