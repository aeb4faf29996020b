/**
 * A key this soon after a question is drawn was typed before anyone could read it. Visual reaction
 * time alone is ~250 ms, and reading what is asked takes longer; Claude Code and VS Code guard
 * their prompts with a few hundred ms. 500 ms keeps a deliberate `y` feeling immediate.
 */
export const ANSWER_GUARD_MS = 500;
/**
 * While keys keep coming this close together the person is typing something else, not answering.
 * Typing at 1-5 keys per second leaves 200-1000 ms between keys.
 */
export const TYPING_IDLE_MS = 1000;

/**
 * When a question that grants something (an approval, trusting a folder) may take a key: once it has
 * been on screen for ANSWER_GUARD_MS and no key has gone elsewhere for TYPING_IDLE_MS. Type-ahead,
 * keys already buffered when the question appeared, and keys stuffed into the terminal all fail it.
 */
export interface AnswerGuard {
  /** The question reached the screen now. */
  shown(): void;
  /** A key did not answer (it went to the draft, or was ignored): typing is going on. */
  noteTyping(): void;
  ready(): boolean;
  /** How long until ready() holds if no other key comes; 0 when it does. */
  msUntilReady(): number;
}

export function createAnswerGuard(now: () => number): AnswerGuard {
  let shownAt = now();
  let lastTypingAt = Number.NEGATIVE_INFINITY;
  const msUntilReady = (): number => Math.max(0, shownAt + ANSWER_GUARD_MS - now(), lastTypingAt + TYPING_IDLE_MS - now());
  return {
    shown() {
      shownAt = now();
    },
    noteTyping() {
      lastTypingAt = now();
    },
    ready: () => msUntilReady() === 0,
    msUntilReady,
  };
}
