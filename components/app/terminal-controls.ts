import { copyText, type ClipboardOptions, type CopyResult } from '../terminal/clipboard.js';
import { MOUSE_OFF, MOUSE_ON } from './terminal-output.js';

/** What commands and keys may ask of the terminal itself: the clipboard and mouse reporting. */
export interface TerminalControls {
  copy(text: string): Promise<CopyResult>;
  mouse(): boolean;
  /** Turns wheel reporting on or off now (and remembers the choice through `save`). */
  setMouse(on: boolean): void;
  /** The terminal window's title (OSC 0). */
  setTitle(title: string): void;
  /** The terminal reported focus in or out. */
  reportFocus(focused: boolean): void;
}

export interface TerminalControlsOptions extends ClipboardOptions {
  mouse: boolean;
  /** Remembers the mouse choice for the next run. */
  saveMouse?(on: boolean): void;
  onFocus?(focused: boolean): void;
}

export function createTerminalControls(options: TerminalControlsOptions): TerminalControls {
  let mouse = options.mouse;
  if (mouse) options.screen?.write(MOUSE_ON);
  return {
    copy: (text) => copyText(text, options),
    mouse: () => mouse,
    reportFocus: (focused) => options.onFocus?.(focused),
    // Control characters are dropped: a title must not end the sequence early.
    setTitle: (title) => options.screen?.write(`\x1b]0;${title.replace(/[\x00-\x1f\x7f]/g, '')}\x07`),
    setMouse(on) {
      mouse = on;
      options.screen?.write(on ? MOUSE_ON : MOUSE_OFF);
      options.saveMouse?.(on);
    },
  };
}

/** What the user is told after switching: what the wheel and the terminal's selection do now. */
export function mouseMessage(on: boolean): string {
  return on
    ? 'Mouse wheel scrolling on: the wheel scrolls the transcript; hold Shift to select text with the mouse. Alt+M or /mouse off turns it off.'
    : "Mouse wheel scrolling off: the terminal's own selection works; scroll with PgUp/PgDn. Alt+M or /mouse on turns it on.";
}

/** Alt+M: the other mouse mode, said in the transcript. */
export function toggleMouse(terminal: TerminalControls, print: (message: string) => void): void {
  const on = !terminal.mouse();
  terminal.setMouse(on);
  print(mouseMessage(on));
}
