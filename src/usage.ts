import * as z from 'zod';

export const UsageSchema = z.object({
  input_tokens: z.number(),
  output_tokens: z.number(),
  cache_read_input_tokens: z.number().optional(),
  cache_creation_input_tokens: z.number().optional(),
  // A stream cut off (Esc, a dropped connection) reports what arrived; counts the provider never
  // sent for it (the output so far, an OpenAI-style prompt) are estimated from the text.
  estimated: z.boolean().optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

export const emptyUsage = (): Usage => ({ input_tokens: 0, output_tokens: 0 });
