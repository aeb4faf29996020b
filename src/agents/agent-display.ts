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
  /** It worked in its own git worktree (`isolation: worktree`): where, and what it changed there. */
  worktree: z
    .object({ branch: z.string(), path: z.string(), kept: z.boolean(), files: z.number(), added: z.number(), removed: z.number(), commits: z.number() })
    .optional(),
});
export type AgentDisplay = z.infer<typeof AgentDisplaySchema>;
