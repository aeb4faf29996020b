import { useInput } from 'ink';
import type { Key } from 'ink';
import { render } from 'ink-testing-library';
import { vi } from 'vitest';
import { applyEditorKey } from '../../../components/keys/editor-keys.js';
import { emptyEditor } from '../../../components/prompt/editor.js';
import type { EditorState } from '../../../components/prompt/editor.js';

// Drives the editor through Ink's real stdin parsing (input-parser + parse-keypress + useInput),
// so tests feed the bytes a terminal sends instead of guessing the Key objects Ink builds.

export type InkEditorRig = {
  state(): EditorState;
  submits: string[];
  events: { input: string; key: Key }[];
  write(bytes: string): Promise<void>;
  /** Writes without waiting: for chunks that end inside an escape sequence. */
  writeRaw(bytes: string): void;
  unmount(): void;
};

export async function renderEditorRig(history: readonly string[] = []): Promise<InkEditorRig> {
  const box = { state: emptyEditor(), submits: [] as string[], events: [] as { input: string; key: Key }[] };
  let handled = 0;
  function Rig() {
    useInput((input, key) => {
      box.events.push({ input, key });
      const result = applyEditorKey(box.state, input, key, { history });
      box.state = result.state;
      if (result.submit !== undefined) box.submits.push(result.submit);
      handled++;
    });
    return null;
  }
  const app = render(<Rig />);
  // useInput subscribes in an effect: wait for it before writing keys.
  await vi.waitFor(() => {
    if (app.stdin.listenerCount('readable') === 0) throw new Error('stdin not read yet');
  });
  return {
    state: () => box.state,
    submits: box.submits,
    events: box.events,
    async write(bytes) {
      const before = handled;
      app.stdin.write(bytes);
      await vi.waitFor(() => {
        if (handled === before) throw new Error(`no input event for ${JSON.stringify(bytes)}`);
      });
    },
    writeRaw: (bytes) => app.stdin.write(bytes),
    unmount: () => app.unmount(),
  };
}
