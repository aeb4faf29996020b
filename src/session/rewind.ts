import type { Message } from '../messages.js';
import { restoreCode, type RestoreOutcome } from './checkpoint-restore.js';
import type { CheckpointRecorder } from './checkpoint-tools.js';
import { planRewind, type CheckpointKey, type RewindChange } from './checkpoints.js';

/**
 * A prompt the conversation can be rewound to: where its message sits in the history (`turn`), what
 * the user typed, and `id`, its number among all the session's prompts (0 for the first ever; it
 * keeps counting across /clear, compaction and rewind, so it names this prompt and no other, and
 * keys the checkpoints of the file changes it caused).
 */
export interface PromptMark {
  turn: number;
  id: number;
  text: string;
}

/** The prompts of a session read back: those rewind can go back to, and how many the session has had (the next one's id). */
export interface PromptHistory {
  marks: PromptMark[];
  count: number;
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

/** What restoring code to just before `prompt` would change (for the dialog to show first). */
export function codeChanges(recorder: CheckpointRecorder | undefined, prompt: CheckpointKey): RewindChange[] {
  return recorder ? planRewind(recorder.store.all(), prompt) : [];
}

/** Restores code to just before `prompt`: each changed file's earlier content, newest change first. */
export function rewindCode(recorder: CheckpointRecorder | undefined, cwd: string, prompt: CheckpointKey): Promise<RestoreOutcome[]> {
  return restoreCode(cwd, codeChanges(recorder, prompt));
}
