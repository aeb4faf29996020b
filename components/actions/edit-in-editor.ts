import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorMessage } from '../../src/util/error-message.js';
import type { AppContext } from './app-context.js';

/**
 * Ctrl+G: the draft goes to a temporary file, the user's editor opens on it (the terminal is
 * handed over and taken back, components/app/external-editor.ts), and what they saved becomes
 * the draft, to read over and send. A failed editor leaves the draft as it was.
 */
export async function editDraftInEditor(ctx: Pick<AppContext, 'store' | 'print' | 'runExternalEditor'>): Promise<void> {
  const { store } = ctx;
  const run = ctx.runExternalEditor;
  if (!run) return ctx.print('No terminal to open an editor in.', 'warning');
  const dir = await mkdtemp(join(tmpdir(), 'cairn-prompt-'));
  const file = join(dir, 'prompt.md');
  try {
    await writeFile(file, store.getSnapshot().editor.text);
    const outcome = await run(file);
    if (!outcome.ok) return ctx.print(`The prompt was not changed: ${outcome.message}.`, 'warning');
    // Editors end the file with a newline the user did not mean as part of the prompt.
    const text = (await readFile(file, 'utf8')).replace(/\r?\n$/, '');
    store.dispatch({ type: 'editor', editor: { text, cursor: text.length, pastes: [] } });
  } catch (error) {
    ctx.print(`The prompt was not changed: ${errorMessage(error)}`, 'error');
  } finally {
    await rm(dir, { recursive: true, force: true }).catch((error: unknown) => ctx.print(`Could not remove ${dir}: ${errorMessage(error)}`, 'warning'));
  }
}
