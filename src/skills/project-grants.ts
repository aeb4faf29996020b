// What a project's own skills and commands would allow once its folder is trusted: their
// `allowed-tools`, which grant nothing until then (skill-runtime.ts). Named in the trust question.
// This runs before the first frame for every untrusted folder: the discovery modules (and the
// YAML parser under them) load only when the project has a skills or commands folder.
import fs from 'node:fs/promises';
import { sourceScope } from './skill.js';
import { commandPlaces, skillPlaces } from './skill-places.js';

/** One line per project skill or command that carries `allowed-tools`: its file and the rules it would grant. */
export async function projectGrantLines(cwd: string): Promise<string[]> {
  // Only the project's places are read: the user's own skills grant whatever the folder's trust.
  const opts = { cwd, cairnHome: '', env: {}, shippedDir: undefined };
  const project = <P extends { source: Parameters<typeof sourceScope>[0] }>(places: P[]): P[] => places.filter((p) => sourceScope(p.source) === 'project');
  const skillDirs = project(skillPlaces(opts));
  const commandDirs = project(commandPlaces(opts));
  if (!(await anyExists([...skillDirs, ...commandDirs].map((p) => p.dir)))) return [];
  const [{ discoverSkills }, { discoverCommands }] = await Promise.all([import('./skill-discovery.js'), import('../custom-commands/command-discovery.js')]);
  const [skills, commands] = await Promise.all([discoverSkills(skillDirs), discoverCommands(commandDirs)]);
  return [
    ...skills.skills.filter((s) => s.allowedTools.length > 0).map((s) => `${s.file}: the skill ${s.name} would run ${s.allowedTools.join(', ')} without asking while it is in use`),
    ...commands.commands.filter((c) => c.allowedTools.length > 0).map((c) => `${c.file}: the command /${c.name} would run ${c.allowedTools.join(', ')} without asking while it is in use`),
  ];
}

/** Whether any of the paths exists (a path that cannot be looked at counts: discovery reports it). */
async function anyExists(paths: readonly string[]): Promise<boolean> {
  const found = await Promise.all(
    paths.map((p) =>
      fs.lstat(p).then(
        () => true,
        (error: NodeJS.ErrnoException) => error.code !== 'ENOENT' && error.code !== 'ENOTDIR',
      ),
    ),
  );
  return found.includes(true);
}
