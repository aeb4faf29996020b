/** The moment a frame is drawn: the clock for timers, the tick for spinners. Lines that change with it are live. */
export interface FrameInfo {
  now: number;
  tick: number;
}
