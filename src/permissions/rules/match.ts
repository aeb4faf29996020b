import { isAbsolute, relative, sep } from 'node:path';
import picomatch from 'picomatch';
import { compileGlob, GlobSyntaxError } from '../../tools/glob-match.js';
import type { ToolKind } from '../../tools/tool.js';
import type { ParsedRule } from './parse.js';
import { itemAt } from '../../util/invariant.js';

/** A bash specifier compiled to the literal runs between its `*` wildcards. */
interface WildcardPattern {
  /** Literal text between stars: `a*b*c` is ['a', 'b', 'c']; no star means one part. */
  parts: string[];
  /** A trailing ` *`: the pattern alone, or followed by a space and anything. */
  trailing: boolean;
}

const bashPatternCache = new Map<string, WildcardPattern>();

function bashPattern(specifier: string): WildcardPattern {
  const cached = bashPatternCache.get(specifier);
  if (cached) return cached;
  // Legacy `git status:*` is the same as `git status *`: the command itself or it followed by arguments.
  let spec = specifier.endsWith(':*') ? `${specifier.slice(0, -2)} *` : specifier;
  // A trailing ` *` keeps the word boundary but also allows no arguments: `ls *` is `ls` or `ls ...`, never `lsof`.
  const trailing = spec.endsWith(' *') && !spec.endsWith('\\ *');
  if (trailing) spec = spec.slice(0, -2);
  const parts = [''];
  for (let i = 0; i < spec.length; i++) {
    const ch = spec.charAt(i);
    if (ch === '\\' && spec[i + 1] === '*') {
      parts[parts.length - 1] += '*';
      i += 1;
    } else if (ch === '*') parts.push('');
    else parts[parts.length - 1] += ch;
  }
  const pattern = { parts, trailing };
  bashPatternCache.set(specifier, pattern);
  return pattern;
}

/**
 * Whether `text` matches literal parts joined by `*` (any characters, newlines included). Placing each
 * middle part at its leftmost occurrence is optimal, so this never backtracks: O(text x pattern) at worst,
 * where a compiled `.*a.*a.*b` regex took exponential time on a long command.
 */
