import type { Key } from 'ink';

/** Everything a key can mean, whichever layer ends up handling it. */
export type KeyCommand =
  | 'ctrlC'
  | 'eof'
  | 'interrupt'
  | 'cycleMode'
  | 'toggleFocus'
  | 'pageUp'
  | 'pageDown'
  | 'lineUp'
  | 'lineDown'
  | 'top'
  | 'bottom'
  | 'up'
  | 'down'
  | 'confirm'
  | 'newline'
  | 'toggle'
  | 'complete'
  | 'back'
  | 'redraw'
  | 'open'
  | 'fixFinding'
  | 'stopAgent'
  | 'viewFull'
  | 'viewerClose'
  | 'viewerLineUp'
  | 'viewerLineDown'
  | 'viewerPageUp'
  | 'viewerPageDown'
  | 'viewerTop'
  | 'viewerBottom'
  | 'search'
  | 'nextMatch'
  | 'prevMatch'
  | 'toggleMouse'
  | 'historySearch'
  | 'clearDraft'
  | 'rewind'
  | 'editInEditor'
  | 'pasteImage'
  | 'togglePlan'
  | 'modelPicker'
  // The prompt's editing keys (components/keys/editor-keys.ts).
  | 'left'
  | 'right'
  | 'wordLeft'
  | 'wordRight'
  | 'lineStart'
  | 'lineEnd'
  | 'deleteBack'
  | 'deleteForward'
  | 'deleteWordBack'
  | 'deleteWordForward'
  | 'killToLineEnd'
  | 'killToLineStart'
  // The answers to an approval (components/store/approval-choices.ts).
  | 'answerYes'
  | 'answerSession'
  | 'answerProject'
  | 'answerFolder'
  | 'answerAcceptEdits'
  | 'answerNo'
  // A question from the model (ask_user_question; components/keys/question-keys.ts).
  | 'pickOption'
  | 'questionNext'
  | 'questionPrev'
  // Dialogs: the # note's "user or project?", what /rewind restores.
  | 'memoryUser'
  | 'memoryProject'
  | 'rewindAll'
  | 'rewindConversation'
  | 'rewindCode'
  | 'modelSaveDefault';

type KeyFlag = 'upArrow' | 'downArrow' | 'leftArrow' | 'rightArrow' | 'pageUp' | 'pageDown' | 'home' | 'end' | 'return' | 'escape' | 'tab' | 'backspace' | 'delete';

export interface KeySpec {
  key?: KeyFlag;
  input?: string;
  ctrl?: boolean;
  shift?: boolean;
  meta?: boolean;
}

/** Where a binding applies, as /help groups them. */
export type HelpSection = 'anywhere' | 'prompt' | 'cards' | 'approval' | 'question' | 'dialog' | 'view';

export interface KeyBinding {
  readonly keys: readonly KeySpec[];
  /** What it does, per place; bindings with the same text in a section share a /help row. */
  readonly help?: readonly { readonly in: HelpSection; readonly does: string }[];
}

const SCROLL = 'scroll the transcript (the mouse wheel too, once Alt+M turns it on)';

const CHOOSE = 'choose';
const MODEL_EFFORT = '/model: the thinking effort, for a model that takes one';
const answer = (input: string, does: string): KeyBinding => ({ keys: [{ input }], help: [{ in: 'approval', does }] });

/**
 * The one table of bindings: every key cairn reads, for the dispatcher, the editor, approvals and
 * dialogs alike; /help is generated from it and keybindings.json rebinds through it.
 */
