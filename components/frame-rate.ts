// One clock for the frames nobody typed for: the store applies a streaming answer's events in
// batches this far apart, and the painter draws timer-driven rows (the spinner, the status row's
// clock) no more often. Two clocks of the same period let each add frames between the other's.
// A keystroke's frame is drawn at once, whatever this is.

/** Between two frames of a streaming answer (and of the timers), in ms. */
export const FRAME_MS = 33;
