import fs from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { isErrno } from './result.js';
import { isInside } from './paths.js';

/**
 * Answers "would git ignore this path?" for files inside the workspace, using the root .gitignore,
 * .git/info/exclude and nested .gitignore files (each relative to its own directory, deeper wins).
 */
export class GitignoreFilter {
  private readonly cache = new Map<string, Promise<Ignore | undefined>>();

  constructor(private readonly root: string) {}

  async isIgnored(abs: string, isDir: boolean): Promise<boolean> {
    if (!isInside(this.root, abs) || abs === this.root) return false;
    const chain: string[] = [];
    for (let dir = path.dirname(abs); ; dir = path.dirname(dir)) {
      chain.unshift(dir);
      if (dir === this.root || !isInside(this.root, dir) || dir === path.dirname(dir)) break;
    }
    let ignored = false;
    for (const dir of chain) {
      const matcher = await this.matcherFor(dir);
      if (!matcher) continue;
      const rel = path.relative(dir, abs).split(path.sep).join('/') + (isDir ? '/' : '');
      const verdict = matcher.test(rel);
      if (verdict.ignored) ignored = true;
      else if (verdict.unignored) ignored = false;
    }
    return ignored;
  }

  private matcherFor(dir: string): Promise<Ignore | undefined> {
    let pending = this.cache.get(dir);
    if (!pending) {
      pending = this.load(dir);
      this.cache.set(dir, pending);
    }
    return pending;
  }

  private async load(dir: string): Promise<Ignore | undefined> {
    const sources = [path.join(dir, '.gitignore')];
    if (dir === this.root) sources.unshift(path.join(dir, '.git', 'info', 'exclude'));
    let matcher: Ignore | undefined;
    for (const file of sources) {
      const text = await readIfExists(file);
      if (text === undefined) continue;
      matcher ??= ignore();
      matcher.add(text);
    }
    return matcher;
  }
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    // A missing or unreadable ignore file just means nothing is ignored at that level.
    if (isErrno(err, 'ENOENT') || isErrno(err, 'ENOTDIR') || isErrno(err, 'EACCES') || isErrno(err, 'EISDIR')) {
      return undefined;
    }
    throw err;
  }
}
