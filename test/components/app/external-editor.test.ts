import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExternalEditor, editorFrom } from '../../../components/app/external-editor.js';
import { RESTORE_TERMINAL } from '../../../components/app/terminal-guard.js';
import { ENTER_SCREEN } from '../../../components/app/terminal-output.js';

/** A terminal that records what the app does to it, in order; the editor is a real child process. */
function terminal() {
  const log: string[] = [];
  const stdin = {
    isTTY: true,
    isRaw: true,
    setRawMode(raw: boolean) {
      this.isRaw = raw;
      log.push(`raw ${String(raw)}`);
      return this as unknown as NodeJS.ReadStream;
    },
  };
  const screen = { write: (text: string | Uint8Array) => (log.push(text === RESTORE_TERMINAL ? 'leave' : text === ENTER_SCREEN ? 'enter' : String(text)), true) };
  return { log, stdin, screen };
}

async function scratch(script: string) {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-editor-')));
  const editor = path.join(dir, 'my editor.sh');
  await fs.writeFile(editor, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return { dir, editor };
}

describe('the external editor', () => {
  it('leaves the screen and raw mode, runs the editor on the file, then comes back and redraws', async () => {
    const { dir, editor } = await scratch('echo "edited by $0" >> "$1"');
    const t = terminal();
    const file = path.join(dir, 'a file; with $(odd) name.md');
    await fs.writeFile(file, 'before\n');
    const run = createExternalEditor({ stdin: t.stdin, screen: t.screen, redraw: () => t.log.push('redraw'), restoreModes: () => t.log.push('modes'), env: { ...process.env, VISUAL: `'${editor}'`, EDITOR: 'ignored-when-visual-is-set' } });
    expect(await run(file)).toEqual({ ok: true, editor: `'${editor}'` });
    expect(t.log).toEqual(['leave', 'raw false', 'raw true', 'enter', 'modes', 'redraw']);
    // The file name reached the editor as one argument, never read by the shell.
    expect(await fs.readFile(file, 'utf8')).toBe(`before\nedited by ${editor}\n`);
  });

  it('an editor that fails, is missing or is killed is said; the terminal is taken back each time', async () => {
    const { dir, editor } = await scratch('exit 3');
    const file = path.join(dir, 'x.md');
    const cases: [string, RegExp][] = [
      [`'${editor}'`, /exited with code 3/],
      ['no-such-editor-here', /no-such-editor-here was not found \(set \$VISUAL or \$EDITOR/],
      ['kill -TERM $$ #', /was ended by SIGTERM/],
    ];
    for (const [command, message] of cases) {
      const t = terminal();
      const outcome = await createExternalEditor({ stdin: t.stdin, screen: t.screen, redraw: () => t.log.push('redraw'), env: { PATH: process.env['PATH'] ?? '', EDITOR: command } })(file);
      expect(outcome.ok).toBe(false);
      expect(outcome.ok ? '' : outcome.message).toMatch(message);
      expect(t.log).toEqual(['leave', 'raw false', 'raw true', 'enter', 'redraw']);
    }
  });

  it('without a terminal in raw mode, raw mode is left alone', async () => {
    const { dir, editor } = await scratch('true');
    const t = terminal();
    t.stdin.isTTY = false;
    await createExternalEditor({ stdin: t.stdin, screen: t.screen, redraw: () => undefined, env: { EDITOR: `'${editor}'` } })(path.join(dir, 'x.md'));
    expect(t.log).toEqual(['leave', 'enter']);
  });

  it('chooses $VISUAL, then $EDITOR, then vi', () => {
    expect(editorFrom({ VISUAL: 'code --wait', EDITOR: 'nano' })).toBe('code --wait');
    expect(editorFrom({ VISUAL: ' ', EDITOR: 'nano' })).toBe('nano');
    expect(editorFrom({})).toBe('vi');
  });
});
