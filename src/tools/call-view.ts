import * as z from 'zod';

// How a tool call is shown: its title (the card's header, the scrollback line, the page's summary)
// and what an approval of it is about. A tool describes its own calls from its typed input
// (Tool.describe); the loop puts the result on tool_start and permission_request, so no renderer
// guesses from input keys. This file imports nothing but zod: events.ts validates recorded views.

/** What an approval is about: a command, a path (its diff is the request's preview), a plan, a question, or the raw input. */
export const CallSubjectSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('command'), command: z.string() }),
  z.object({ kind: z.literal('path'), path: z.string() }),
  z.object({ kind: z.literal('plan'), plan: z.string() }),
  z.object({ kind: z.literal('question'), question: z.string() }),
  z.object({ kind: z.literal('input') }),
]);
export type CallSubject = z.infer<typeof CallSubjectSchema>;

export const CallViewSchema = z.object({
  /** One line naming the call: a path, a pattern, the description the model wrote for a command. */
  title: z.string(),
  subject: CallSubjectSchema,
});
export type CallView = z.infer<typeof CallViewSchema>;

const TITLE_MAX = 200;

/** `text`'s first non-empty line, cut to a title's length. */
export function titleLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
  return line.length > TITLE_MAX ? `${line.slice(0, TITLE_MAX - 1)}…` : line;
}

/**
 * The view of a call whose tool does not describe its calls (an MCP or plugin tool, an unknown
 * tool, a call recorded before views existed): its first short text argument as the title, else
 * its input as compact JSON; the approval shows the raw input. Never an empty title.
 */
export function genericCallView(input: unknown): CallView {
  const record = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : undefined;
  const text = record ? namingText(record) : typeof input === 'string' ? input : undefined;
  const json = record && Object.keys(record).length === 0 ? '' : (JSON.stringify(input) ?? '');
  const title = titleLine(text ?? json) || '(no arguments)';
  return { title, subject: { kind: 'input' } };
}

// The arguments that usually name a call, in the order they say most; else the first text argument.
const NAMING_KEYS = ['command', 'path', 'file_path', 'pattern', 'query', 'url', 'description', 'name'];

function namingText(record: Record<string, unknown>): string | undefined {
  const named = NAMING_KEYS.map((k) => record[k]).find((v): v is string => typeof v === 'string' && v.trim() !== '');
  return named ?? Object.values(record).find((v): v is string => typeof v === 'string' && v.trim() !== '');
}

/** A tool as far as its view goes (tool.ts's Tool has this shape). */
export interface DescribingTool {
  readonly inputSchema: { safeParse(input: unknown): { success: true; data: unknown } | { success: false } };
  describe?(input: never): CallView;
}

/**
 * The view of a call: the tool's own description of its parsed input, or the generic view when the
 * tool has none, the input does not fit its schema, or describe throws. Never throws.
 */
export function describeCall(tool: DescribingTool | undefined, input: unknown): CallView {
  if (tool?.describe) {
    const parsed = tool.inputSchema.safeParse(input);
    if (parsed.success) {
      try {
        const view = (tool.describe as (input: unknown) => CallView)(parsed.data);
        if (view.title.trim() !== '') return view;
        return { ...view, title: genericCallView(input).title };
      } catch {
        // A view is a courtesy: the generic one still names the call.
      }
    }
  }
  return genericCallView(input);
}
