import { dirname, relative, sep } from 'node:path';
import type { ToolKind } from '../../tools/tool.js';
import { isInside } from '../paths.js';
import { parseRule } from './parse.js';

// Tools whose second word is a subcommand worth keeping in the rule: `git status`, not all of git.
const SUBCOMMAND_TOOLS = new Set([
  'git', 'npm', 'pnpm', 'yarn', 'bun', 'npx', 'bunx', 'cargo', 'go', 'docker', 'podman', 'kubectl', 'gh',
  'pip', 'pip3', 'uv', 'poetry', 'deno', 'dotnet', 'mvn', 'gradle', 'brew', 'apt', 'apt-get', 'systemctl',
  'terraform', 'helm', 'make', 'rustup', 'composer', 'bundle', 'rails', 'mix',
]);
// Subcommands that name something further: `npm run test`, `docker compose up`, `gh pr view`.
const NESTED_SUBCOMMANDS = new Set(['run', 'run-script', 'compose', 'pr', 'issue', 'repo', 'mod', 'workspace', 'exec', 'x']);

const isArgumentWord = (w: string | undefined): w is string => w !== undefined && w !== '' && !w.startsWith('-') && /^[\w.:@/+-]+$/.test(w);

/** The legacy prefix rule an "always allow" for one simple command would add: `bash(git status:*)`, `bash(ls:*)`. */
export function bashSuggestion(toolName: string, part: string): string | undefined {
  const words = part.trim().split(/\s+/);
  const first = words[0];
  if (!first || /[=$`()]/.test(first)) return undefined;
  // An interpreter runs whatever program it is given: `node:*` would cover any script. The rule
  // keeps the script (`node src/cli.js:*`), or is the exact command when there is none (`node -e ...`).
  if (INTERPRETERS.has(first)) return interpreterRule(toolName, part.trim(), words);
  const prefix = [first];
  if (SUBCOMMAND_TOOLS.has(first) && isArgumentWord(words[1])) {
    prefix.push(words[1]);
    if (NESTED_SUBCOMMANDS.has(words[1]) && isArgumentWord(words[2])) prefix.push(words[2]);
  }
  const rule = `${toolName}(${prefix.join(' ')}:*)`;
  try {
    parseRule(rule);
    return rule;
  } catch {
    return undefined; // a prefix no rule can express: the user is asked each time instead
  }
}

// Programs whose first argument is the program they run.
const INTERPRETERS = new Set(['node', 'nodejs', 'python', 'python3', 'ruby', 'perl', 'php', 'sh', 'bash', 'zsh', 'dash', 'tsx', 'ts-node', 'lua', 'Rscript']);

function interpreterRule(toolName: string, command: string, words: readonly string[]): string | undefined {
  const script = words[1];
  const candidates = isArgumentWord(script) && !script.startsWith('-') ? [`${toolName}(${words[0]} ${script}:*)`] : [];
  // No script named (options, -e code, stdin): only this exact command; a rule with a * in it would be a pattern.
  if (!command.includes('*')) candidates.push(`${toolName}(${command})`);
  for (const rule of candidates) {
    try {
      parseRule(rule);
      return rule;
    } catch {
      // the next, narrower form
    }
  }
  return undefined; // nothing narrow enough to remember: asked each time
}

function escapeGlob(path: string): string {
  return path.replace(/[*?[\]{}!]/g, '\\$&');
}

/** The rules an "always allow" for a path could add: the first choice, and the file's folder as a second one. */
export interface PathSuggestion {
  rule: string;
  /** The file's whole folder, offered as a second "always" choice (absent when it is the rule itself). */
  folder?: string;
}

/**
 * Rules scoped to where the path is, never bare. Inside the workspace an edit tool's rule is the
 * workspace (`edit_file(./**)`, the reach of acceptEdits), the folder (`edit_file(./src/**)`) the
 * second choice. Anywhere else the narrowest rule that covers the call comes first: the file itself
 * (`edit_file(//tmp/notes.txt)`, `read_file(~/notes/todo.md)`; a folder's `/**` for a folder), and
 * its folder (`edit_file(//tmp/**)`) only as the second choice. A rule outside the workspace names
 * the place explicitly, since only an explicit rule reaches outside.
 */
export function pathSuggestion(
  tool: { name: string; kind: ToolKind },
  realPath: string,
  isDirectory: boolean,
  bases: { workspace: string; home: string },
): PathSuggestion {
  const inside = isInside(bases.workspace, realPath);
  const dir = isDirectory ? realPath : dirname(realPath);
  const rule = (spec: string): string => `${tool.name}(${spec})`;
  if (inside && tool.kind === 'edit') {
    const workspace = rule('./**');
    const folder = rule(folderSpec(dir, bases));
    return folder === workspace ? { rule: workspace } : { rule: workspace, folder };
  }
  const folder = rule(folderSpec(dir, bases));
  return isDirectory ? { rule: folder } : { rule: rule(placeSpec(realPath, bases)), folder };
}

/** The specifier naming exactly this place: `./src/a.ts`, `~/notes/todo.md`, `//tmp/notes.txt`. */
function placeSpec(path: string, bases: { workspace: string; home: string }): string {
  const from = (base: string, prefix: string): string => `${prefix}${escapeGlob(relative(base, path).split(sep).join('/'))}`;
  if (isInside(bases.workspace, path)) return from(bases.workspace, './');
  if (isInside(bases.home, path)) return from(bases.home, '~/');
  // "//" is the filesystem root; a single "/" in a settings file is anchored at that file's folder (Claude Code's rule).
  return `/${escapeGlob(path)}`;
}

/** The specifier for everything under a folder: `./src/**`, `~/notes/**`, `//tmp/**`. */
function folderSpec(dir: string, bases: { workspace: string; home: string }): string {
  const under = (base: string, prefix: string): string => {
    const rel = relative(base, dir).split(sep).join('/');
    return `${prefix}${rel === '' ? '' : `${escapeGlob(rel)}/`}**`;
  };
  if (isInside(bases.workspace, dir)) return under(bases.workspace, './');
  if (isInside(bases.home, dir)) return under(bases.home, '~/');
  return dir === '/' ? '//**' : `/${escapeGlob(dir)}/**`;
}
