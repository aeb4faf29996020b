import path from 'node:path';

/** One folder per workspace, like Claude Code's ~/.claude/projects/<key>. */
export function workspaceKey(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

export function projectDir(cairnHome: string, cwd: string): string {
  return path.join(cairnHome, 'projects', workspaceKey(cwd));
}

export function sessionFile(cairnHome: string, cwd: string, id: string): string {
  return path.join(projectDir(cairnHome, cwd), `${id}.jsonl`);
}