export const KEYMAP: Readonly<Record<KeyCommand, KeyBinding>> = {
  // Listed first so /help shows the answers before the keys that move between them.
  answerYes: answer('y', 'yes (once)'),
  answerSession: answer('a', "yes, and don't ask again this session (for the rule shown)"),
  answerProject: answer('p', 'yes, always in this project (the rule is saved in .cairn/settings.local.json)'),
  answerFolder: answer('f', 'yes, always in this project, for the whole folder shown (the second choice)'),
  answerAcceptEdits: answer('e', 'approve a plan and accept edits without asking'),
  answerNo: answer('n', 'no, and tell cairn what to do instead (type it, Enter sends)'),
  // The nth key chooses the nth option (the last number is "Other").
  pickOption: {
    keys: ['1', '2', '3', '4', '5'].map((input) => ({ input })),
    help: [{ in: 'question', does: 'choose that option (tick it in a multiple choice); the last is "Other": type an answer' }],
  },
  questionNext: { keys: [{ key: 'tab', shift: false }], help: [{ in: 'question', does: 'next / previous question' }] },
  questionPrev: { keys: [{ key: 'tab', shift: true }], help: [{ in: 'question', does: 'next / previous question' }] },
  ctrlC: { keys: [{ input: 'c', ctrl: true }], help: [{ in: 'anywhere', does: 'interrupt the turn; twice on an idle prompt: exit' }] },
  eof: { keys: [{ input: 'd', ctrl: true }], help: [{ in: 'prompt', does: 'exit (on an empty prompt)' }] },
  interrupt: { keys: [{ key: 'escape' }], help: [{ in: 'prompt', does: 'interrupt the running turn' }] },
  cycleMode: { keys: [{ key: 'tab', shift: true }], help: [{ in: 'prompt', does: 'next permission mode (default, accept edits, plan, auto)' }] },
  toggleFocus: {
    keys: [{ key: 'tab', shift: false }, { input: 'o', ctrl: true }],
    help: [
      { in: 'prompt', does: 'select cards (Tab on an empty prompt)' },
      { in: 'cards', does: 'back to the prompt' },
    ],
  },
  pageUp: { keys: [{ key: 'pageUp' }], help: [{ in: 'prompt', does: SCROLL }] },
  pageDown: { keys: [{ key: 'pageDown' }], help: [{ in: 'prompt', does: SCROLL }] },
  lineUp: { keys: [{ key: 'upArrow', shift: true }], help: [{ in: 'prompt', does: SCROLL }] },
  lineDown: { keys: [{ key: 'downArrow', shift: true }], help: [{ in: 'prompt', does: SCROLL }] },
  top: { keys: [{ key: 'home' }], help: [{ in: 'prompt', does: 'to the top / the bottom of the transcript (empty prompt)' }] },
  bottom: { keys: [{ key: 'end' }], help: [{ in: 'prompt', does: 'to the top / the bottom of the transcript (empty prompt)' }] },
  up: {
    keys: [{ key: 'upArrow', shift: false }],
    help: [
      { in: 'prompt', does: 'earlier / later prompts, or lines of the draft' },
      { in: 'cards', does: 'move the selection' },
      { in: 'approval', does: CHOOSE },
      { in: 'question', does: CHOOSE },
      { in: 'dialog', does: CHOOSE },
    ],
  },
  down: {
    keys: [{ key: 'downArrow', shift: false }],
    help: [
      { in: 'prompt', does: 'earlier / later prompts, or lines of the draft' },
      { in: 'cards', does: 'move the selection' },
      { in: 'approval', does: CHOOSE },
      { in: 'question', does: CHOOSE },
      { in: 'dialog', does: CHOOSE },
    ],
  },
  confirm: {
    keys: [{ key: 'return' }],
    help: [
      { in: 'prompt', does: 'send (queued while a turn runs)' },
      { in: 'approval', does: 'answer with the selected choice (with a draft typed: queue the draft)' },
      { in: 'question', does: 'take the option under the cursor; on the last question, send the answers' },
      { in: 'dialog', does: 'take the selected one' },
    ],
  },
  newline: {
    // Ctrl+J arrives as a line feed, or as Ctrl with j.
    keys: [{ key: 'return', shift: true }, { key: 'return', meta: true }, { key: 'return', ctrl: true }, { input: '\n' }, { input: 'j', ctrl: true }],
    help: [{ in: 'prompt', does: 'new line' }],
  },
  toggle: {
    keys: [{ input: ' ' }],
    help: [
      { in: 'cards', does: 'fold / unfold the card' },
      { in: 'question', does: 'tick / untick the option under the cursor (multiple choice)' },
    ],
  },
  complete: { keys: [{ key: 'tab', shift: false }], help: [{ in: 'prompt', does: 'complete the command (in the / list)' }] },
  back: {
    keys: [{ key: 'escape' }],
    help: [
      { in: 'cards', does: 'back to the prompt' },
      { in: 'approval', does: 'no, and stop the turn' },
      { in: 'question', does: 'decline to answer (the model is told)' },
      { in: 'dialog', does: 'close (a # note goes back into the prompt)' },
    ],
  },
  redraw: { keys: [{ input: 'l', ctrl: true }], help: [{ in: 'anywhere', does: 'redraw the screen' }] },
  open: { keys: [{ key: 'return' }], help: [{ in: 'cards', does: 'full view of the card (output, file, diff; a review finding: the place in its file)' }] },
  fixFinding: { keys: [{ input: 'f' }], help: [{ in: 'cards', does: 'on a review finding (/review): ask cairn to fix it (sends a prompt naming the file and line)' }] },
  stopAgent: { keys: [{ input: 'x' }], help: [{ in: 'cards', does: 'stop the selected background agent (/agents lists them)' }] },
  viewFull: { keys: [{ input: 'v' }], help: [{ in: 'approval', does: 'full view of what it asks (the approval waits)' }] },
  viewerClose: { keys: [{ input: 'q' }, { key: 'escape' }], help: [{ in: 'view', does: 'back' }] },
  viewerLineUp: { keys: [{ key: 'upArrow' }, { input: 'k' }], help: [{ in: 'view', does: 'a line up / down' }] },
  viewerLineDown: { keys: [{ key: 'downArrow' }, { input: 'j' }], help: [{ in: 'view', does: 'a line up / down' }] },
  viewerPageUp: { keys: [{ key: 'pageUp' }, { input: 'b' }], help: [{ in: 'view', does: 'a page up / down' }] },
  viewerPageDown: { keys: [{ key: 'pageDown' }, { input: ' ' }], help: [{ in: 'view', does: 'a page up / down' }] },
  viewerTop: { keys: [{ key: 'home' }, { input: 'g' }], help: [{ in: 'view', does: 'top / bottom' }] },
  viewerBottom: { keys: [{ key: 'end' }, { input: 'G' }], help: [{ in: 'view', does: 'top / bottom' }] },
  search: { keys: [{ input: '/' }], help: [{ in: 'view', does: 'search (Enter finds)' }] },
  nextMatch: { keys: [{ input: 'n' }], help: [{ in: 'view', does: 'next / previous match' }] },
  prevMatch: { keys: [{ input: 'N' }], help: [{ in: 'view', does: 'next / previous match' }] },
  historySearch: { keys: [{ input: 'r', ctrl: true }], help: [{ in: 'prompt', does: 'search earlier prompts (type to narrow, Ctrl+R older, Enter takes it, Esc cancels)' }] },
  clearDraft: { keys: [{ key: 'escape' }], help: [{ in: 'prompt', does: 'twice: clear the draft (kept in history: ↑ brings it back)' }] },
  rewind: { keys: [{ key: 'escape' }], help: [{ in: 'prompt', does: 'twice on an empty prompt: rewind to an earlier prompt (/rewind)' }] },
  editInEditor: { keys: [{ input: 'g', ctrl: true }], help: [{ in: 'prompt', does: 'edit the prompt in $VISUAL/$EDITOR (saved text comes back as the draft)' }] },
  // Alt+P is Claude Code's model picker; the plan's fold takes Alt+A ("approved plan"), which Claude Code leaves free.
  modelPicker: { keys: [{ input: 'p', meta: true }], help: [{ in: 'prompt', does: 'choose the model (the /model list); the draft stays in the prompt' }] },
  togglePlan: { keys: [{ input: 'a', meta: true }], help: [{ in: 'prompt', does: 'fold / unfold the approved plan pinned above the prompt (/plan shows it in the transcript)' }] },
  pasteImage: { keys: [{ input: 'v', ctrl: true }], help: [{ in: 'prompt', does: 'attach the image on the clipboard as a chip' }] },
  toggleMouse: {
    keys: [{ input: 'm', meta: true }],
    help: [{ in: 'anywhere', does: "mouse wheel scrolling on/off (off at start: the terminal's own selection works; when on, Shift-drag selects)" }],
  },
  // Word moves come before character moves: the editor tries them first, so Ctrl+← is a word.
  wordLeft: { keys: [{ key: 'leftArrow', ctrl: true }, { key: 'leftArrow', meta: true }, { input: 'b', meta: true }], help: [{ in: 'prompt', does: 'a word left / right' }] },
  wordRight: { keys: [{ key: 'rightArrow', ctrl: true }, { key: 'rightArrow', meta: true }, { input: 'f', meta: true }], help: [{ in: 'prompt', does: 'a word left / right' }] },
  left: {
    keys: [{ key: 'leftArrow' }, { input: 'b', ctrl: true }],
    help: [
      { in: 'prompt', does: 'a character left / right' },
      { in: 'dialog', does: MODEL_EFFORT },
    ],
  },
  right: {
    keys: [{ key: 'rightArrow' }, { input: 'f', ctrl: true }],
    help: [
      { in: 'prompt', does: 'a character left / right' },
      { in: 'dialog', does: MODEL_EFFORT },
    ],
  },
  lineStart: { keys: [{ key: 'home' }, { input: 'a', ctrl: true }], help: [{ in: 'prompt', does: 'to the start / end of the line (Home / End with a draft)' }] },
  lineEnd: { keys: [{ key: 'end' }, { input: 'e', ctrl: true }], help: [{ in: 'prompt', does: 'to the start / end of the line (Home / End with a draft)' }] },
  deleteWordBack: { keys: [{ key: 'backspace', meta: true }, { input: 'w', ctrl: true }], help: [{ in: 'prompt', does: 'delete the word before / after the cursor' }] },
  deleteWordForward: { keys: [{ input: 'd', meta: true }], help: [{ in: 'prompt', does: 'delete the word before / after the cursor' }] },
  deleteBack: { keys: [{ key: 'backspace' }, { input: 'h', ctrl: true }], help: [{ in: 'prompt', does: 'delete the character before / under the cursor' }] },
  deleteForward: { keys: [{ key: 'delete' }, { input: 'd', ctrl: true }], help: [{ in: 'prompt', does: 'delete the character before / under the cursor' }] },
  killToLineEnd: { keys: [{ input: 'k', ctrl: true }], help: [{ in: 'prompt', does: 'delete to the end / the start of the line' }] },
  killToLineStart: { keys: [{ input: 'u', ctrl: true }], help: [{ in: 'prompt', does: 'delete to the end / the start of the line' }] },
  memoryUser: { keys: [{ input: 'u' }], help: [{ in: 'dialog', does: 'a # note: save it to user / project memory' }] },
  memoryProject: { keys: [{ input: 'p' }], help: [{ in: 'dialog', does: 'a # note: save it to user / project memory' }] },
  rewindAll: { keys: [{ input: '1' }], help: [{ in: 'dialog', does: '/rewind: restore code and conversation / conversation only / code only' }] },
  rewindConversation: { keys: [{ input: '2' }], help: [{ in: 'dialog', does: '/rewind: restore code and conversation / conversation only / code only' }] },
  rewindCode: { keys: [{ input: '3' }], help: [{ in: 'dialog', does: '/rewind: restore code and conversation / conversation only / code only' }] },
  // A control key: letters type into the picker's filter.
  modelSaveDefault: { keys: [{ input: 's', ctrl: true }], help: [{ in: 'dialog', does: '/model: switch to it and save it as the default (config.json)' }] },
};

