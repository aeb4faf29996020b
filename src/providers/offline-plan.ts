// What the offline model plans to do for a prompt (offline-script.ts reads prompts into plans).

export interface PlannedCall {
  name: string;
  input: Record<string, unknown>;
}

export type OfflinePlan =
  | { kind: 'tools'; steps: PlannedCall[][] }
  | { kind: 'stream'; words: number; rate?: number }
  | { kind: 'think'; topic: string }
  | { kind: 'chat'; text: string };
