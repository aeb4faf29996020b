// What the offline model plans to do for a prompt (offline-script.ts reads prompts into plans).
import type { Message } from '../messages.js';

export interface PlannedCall {
  name: string;
  input: Record<string, unknown>;
}

export type OfflinePlan =
  | { kind: 'tools'; steps: PlannedCall[][] }
  /** Steps chosen from what the earlier ones returned (a skill's procedure: /init); undefined: done, summarise. */
  | {
      kind: 'script';
      next: (after: readonly Message[]) => PlannedCall[] | undefined;
      /** The closing text once `next` is done; without it, the usual summary of the tool results. */
      finish?: (after: readonly Message[]) => string;
    }
  | { kind: 'stream'; words: number; rate?: number }
  | { kind: 'think'; topic: string }
  | { kind: 'chat'; text: string };
