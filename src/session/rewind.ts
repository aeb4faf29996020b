import type { Message } from '../messages.js';
import { restoreCode, type RestoreOutcome } from './checkpoint-restore.js';
import type { CheckpointRecorder } from './checkpoint-tools.js';
import { planRewind, type RewindChange } from './checkpoints.js';

/** A prompt the conversation can be rewound to: where its message sits in the history, and what the user typed. */
export interface PromptMark {
  turn: number;
  text: string;
}

export interface RewoundConversation {
  messages: Message[];
  marks: PromptMark[];
  /** How many prompts left the conversation (the chosen one and every later one). */
  dropped: number;
}

/** The conversation as it was just before the prompt at `turn`, or undefined when no prompt sits there. */
export function rewindConversation(history: readonly Message[], marks: readonly PromptMark[], turn: number): RewoundConversation | undefined {
  if (!marks.some((m) => m.turn === turn) || turn > history.length) return undefined;
  const kept = marks.filter((m) => m.turn < turn);
  return { messages: history.slice(0, turn), marks: kept, dropped: marks.length - kept.length };
}

/** What restoring code to just before the prompt at `turn` would change (for the dialog to show first). */
export function codeChanges(recorder: CheckpointRecorder | undefined, turn: number): RewindChange[] {
  return recorder ? planRewind(recorder.store.all(), turn) : [];
}

/** Restores code to just before the prompt at `turn`: each changed file's earlier content, newest change first. */
export function rewindCode(recorder: CheckpointRecorder | undefined, cwd: string, turn: number): Promise<RestoreOutcome[]> {
  return restoreCode(cwd, codeChanges(recorder, turn));
}
