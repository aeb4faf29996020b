// /export: a session file as something to read or share. Markdown holds the prompts, the answers
// and each tool call with its input and the start of its output; json is the event stream itself
// (one event per line, the header first), as cairn -p --output-format stream-json prints it.
import type { AgentEvent } from '../events.js';
import { readSessionRecords } from './session-records.js';

export type ExportFormat = 'markdown' | 'json';

/** A tool's output in the Markdown: its first lines, and how many more there were. */
const MAX_OUTPUT_LINES = 30;
const MAX_OUTPUT_CHARS = 3000;

export interface SessionExport {
  text: string;
  prompts: number;
  /** Lines of the file that could not be read (named with file:line), left out of the export. */
  warnings: string[];
}

export async function exportSession(file: string, format: ExportFormat, name?: string): Promise<SessionExport> {
  const out: string[] = [];
  const warnings: string[] = [];
  let prompts = 0;
  for await (const record of readSessionRecords(file)) {
    if (record.kind === 'broken' || record.kind === 'unknown') {
      warnings.push(record.warning);
      continue;
    }
    if (format === 'json') {
      out.push(JSON.stringify(record.kind === 'header' ? record.header : record.event));
      if (record.kind === 'event' && record.event.type === 'user_prompt') prompts++;
      continue;
    }
    if (record.kind === 'header') {
      out.push(`# cairn session ${name !== undefined ? `"${name}" ` : ''}(${record.header.id})`, '', `Workspace: \`${record.header.cwd}\`  `, `Started: ${record.header.created}`, '');
      continue;
    }
    if (record.event.type === 'user_prompt') prompts++;
    out.push(...markdownOf(record.event));
  }
  return { text: `${out.join('\n').trimEnd()}\n`, prompts, warnings };
}

function markdownOf(event: AgentEvent): string[] {
  switch (event.type) {
    case 'user_prompt':
      return ['## Prompt', '', event.text, ''];
    case 'assistant': {
      const text = event.message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n').trim();
      return text ? ['### Answer', '', text, ''] : [];
    }
    case 'tool_start':
      return [`### Tool call: ${event.name}`, '', fenced(JSON.stringify(event.input, null, 2), 'json'), ''];
    case 'tool_result':
      return [`Output of ${event.name}${event.is_error ? ' (error)' : ''}:`, '', fenced(trimmed(event.content)), ''];
    default:
      return [];
  }
}

function trimmed(content: string): string {
  const lines = content.split('\n');
  let kept = lines.slice(0, MAX_OUTPUT_LINES).join('\n');
  if (kept.length > MAX_OUTPUT_CHARS) kept = kept.slice(0, MAX_OUTPUT_CHARS);
  const left = content.length - kept.length;
  return left > 0 ? `${kept}\n… (${lines.length > MAX_OUTPUT_LINES ? `${lines.length - MAX_OUTPUT_LINES} more lines, ` : ''}${left} more characters)` : kept;
}

/** A fence longer than any run of backticks inside, so the content cannot close it. */
function fenced(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}
