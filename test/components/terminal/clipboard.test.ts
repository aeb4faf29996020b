import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyText, osc52, runClipboardCommand } from '../../../components/terminal/clipboard.js';

const screen = () => {
  const out: string[] = [];
  return { out, isTTY: true, write: (s: string) => (out.push(s), true) };
};

describe('copyText', () => {
  it('sends OSC 52 with the text in base64, and a clipboard command that takes it wins', async () => {
    const s = screen();
    const home = await mkdtemp(join(tmpdir(), 'cairn-clip-'));
    const ran: string[] = [];
    const result = await copyText('héllo 世界', { screen: s, env: { DISPLAY: ':0' }, cairnHome: home, platform: 'linux', run: async (c, _a, text) => (ran.push(`${c}:${text}`), undefined) });
    expect(s.out).toEqual([osc52('héllo 世界')]);
    expect(Buffer.from(/\]52;c;([^\x07]*)\x07/.exec(s.out[0] ?? '')?.[1] ?? '', 'base64').toString('utf8')).toBe('héllo 世界');
    expect(ran).toEqual(['xclip:héllo 世界']);
    expect(result.message).toBe('Copied 8 characters to the clipboard (OSC 52 and xclip).');
  });

  it('a real command run: the text arrives on its stdin', async () => {
    const home = await mkdtemp(join(tmpdir(), 'cairn-clip-'));
    const file = join(home, 'got.txt');
    expect(await runClipboardCommand('sh', ['-c', `cat > ${file}`], 'piped text')).toBeUndefined();
    expect(await readFile(file, 'utf8')).toBe('piped text');
    expect(await runClipboardCommand('cairn-no-such-clipboard-tool', [], 'x')).toBe('not installed');
  });

  it('when every command fails, the text is saved to a file and the message names it and the failures', async () => {
    const home = await mkdtemp(join(tmpdir(), 'cairn-clip-'));
    const result = await copyText('saved text', { env: { WAYLAND_DISPLAY: 'w' }, cairnHome: home, platform: 'linux', run: async () => 'not installed' });
    expect(result.file).toBe(join(home, 'clipboard.txt'));
    expect(await readFile(join(home, 'clipboard.txt'), 'utf8')).toBe('saved text');
    expect(result.message).toBe(`No clipboard reachable (wl-copy: not installed); the text is in ${join(home, 'clipboard.txt')}.`);
  });
});
