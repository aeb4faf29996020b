import { buildFileIndex, type FileIndex } from '../../src/mentions/file-index.js';
import { fuzzyMatch } from '../../src/mentions/fuzzy-match.js';
import { errorMessage } from '../../src/util/error-message.js';
import type { TuiStore } from '../store/create-store.js';
import type { Dialog } from '../store/types.js';

export type MentionDialog = Extract<Dialog, { kind: 'mention' }>;

const MATCHES = 50;
// One index per app (its store), built on the first `@` and reused: `git ls-files` is one process.
const indexes = new WeakMap<TuiStore, Promise<FileIndex>>();
const loaded = new WeakMap<TuiStore, FileIndex>();

/** `@` typed at the start of a word: the completion opens (the index loads in the background). */
export function openMentionCompletion(store: TuiStore, root: string): void {
  let index = indexes.get(store);
  if (!index) {
    index = buildFileIndex(root);
    indexes.set(store, index);
  }
  store.dispatch({ type: 'dialog', dialog: { kind: 'mention', query: '', index: 0, matches: [], loading: true } });
  index.then(
    (files) => {
      loaded.set(store, files);
      refresh(store);
    },
    (error: unknown) => store.dispatch({ type: 'notice', level: 'error', message: `Could not list the workspace's files: ${errorMessage(error)}` }),
  );
}

/**
 * The matches for the dialog's query: at once when the index is loaded, so the next key (a Tab
 * typed right after the text, in the same read) chooses from this query's matches, not the last
 * one's; otherwise once the index is there.
 */
export function refresh(store: TuiStore): void {
  const files = loaded.get(store);
  if (files) return showMatches(store, files);
  const index = indexes.get(store);
  if (!index) return;
  void index.then((ready) => showMatches(store, ready));
}

function showMatches(store: TuiStore, files: FileIndex): void {
  const dialog = store.getSnapshot().dialog;
  if (dialog?.kind !== 'mention') return;
  const pool = dialog.query.endsWith('/') ? files.dirs : allPaths(files);
  store.dispatch({ type: 'dialog', dialog: { ...dialog, matches: fuzzyMatch(pool, dialog.query, MATCHES), index: 0, loading: false } });
}

const pools = new WeakMap<FileIndex, readonly string[]>();
/** Folders then files, built once per index so matching can cache its lower-cased copy. */
function allPaths(index: FileIndex): readonly string[] {
  let pool = pools.get(index);
  if (!pool) {
    pool = [...index.dirs, ...index.files];
    pools.set(index, pool);
  }
  return pool;
}

/** True when the editor's text just before the cursor is an `@` starting a word. */
export function atMentionStart(text: string, cursor: number): boolean {
  return text[cursor - 1] === '@' && (cursor === 1 || /\s/.test(text[cursor - 2] ?? ''));
}
