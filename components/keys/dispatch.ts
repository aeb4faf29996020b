import { EXIT_CONFIRM_MS } from './exit-confirm.js';
import type { Key } from 'ink';
import type { AppContext } from '../actions/app-context.js';
import { cycleMode } from '../actions/cycle-mode.js';
import { editDraftInEditor } from '../actions/edit-in-editor.js';
import { attachDroppedFiles, attachingNames, pasteClipboardImage } from '../actions/attach-files.js';
import { interrupt, takeLastQueued } from '../actions/interrupt.js';
import { openModelPicker } from '../actions/open-model-picker.js';
import { openRewind } from '../actions/rewind.js';
import { togglePlan } from '../actions/plan.js';
import { submit } from '../actions/submit.js';
import { toggleMouse } from '../app/terminal-controls.js';
import { editorOwnsInput, parseMouseWheel } from '../prompt/editor.js';
import { applyEditorKey } from './editor-keys.js';
import { isMouseReport, isUnknownEscapeSequence, PASTE_START } from '../prompt/terminal-input.js';
import { autoRunInProgress } from '../store/tool-card.js';
import type { TuiState } from '../store/types.js';
import { denyFieldOpen, handleApprovalKey, handleApprovalPaste } from './approval-keys.js';
import { handleDialogKey } from './dialog-keys.js';
import { handleQuestionKey, handleQuestionPaste, questionFieldOpen, questionPasteInto, waitingQuestions } from './question-keys.js';
import { is, typedText, whichOf, withBackspace, withModifier } from './keymap.js';
import { escOnDraft, escOnEmpty } from './esc-esc.js';
import { focusReport } from '../app/turn-notifier.js';
import { atMentionStart, openMentionCompletion } from '../prompt/mention-complete.js';
import { startHistorySearch } from './history-search-keys.js';
import { handlePaletteKey, paletteOpen } from './palette-keys.js';
import { splitKeys } from './split-keys.js';
import { enterSelection, handleTranscriptKey } from './transcript-keys.js';
import { handleViewerKey, scrollViewer } from './viewer-keys.js';

export { EXIT_CONFIRM_MS };
const WHEEL_LINES = 3;

/**
 * The one key dispatcher. An event holding several keys (one read) is applied key by key, in
 * order; `raw` is the bytes behind the event, when the caller has them.
 */
export function handleKey(input: string, key: Key, deps: AppContext, raw?: string): void {
  // Inside a bracketed paste every byte is text, control bytes included.
  const state = deps.store.getSnapshot();
  if (editorOwnsInput(state.editor, input) || state.approval.pasting !== undefined || state.approval.question?.pasting !== undefined) return handleOneKey(input, key, deps, raw);
  for (const press of splitKeys(input, key, raw)) handleOneKey(press.input, press.key, deps, press.raw);
}

/**
 * One key, through the layers in priority order, each returning true when it used the key:
 * global keys, approval prompt, slash palette, transcript selection, scrolling, editor.
 */
