// Text a model or a tool produced must never drive the terminal it is shown on: an OSC can
// retitle the window or write the clipboard, a CSI can clear the screen or move the cursor.
// One sanitizer for the TUI (markdown, code blocks, links) and headless text output.

export const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

// Whole sequences, so their parameters do not show up as text: CSI (7- and 8-bit), then OSC,
// DCS, SOS, PM and APC strings with their terminator (BEL or ST). A string with no terminator
// is not swallowed to the end: only its introducer goes, and the rest stays readable text.
// Last, any other escape (charset selection, keypad modes, RIS) with its intermediates.
const SEQUENCE =
  /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|(?:\x1b[\]P^_X]|[\x9d\x90\x9e\x9f\x98])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)|\x1b[ -/]*[0-~]?/g;

/**
 * Removes terminal control sequences and every C0/C1 control character except newline and tab.
 * A carriage return before a newline becomes nothing; a lone one (which would let text overwrite
 * the start of its line) is dropped too.
 */
export function stripTerminalControls(text: string): string {
  if (!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(text)) return text;
  return text.replace(SEQUENCE, '').replace(CONTROL_CHARS, '');
}
