import * as z from 'zod';
import { AgentDisplaySchema } from '../agents/agent-display.js';
import { BashDisplaySchema } from './bash-display.js';
import { BashOutputDisplaySchema } from './bash-output-display.js';
import { CronCreateDisplaySchema } from './cron-create-display.js';
import { CronListDisplaySchema } from './cron-list-display.js';
import { EditFileDisplaySchema } from './edit-file-display.js';
import { GlobDisplaySchema } from './glob-display.js';
import { GrepDisplaySchema } from './grep-display.js';
import { ListDirDisplaySchema } from './list-dir-display.js';
import { ReadFileDisplaySchema } from './read-file-display.js';
import { ReportFindingsDisplaySchema } from './report-findings-display.js';
import { WriteFileDisplaySchema } from './write-file-display.js';
import { WebFetchDisplaySchema } from './web-fetch-display.js';
import { WebSearchDisplaySchema } from './web-search-display.js';

// What a tool's result carries for the UI beside its text, one shape per tool, told apart by
// `kind` (the tool's name). Each tool declares its shape in `<tool>-display.ts`, a file with no
// imports but zod, because events.ts validates recorded displays with this union. A new tool adds
// its schema here; its card (components/transcript/tool-cards.ts) reads it.
export const ToolDisplaySchema = z.discriminatedUnion('kind', [
  BashDisplaySchema,
  BashOutputDisplaySchema,
  ReadFileDisplaySchema,
  EditFileDisplaySchema,
  WriteFileDisplaySchema,
  ListDirDisplaySchema,
  GrepDisplaySchema,
  GlobDisplaySchema,
  CronCreateDisplaySchema,
  CronListDisplaySchema,
  AgentDisplaySchema,
  WebFetchDisplaySchema,
  WebSearchDisplaySchema,
  ReportFindingsDisplaySchema,
]);
export type ToolDisplay = z.infer<typeof ToolDisplaySchema>;
export type ToolDisplayKind = ToolDisplay['kind'];
export type DisplayOf<K extends ToolDisplayKind> = Extract<ToolDisplay, { kind: K }>;

/**
 * A recorded display, checked against today's shapes. One written before displays had a kind gets
 * its tool's name as kind. One that still does not fit is dropped, never the result it came with:
 * the card keeps its text and loses only its extras (a summary, a diff).
 */
export function parseToolDisplay(toolName: string, raw: unknown): ToolDisplay | undefined {
  const parsed = ToolDisplaySchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || 'kind' in raw) return undefined;
  const legacy = ToolDisplaySchema.safeParse({ ...raw, kind: toolName });
  return legacy.success ? legacy.data : undefined;
}
