import { isAbsolute, relative, sep } from 'node:path';
import picomatch from 'picomatch';
import type { ToolKind } from '../tools/tool.js';
import type { ParsedRule } from './rule-parse.js';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const bashPatternCache = new Map<string, RegExp>();

function bashPattern(specifier: string): RegExp {
  const cached = bashPatternCache.get(specifier);
  if (cached) return cached;
  // Legacy `git status:*` is the same as `git status *`: the command itself or it followed by arguments.
  let spec = specifier.endsWith(':*') ? `${specifier.slice(0, -2)} *` : specifier;
  // A trailing ` *` keeps the word boundary but also allows no arguments: `ls *` is `ls` or `ls ...`, never `lsof`.
  const trailing = spec.endsWith(' *') && !spec.endsWith('\\ *');
  if (trailing) spec = spec.slice(0, -2);
  let source = '';
  for (let i = 0; i < spec.length; i++) {
    const ch = spec[i]!;
    if (ch === '\\' && spec[i + 1] === '*') {
      source += '\\*';
      i += 1;
    } else if (ch === '*') source += '.*';
    else source += escapeRegExp(ch);
  }
  const regex = new RegExp(`^${source}${trailing ? '( .*)?' : ''}$`, 's');
  bashPatternCache.set(specifier, regex);
  return regex;
}

/** Whether a bash rule's specifier matches one simple command (already split from any compound). */
export function matchBashSpecifier(specifier: string, command: string): boolean {
  return bashPattern(specifier).test(command.trim());
}

export interface PathBases {
  /** The workspace, through symlinks. */
  workspace: string;
  home: string;
}

const globCache = new Map<string, picomatch.Matcher>();

function glob(pattern: string): picomatch.Matcher {
  let m = globCache.get(pattern);
  if (!m) {
    m = picomatch(pattern, { dot: true });
    globCache.set(pattern, m);
  }
  return m;
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
  let rel = relative(base, absPath);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    // `**/.env` is meant to catch that file anywhere, even outside the workspace.
    if (!pattern.startsWith('**/')) return false;
    rel = absPath.replace(/^\/+/, '');
  }
  if (rel === '') return pattern === '**';
  const segments = rel.split(sep);
  const matcher = glob(pattern);
  for (let i = 1; i <= segments.length; i++) {
    if (matcher(segments.slice(0, i).join('/'))) return true;
  }
  return false;
}

/** Claude Code semantics: `Edit(path)` covers every edit tool and `Read(path)` every read tool; anything else names one tool. */
export function ruleCoversTool(rule: ParsedRule, tool: { name: string; kind: ToolKind }): boolean {
  if (rule.tool === tool.name) return true;
  if (rule.specifier === undefined) return false;
  return (rule.tool === 'edit_file' && tool.kind === 'edit') || (rule.tool === 'read_file' && tool.kind === 'read');
}
