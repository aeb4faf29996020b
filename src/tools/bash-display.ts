import * as z from 'zod';

/** What a bash card knows beside the output. A background start has only the command and the shell's id. */
export const BashDisplaySchema = z.object({
  kind: z.literal('bash'),
  command: z.string(),
  description: z.string().optional(),
  exitCode: z.number().nullable().optional(),
  signal: z.string().nullable().optional(),
  timedOut: z.boolean().optional(),
  interrupted: z.boolean().optional(),
  truncated: z.boolean().optional(),
  background: z.literal(true).optional(),
  shellId: z.string().optional(),
  /** What the sandbox refused while the command ran (it may still have exited 0: curl on the proxy's 403). */
  sandboxRefused: z.object({ domains: z.array(z.string()), paths: z.array(z.string()) }).optional(),
});
export type BashDisplay = z.infer<typeof BashDisplaySchema>;