/**
 * A named key (`key`) matches whatever modifiers the spec leaves out; a character (`input`) needs
 * exactly the Ctrl and Alt it names (a bare `u` is not Alt+U).
 */
export function matches(spec: KeySpec, input: string, key: Key): boolean {
  if (spec.key && !key[spec.key]) return false;
  if (spec.input !== undefined && input !== spec.input) return false;
  if (spec.ctrl !== undefined && key.ctrl !== spec.ctrl) return false;
  if (spec.ctrl === undefined && spec.input !== undefined && key.ctrl) return false;
  if (spec.shift !== undefined && key.shift !== spec.shift) return false;
  if (spec.meta !== undefined && key.meta !== spec.meta) return false;
  if (spec.meta === undefined && spec.input !== undefined && key.meta) return false;
  return true;
}

// The table in force: the defaults, or with the user's keybindings.json applied at start-up.
let active: Readonly<Record<KeyCommand, KeyBinding>> = KEYMAP;

/** Puts a key table in force (start-up, with the user's bindings; tests put the defaults back). */
export function setActiveKeymap(keymap: Readonly<Record<KeyCommand, KeyBinding>>): void {
  active = keymap;
}

export function activeKeymap(): Readonly<Record<KeyCommand, KeyBinding>> {
  return active;
}