function matchWildcards(parts: readonly string[], text: string): boolean {
  const first = itemAt(parts, 0, 'wildcard part');
  if (parts.length === 1) return text === first;
  const last = itemAt(parts, parts.length - 1, 'wildcard part');
  if (text.length < first.length + last.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  let pos = first.length;
  const end = text.length - last.length;
  for (const part of parts.slice(1, -1)) {
    const at = text.indexOf(part, pos);
    if (at === -1 || at + part.length > end) return false;
    pos = at + part.length;
  }
  return true;
}

/** Whether a bash rule's specifier matches one simple command (already split from any compound). */
export function matchBashSpecifier(specifier: string, command: string): boolean {
  const { parts, trailing } = bashPattern(specifier);
  const text = command.trim();
  if (matchWildcards(parts, text)) return true;
  // `P( .*)?` is `P` or `P *`: the last literal part gains a space and a star follows it.
  if (!trailing) return false;
  const withArgs = [...parts.slice(0, -1), `${itemAt(parts, parts.length - 1, 'wildcard part')} `, ''];
  return matchWildcards(withArgs, text);
}

export interface PathBases {
  /** The workspace, through symlinks. */
  workspace: string;
  home: string;
  /** permissions.additionalDirectories, through symlinks: read-only commands read there as in the workspace. */
  readRoots?: readonly string[];
  /** Where a command's relative paths start when it runs in a folder of the workspace (`cd sub && ...`); the workspace when absent. Rules stay relative to the workspace. */
  cwd?: string;
}

/** Whether a pattern matches some leading part of a path (given as segments): a directory covers what is inside it. */
type PrefixMatcher = (segments: readonly string[]) => boolean;

const globCache = new Map<string, PrefixMatcher>();

/**
 * Rule patterns match in linear time, one pass over the path for all its prefixes (the model chooses the
 * paths, and a backtracking matcher took seconds on a long one). Syntax the linear matcher lacks (extglobs,
 * POSIX classes) falls back to picomatch: the user wrote that rule on purpose, and a deny rule must not
 * silently stop applying.
 */
function glob(pattern: string): PrefixMatcher {
  let m = globCache.get(pattern);
  if (!m) {
    m = prefixMatcher(pattern);
    globCache.set(pattern, m);
  }
  return m;
}

function prefixMatcher(pattern: string): PrefixMatcher {
  try {
    const g = compileGlob(pattern);
    return (segments) => {
      let states = g.initial();
      for (const [i, segment] of segments.entries()) {
        if (!g.alive(states)) break;
        states = g.advance(states, i === 0 ? segment : `/${segment}`);
        if (g.accepts(states)) return true;
      }
      return false;
    };
  } catch (err) {
    if (!(err instanceof GlobSyntaxError)) throw err;
    const pm = picomatch(pattern, { dot: true });
    return (segments) => segments.some((_, i) => pm(segments.slice(0, i + 1).join('/')));
  }
}

function splitSpecifier(specifier: string, bases: PathBases): { base: string; pattern: string } {
  if (specifier === '~' || specifier.startsWith('~/')) return { base: bases.home, pattern: specifier.slice(2) };
  if (specifier.startsWith('/')) return { base: '/', pattern: specifier.replace(/^\/+/, '') };
  if (specifier === '.' || specifier.startsWith('./')) return { base: bases.workspace, pattern: specifier.slice(2) };
  return { base: bases.workspace, pattern: specifier };
}

/**
 * Gitignore-style match of an absolute path: `./x` and `x` are relative to the workspace, `/x` absolute,
 * `~/x` in the home directory, `**` any depth; a pattern naming a directory covers everything inside it.
 */
export function matchPathSpecifier(specifier: string, absPath: string, bases: PathBases): boolean {
  const { base, pattern: raw } = splitSpecifier(specifier, bases);
  const pattern = raw.replace(/\/+$/, '') || '**';
  // A bare name or glob (`*.md`, `.env`) matches at any depth below the workspace, as in gitignore and Claude Code.
  const anyDepth = isBarePattern(specifier) && !pattern.includes('/') && pattern !== '**';
  let rel = relative(base, absPath);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    // `**/.env` is meant to catch that file anywhere, even outside the workspace.
    if (!pattern.startsWith('**/')) return false;
    rel = absPath.replace(/^\/+/, '');
  }
  if (rel === '') return pattern === '**';
  return glob(anyDepth ? `**/${pattern}` : pattern)(rel.split(sep));
}

/** A pattern written without an anchor (`/`, `./`, `~`): relative to the workspace, and any depth when it has no slash. */
export function isBarePattern(specifier: string): boolean {
  return !/^(\/|\.\.?\/|\.\.?$|~)/.test(specifier);
}

/**
 * Whether a rule's tool name names this tool: exactly; `mcp__server` every tool of that server (as
 * `mcp__server__*` does); a `*` anywhere a wildcard over tool names (`mcp__*`, `*`).
 */
export function ruleNamesTool(ruleTool: string, toolName: string): boolean {
  if (ruleTool === toolName) return true;
  if (ruleTool.includes('*')) return matchWildcards(ruleTool.split('*'), toolName);
  return ruleTool.startsWith('mcp__') && !ruleTool.slice('mcp__'.length).includes('__') && toolName.startsWith(`${ruleTool}__`);
}

/** Claude Code semantics: `Edit(path)` covers every edit tool and `Read(path)` every read tool; anything else names one tool (and a tool whose commands are another's, that one's). */
export function ruleCoversTool(rule: ParsedRule, tool: { name: string; kind: ToolKind; commandRulesOf?: string }): boolean {
  if (ruleNamesTool(rule.tool, tool.name)) return true;
  // monitor's command is judged by bash's rules as well as its own (tool.ts, commandRulesOf).
  if (tool.commandRulesOf !== undefined && ruleNamesTool(rule.tool, tool.commandRulesOf)) return true;
  if (rule.specifier === undefined) return false;
  return (rule.tool === 'edit_file' && tool.kind === 'edit') || (rule.tool === 'read_file' && tool.kind === 'read');
}
