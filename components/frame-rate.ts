// One clock for the frames nobody typed for: the store applies a streaming answer's events in
// batches this far apart, and the painter draws timer-driven rows (the spinner, the status row's
// clock) no more often. Two clocks of the same period let each add frames between the other's.
// A keystroke's frame is drawn at once, whatever this is.

/**
 * Between two frames of a streaming answer (and of the timers), in ms: 20 a second. Measured side
 * by side in tmux, a paced answer costs 0.35-0.45 s less CPU over 43 s at 50 ms than at 33 ms (about
 * 9%: each frame's diff, terminal write and unfinished-block render), and the text arrives in
 * steps of ~40 characters instead of ~27 at 800 characters a second (BENCHMARKS.md).
 */
export const FRAME_MS = 50;