export function is(command: KeyCommand, input: string, key: Key): boolean {
  return active[command].keys.some((spec) => matches(spec, input, key));
}

/** An answer key (approvals, dialogs): a letter counts in either case, as a shell's y/N does. */
export function isAnswer(command: KeyCommand, input: string, key: Key): boolean {
  return is(command, input, key) || is(command, input.toLowerCase(), key);
}

/** Which of two opposite commands a key is (`up`/`down`, `top`/`bottom`), if either. */
export function whichOf<A extends KeyCommand, B extends KeyCommand>(a: A, b: B, input: string, key: Key): A | B | undefined {
  if (is(a, input, key)) return a;
  if (is(b, input, key)) return b;
  return undefined;
}

/** The text a key types into a field (a filter, the search, the deny reason), or undefined for a key that types nothing. */
export function typedText(input: string, key: Key): string | undefined {
  if (input === '' || key.ctrl || key.meta || key.tab || key.super || key.hyper) return undefined;
  return input;
}

/** Whether a key carries Ctrl or Alt (Tab alone enters selection only on an empty prompt; Ctrl+O always). */
export function withModifier(key: Key): boolean {
  return key.ctrl || key.meta;
}

/**
 * Ink 6.8 reports Backspace (0x7f) and Delete (ESC[3~) both as `key.delete`; only the bytes tell
 * them apart. The key as the table means it: Backspace is `backspace`, Delete is `delete`.
 */
export function withBackspace(key: Key, raw: string | undefined): Key {
  if (!key.delete || (raw !== undefined && isForwardDelete(raw))) return key;
  return { ...key, delete: false, backspace: true };
}

function isForwardDelete(raw: string): boolean {
  return /^\x1b\[3(?:;\d+(?::\d+)?)?[~$^]$/.test(raw);
}

/** With kitty's event-type reporting a key also sends a release: acting on it would act twice. */
export function isRelease(key: Key): boolean {
  return key.eventType === 'release';
}