function handleOneKey(input: string, pressed: Key, deps: AppContext, raw: string | undefined): void {
  const { store } = deps;
  const key = withBackspace(pressed, raw);
  const state = store.getSnapshot();
  if (is('ctrlC', input, key)) return ctrlC(state, deps);
  if (state.exitArmedAt !== undefined) store.dispatch({ type: 'exitArm', at: undefined });
  if (deps.terminal && is('toggleMouse', input, key)) return toggleMouse(deps.terminal, (m) => deps.print(m));

  const wheel = parseMouseWheel(input);
  if (wheel && state.viewer) return scrollViewer(wheel === 'up' ? -1 : 1, state, deps);
  if (wheel) return scroll(deps, wheel === 'up' ? -WHEEL_LINES : WHEEL_LINES);
  if (isMouseReport(input)) return;
  const focus = focusReport(input, raw);
  if (focus !== undefined) return deps.terminal?.reportFocus(focus);
  // The full view sits over everything, a waiting approval included.
  if (state.viewer) return handleViewerKey(input, key, state, deps);

  if (state.approvals.length > 0) {
    // A paste is text, never answers: it goes to the open "what to do instead" field, else the draft.
    if (questionPasteInto(state, input)) return handleQuestionPaste(input, key, state, deps);
    if (denyFieldOpen(state) && (state.approval.pasting !== undefined || PASTE_START.test(input))) return handleApprovalPaste(input, key, state, deps);
    if (isPaste(state, input, key)) return toEditor(input, key, state, deps, raw);
    if (deps.guard.takesKey(state, input, key)) return waitingQuestions(state) ? handleQuestionKey(input, key, state, deps) : handleApprovalKey(input, key, state, deps);
  }
  if (state.dialog) {
    handleDialogKey(input, key, state, deps);
    return;
  }
  if (is('cycleMode', input, key)) return cycleMode(deps);
  if (paletteOpen(state, deps.commands) && handlePaletteKey(input, key, state, deps)) return;
  if (state.focus === 'transcript' && handleTranscriptKey(input, key, state, deps)) return;
  if (handleScrollKey(input, key, state, deps)) return;

  if (is('historySearch', input, key)) return startHistorySearch(deps);
  if (is('editInEditor', input, key)) return void editDraftInEditor(deps);
  if (is('pasteImage', input, key)) return void pasteClipboardImage(deps);
  if (is('togglePlan', input, key)) return togglePlan(deps);
  if (is('modelPicker', input, key)) return void openModelPicker(deps);
  if (!state.busy && !autoRunInProgress(state.items) && is('clearDraft', input, key) && escOnDraft(state, deps, raw)) return;
  if (!state.busy && !autoRunInProgress(state.items) && is('rewind', input, key) && escOnEmpty(state, deps, raw, () => openRewind(deps))) return;
  if (is('interrupt', input, key)) {
    // Idle, Esc still stops a cron auto run in the background (its card says so).
    if (state.busy || autoRunInProgress(state.items)) interrupt(deps);
    return;
  }
  // Up on an empty prompt takes the last queued prompt back to edit or drop it.
  if (is('up', input, key) && state.editor.text === '' && takeLastQueued(deps)) return;
  if (is('eof', input, key) && state.editor.text === '') return deps.exit(0);
  if (is('toggleFocus', input, key) && (withModifier(key) || state.editor.text === '')) return enterSelection(state, deps);
  toEditor(input, key, state, deps, raw);
}

function toEditor(input: string, key: Key, state: TuiState, deps: AppContext, raw: string | undefined): void {
  deps.guard.noteDraftKey();
  const result = applyEditorKey(state.editor, input, key, { history: deps.history(), takesDroppedFiles: true, ...(raw !== undefined ? { raw } : {}) });
  if (result.submit !== undefined && deps.attaching.size > 0) {
    // A file dropped a moment ago is still being prepared: sending now would leave it out. The draft stays.
    deps.print(`Still attaching ${attachingNames(deps).join(', ')}: press Enter again once its chip shows.`, 'warning');
    return;
  }
  deps.store.dispatch({ type: 'editor', editor: result.state });
  if (typedText(input, key)?.endsWith('@') && atMentionStart(result.state.text, result.state.cursor)) openMentionCompletion(deps.store, state.info.cwd);
  if (result.dropped) void attachDroppedFiles(result.dropped.paths, result.dropped.pasted, deps);
  if (result.submit !== undefined) submit(result.submit, deps, result.shown, result.attachments);
}

/**
 * A bracketed paste, or several characters of text in one event (a paste the terminal did not
 * bracket, type-ahead): text for the draft, whatever letters it holds. The open deny field takes
 * its own unbracketed text (see approval-keys).
 */
function isPaste(state: TuiState, input: string, key: Key): boolean {
  if (editorOwnsInput(state.editor, input)) return true;
  if (denyFieldOpen(state) || questionFieldOpen(state)) return false;
  return [...input].length > 1 && typedText(input, key) !== undefined && !isUnknownEscapeSequence(input);
}

function ctrlC(state: TuiState, deps: AppContext): void {
  if (state.busy) {
    interrupt(deps);
    return;
  }
  const armed = state.exitArmedAt !== undefined && deps.now() - state.exitArmedAt < EXIT_CONFIRM_MS;
  if (armed) return deps.exit(0);
  deps.store.dispatch({ type: 'exitArm', at: deps.now() });
}

function scroll(deps: AppContext, delta: number): void {
  deps.store.dispatch({ type: 'scroll', delta, total: deps.view.total, height: deps.view.height });
}

function handleScrollKey(input: string, key: Key, state: TuiState, deps: AppContext): boolean {
  const page = Math.max(1, deps.view.height - 1);
  if (is('pageUp', input, key)) scroll(deps, -page);
  else if (is('pageDown', input, key)) scroll(deps, page);
  else if (is('lineUp', input, key)) scroll(deps, -1);
  else if (is('lineDown', input, key)) scroll(deps, 1);
  else {
    const end = state.editor.text === '' ? whichOf('top', 'bottom', input, key) : undefined;
    if (end === undefined) return false;
    deps.store.dispatch({ type: 'scrollTo', to: end, total: deps.view.total, height: deps.view.height });
  }
  return true;
}
