import * as z from 'zod';

/**
 * `reason` is the subagent's terminal reason. A plain string: events.ts validates displays through
 * this file, so importing its TerminalReasonSchema here would be an import cycle.
 */
export const AgentDisplaySchema = z.object({
  kind: z.literal('agent'),
  agent: z.string(),
  turns: z.number(),
  reason: z.string(),
});
export type AgentDisplay = z.infer<typeof AgentDisplaySchema>;
