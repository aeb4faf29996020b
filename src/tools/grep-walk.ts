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
  let denied = 0;
  let outsideLinks = 0;
  try {
    for await (const file of walkFiles(target, {
      gitignore: where.useIgnore ? where.filter : undefined,
      skipNodeModules: where.skipNodeModules,
      signal: ctx.signal,
    })) {
      if (matchesGlob && !matchesGlob(path.relative(target, file).split(path.sep).join('/'))) continue;
      if (await isFileReadDenied(ctx, file)) {
        denied++;
        continue;
      }
      let data: Buffer;
      try {
        const link = await fs.lstat(file);
        // A link is followed only where the search may read anyway (ripgrep follows none).
        if (link.isSymbolicLink()) {
          const real = await fs.realpath(file);
          if (!isInside(ctx.cwd, real) && !isInside(realTarget, real)) {
            outsideLinks++;
            continue;
          }
        }
        if ((link.isSymbolicLink() ? await fs.stat(file) : link).size > MAX_GREP_FILE_BYTES) continue;
        data = await fs.readFile(file);
      } catch {
        continue; // Unreadable or vanished files are skipped, like grep -s.
      }
      const stop = await search.addSmall(displayPath(ctx.cwd, file), data);
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
  for (const hits of search.files) {
    kept.push(hits);
    matchCount += hits.count;
    if ((contentMode && matchCount > maxResults) || kept.length > maxResults) break;
  }
  return { files: kept, matchCount, partly: search.partly, denied, outsideLinks };
}

