import fs from 'node:fs/promises';
import path from 'node:path';
import type { GitignoreFilter } from './gitignore.js';
import { INTERRUPTED, type FileHits, type GrepSearch } from './grep-search.js';
import { displayPath, isInside } from './paths.js';
import { isFileReadDenied } from './read-deny.js';
import type { ToolContext, ToolResult } from './tool.js';
import { walkFiles } from './walk.js';

export const MAX_GREP_FILE_BYTES = 1024 * 1024;

export interface DirectoryHits {
  files: FileHits[];
  matchCount: number;
  partly: readonly string[];
  denied: number;
  outsideLinks: number;
}

export interface DirectorySearch {
  target: string;
  realTarget: string;
  filter: GitignoreFilter;
  useIgnore: boolean;
  matchesGlob: ((rel: string) => boolean) | undefined;
  skipNodeModules: boolean;
}

/** The directory search in JavaScript: walks the tree in order and feeds the files to the regex worker. */
export async function walkAndSearch(search: GrepSearch, contentMode: boolean, maxResults: number, ctx: ToolContext, where: DirectorySearch): Promise<DirectoryHits | ToolResult> {
  const { target, realTarget, matchesGlob } = where;
  // Where in the walk each denied file and skipped link came, and each searched file: only those before the cut
  // are counted (the files are searched in batches, so the walk runs past it), as in ripgrep's search.
  const deniedAt: number[] = [];
  const outsideAt: number[] = [];
  const searchedAt = new Map<string, number>();
  let position = 0;
  try {
    for await (const file of walkFiles(target, {
      gitignore: where.useIgnore ? where.filter : undefined,
      skipNodeModules: where.skipNodeModules,
      signal: ctx.signal,
    })) {
      if (matchesGlob && !matchesGlob(path.relative(target, file).split(path.sep).join('/'))) continue;
      const at = position++;
      if (await isFileReadDenied(ctx, file)) {
        deniedAt.push(at);
        continue;
      }
      let data: Buffer;
      try {
        const link = await fs.lstat(file);
        // A link is followed only where the search may read anyway (ripgrep follows none).
        if (link.isSymbolicLink()) {
          const real = await fs.realpath(file);
          if (!isInside(ctx.cwd, real) && !isInside(realTarget, real)) {
            outsideAt.push(at);
            continue;
          }
        }
        if ((link.isSymbolicLink() ? await fs.stat(file) : link).size > MAX_GREP_FILE_BYTES) continue;
        data = await fs.readFile(file);
      } catch {
        continue; // Unreadable or vanished files are skipped, like grep -s.
      }
      const shown = displayPath(ctx.cwd, file);
      searchedAt.set(shown, at);
      const stop = await search.addSmall(shown, data);
      if (stop) return stop;
      // Content mode can stop early; the other modes are cheap per file and need the file list.
      if (contentMode && search.matchCount > maxResults) break;
      if (search.files.length > maxResults) break;
    }
    if (ctx.signal.aborted) return INTERRUPTED;
    const stop = await search.flush();
    if (stop) return stop;
  } finally {
    search.close();
  }
  // Files are searched in batches, so the last batch may run past the cap: cut where ripgrep's search stops
  // (grep-rg.ts), at the file that first makes it enough, so both give the same counts.
  const kept: typeof search.files = [];
  let matchCount = 0;
  let cutAt = Number.POSITIVE_INFINITY;
  for (const hits of search.files) {
    kept.push(hits);
    matchCount += hits.count;
    if ((contentMode && matchCount > maxResults) || kept.length > maxResults) {
      cutAt = searchedAt.get(hits.shown) ?? cutAt;
      break;
    }
  }
  const before = (at: number): boolean => at < cutAt;
  return { files: kept, matchCount, partly: search.partly, denied: deniedAt.filter(before).length, outsideLinks: outsideAt.filter(before).length };
}

