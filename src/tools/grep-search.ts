import fs from 'node:fs/promises';
import { BINARY_SNIFF_BYTES, looksBinary } from './binary.js';
import { readLineBlocks, type LineBlock } from './line-reader.js';
import { RegexSearch, type BatchOutcome, type SearchMode } from './regex-worker.js';
import { errorResult } from './result.js';
import type { ToolResult } from './tool.js';
import { itemAt } from '../util/invariant.js';

export interface FileHits {
  shown: string;
  count: number;
  lines: { no: number; text: string }[];
}

export interface GrepSearchOptions {
  readonly pattern: string;
  readonly flags: string;
  readonly mode: SearchMode;
  /** Content mode stops collecting lines after this many. */
  readonly maxLines: number;
  readonly maxLineChars: number;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

/** A line keeps this much for searching; longer lines (only in files named explicitly) are searched in part. */
const MAX_SEARCH_LINE_BYTES = 1024 * 1024;
// Small files go to the worker many at a time: one message per file cost more than the search itself.
// Batches start small so a search that can stop early (content mode's cap) answers quickly, then grow.
const BATCH_BYTES = 1024 * 1024;
const FIRST_BATCH_FILES = 16;
const MAX_BATCH_FILES = 256;

export const INTERRUPTED: ToolResult = errorResult('grep was interrupted.');

function timeoutMessage(pattern: string, seconds: number, shown: string): string {
  return `The pattern /${pattern}/ took longer than ${seconds} s on ${shown} (catastrophic backtracking?), so the search was stopped. Simplify it: avoid nested or overlapping quantifiers such as (a+)+ or (a|a)*, anchor it, or search for a plain literal part first.`;
}

/** Counts a buffer's lines the way the line reader does: a last line without a newline still counts. */
function lineCount(data: Buffer): number {
  let n = 0;
  for (let i = data.indexOf(10); i !== -1; i = data.indexOf(10, i + 1)) n++;
  return data.length > 0 && data[data.length - 1] !== 10 ? n + 1 : n;
}

/**
 * The searching half of grep: files in, hits out, in walk order. Methods return a result when the whole
 * search must end (a runaway pattern, an interruption, a failure) and undefined to go on.
 */
export class GrepSearch {
  readonly files: FileHits[] = [];
  /** Lines too long to search whole, described for the result. */
  readonly partly: string[] = [];
  matchCount = 0;
  private readonly regex: RegexSearch;
  private pending: { shown: string; block: LineBlock }[] = [];
  private pendingBytes = 0;
  private batchFiles = FIRST_BATCH_FILES;

  constructor(private readonly opts: GrepSearchOptions) {
    this.regex = new RegexSearch(opts.pattern, opts.flags, { timeoutMs: opts.timeoutMs, signal: opts.signal, maxChars: opts.maxLineChars });
  }

  private get room(): number {
    return this.opts.maxLines + 1 - this.matchCount;
  }

  /** Queues a small file already in memory (binary files are skipped); searches the queue once it is full. */
  async addSmall(shown: string, data: Buffer): Promise<ToolResult | undefined> {
    if (looksBinary(data) || data.length === 0) return undefined;
    this.pending.push({ shown, block: { firstLine: 1, lineCount: lineCount(data), data, cut: new Map() } });
    this.pendingBytes += data.length;
    return this.pendingBytes >= BATCH_BYTES || this.pending.length >= this.batchFiles ? this.flush() : undefined;
  }

  /** Searches whatever is queued. */
  async flush(): Promise<ToolResult | undefined> {
    const batch = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    if (batch.length === 0) return undefined;
    this.batchFiles = Math.min(this.batchFiles * 2, MAX_BATCH_FILES);
    const outcome = await this.regex.search(batch.map((b) => b.block), this.opts.mode, this.room);
    if (outcome.kind !== 'done') return this.stop(outcome, (i) => batch[i]?.shown ?? 'a file');
    outcome.results.forEach((r, i) => {
      if (r.count > 0) this.record({ shown: itemAt(batch, i, 'searched file').shown, count: r.count, lines: r.lines });
    });
    return undefined;
  }

  /** Streams a file of any size block by block; a binary file named explicitly is an error. */
  async searchFile(file: string, shown: string): Promise<ToolResult | undefined> {
    const handle = await fs.open(file, 'r');
    try {
      const head = Buffer.alloc(BINARY_SNIFF_BYTES);
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      if (looksBinary(head.subarray(0, bytesRead))) return errorResult(`${shown} is a binary file.`);
      const hits: FileHits = { shown, count: 0, lines: [] };
      for await (const block of readLineBlocks(handle, { signal: this.opts.signal, maxLineBytes: MAX_SEARCH_LINE_BYTES })) {
        const room = this.room - hits.lines.length;
        const outcome = await this.regex.search([block], this.opts.mode, room);
        if (outcome.kind !== 'done') return this.stop(outcome, () => shown);
        const r = itemAt(outcome.results, 0, 'search result');
        hits.count += r.count;
        hits.lines.push(...r.lines);
        for (const [no, bytes] of block.cut) this.partly.push(`${shown} line ${no} is ${bytes.toLocaleString('en-US')} bytes`);
        if ((this.opts.mode === 'any' && hits.count > 0) || (this.opts.mode === 'lines' && hits.lines.length >= room)) break;
      }
      if (this.opts.signal.aborted) return INTERRUPTED;
      if (hits.count > 0) this.record(hits);
      return undefined;
    } finally {
      await handle.close();
    }
  }

  close(): void {
    this.regex.close();
  }

  private record(hits: FileHits): void {
    this.files.push(hits);
    this.matchCount += hits.count;
  }

  private stop(outcome: Exclude<BatchOutcome, { kind: 'done' }>, fileAt: (index: number) => string): ToolResult {
    if (outcome.kind === 'aborted') return INTERRUPTED;
    if (outcome.kind === 'timeout') return errorResult(timeoutMessage(this.opts.pattern, this.opts.timeoutMs / 1000, fileAt(outcome.index)));
    return errorResult(`grep failed: ${outcome.message}`);
  }
}
