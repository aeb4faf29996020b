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

/** The rules an "always allow" for a path could add: the wider one, and a narrower one when there is one. */
export interface PathSuggestion {
  rule: string;
  /** Only the folder of the file, offered as a choice beside the workspace-wide rule. */
  narrower?: string;
}

/**
 * Rules scoped to where the path is, never bare: inside the workspace the tool over the workspace
 * (`edit_file(./**)`, narrower `edit_file(./src/**)`); outside it the folder, named explicitly
 * (`read_file(~/notes/**)`, `write_file(/tmp/out/**)`), since only an explicit rule reaches outside.
 */
export function pathSuggestion(
  tool: { name: string; kind: ToolKind },
  realPath: string,
  isDirectory: boolean,
  bases: { workspace: string; home: string },
): PathSuggestion {
  const inside = isInside(bases.workspace, realPath);
  const dir = isDirectory ? realPath : dirname(realPath);
  const under = (base: string, prefix: string): string => {
    const rel = relative(base, dir).split(sep).join('/');
    return `${prefix}${rel === '' ? '' : `${escapeGlob(rel)}/`}**`;
  };
  if (inside && tool.kind === 'edit') {
    const folder = `${tool.name}(${under(bases.workspace, './')})`;
    const rule = `${tool.name}(./**)`;
    return folder === rule ? { rule } : { rule, narrower: folder };
  }
  let spec: string;
  if (inside) spec = under(bases.workspace, './');
  else if (isInside(bases.home, dir)) spec = under(bases.home, '~/');
  // "//" is the filesystem root; a single "/" in a settings file is anchored at that file's folder (Claude Code's rule).
  else spec = dir === '/' ? '//**' : `/${escapeGlob(dir)}/**`;
  return { rule: `${tool.name}(${spec})` };
}
