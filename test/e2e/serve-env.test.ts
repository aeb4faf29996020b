import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { trustWorkspace } from '../../src/settings/workspace-trust.js';
import { cairnBin, tempWorkspace } from '../helpers/run-cairn.js';
import { openSseClient, type SseClient } from '../helpers/serve-rig.js';
import { waitFor } from '../helpers/wait-for.js';

// One `cairn serve` holds sessions of several folders. A trusted folder's settings `env` is that
// folder's: it must not reach the commands, hooks or shells of another folder's session in the
// same server (BASH_ENV would run a script of folder A's choosing in every bash of folder B).
let child: ChildProcess | undefined;
const streams: SseClient[] = [];
afterEach(() => {
  for (const s of streams.splice(0)) s.close();
  child?.kill('SIGTERM');
  child = undefined;
});

async function serve(cwd: string, home: string): Promise<URL> {
  const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'] ?? '', HOME: home, CAIRN_HOME: home };
  const started = spawn(process.execPath, [cairnBin, 'serve', '--port', '0'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child = started;
  let out = '';
  started.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  started.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return new URL(String(await waitFor((): string | false => /cairn serve: (http:\/\/\S+)/.exec(out)?.[1] ?? false, { timeout: 15_000, message: `the address (output so far: ${out})` })));
}

describe('cairn serve with sessions in two folders', () => {
  it("one folder's settings env reaches its own commands and hooks, never another folder's session", async () => {
    const { dir: folderB, home } = await tempWorkspace();
    const base = path.dirname(folderB);
    const folderA = path.join(base, 'a');
    const evil = path.join(base, 'evil.sh');
    await fs.writeFile(evil, 'echo EVIL-SOURCED\n');
    await fs.mkdir(path.join(folderA, '.cairn'), { recursive: true });
    await fs.writeFile(path.join(folderA, '.cairn', 'settings.json'), JSON.stringify({ env: { CAIRN_LEAK_TEST: '1', BASH_ENV: evil } }));
    await trustWorkspace({ workspace: folderA, cairnHome: home, homeDir: home });
    // The user's own hook, run in every session: it writes what it saw into the session's folder.
    const hook = { type: 'command', command: 'printf "[%s]" "$CAIRN_LEAK_TEST" > hook-saw.txt' };
    // The sandbox off: inside it the machine's /tmp (where evil.sh is) is the session's own, which would hide the leak this looks for.
    await fs.writeFile(path.join(home, 'settings.json'), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [hook] }] }, sandbox: { enabled: false } }));

    const url = await serve(folderB, home);
    const token = url.searchParams.get('token') ?? '';
    const api = async (p: string, body: unknown) => {
      const res = await fetch(`${url.origin}${p}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    // Runs `command` with bash in a new session in `cwd` (approving it if asked) and returns what it printed.
    const bashIn = async (cwd: string, command: string): Promise<string> => {
      const created = await api('/api/sessions', { cwd });
      expect(created.status).toBe(201);
      const id = String(created.body['id']);
      const events = openSseClient(`${url.origin}/api/sessions/${id}/events`, { authorization: `Bearer ${token}` });
      streams.push(events);
      expect((await api(`/api/sessions/${id}/prompt`, { text: `run ${command}` })).status).toBe(202);
      const answered = new Set<string>();
      const result = await waitFor(
        async () => {
          for (const e of events.agentEvents()) {
            if (e.type === 'permission_request' && !answered.has(e.id)) {
              answered.add(e.id);
              await api(`/api/sessions/${id}/permission`, { request_id: e.request_id, answer: 'yes' });
            }
          }
          const done = events.agentEvents().find((e) => e.type === 'tool_result');
          if (!done || done.type !== 'tool_result') throw new Error(`no bash result yet: ${events.agentEvents().map((e) => e.type).join(', ')}`);
          return done;
        },
        { timeout: 20_000, message: `the bash result in ${cwd}` },
      );
      return result.content;
    };

    // Writes a file, so it runs as any command the model runs (in the sandbox when it is on).
    const command = 'echo "saw=[$CAIRN_LEAK_TEST]" | tee seen.txt';
    const inA = await bashIn(folderA, command);
    expect(inA).toContain('saw=[1]');
    expect(inA).toContain('EVIL-SOURCED');
    expect(await fs.readFile(path.join(folderA, 'hook-saw.txt'), 'utf8')).toBe('[1]');

    const inB = await bashIn(folderB, command);
    expect(inB).toContain('saw=[]');
    expect(inB).not.toContain('EVIL-SOURCED');
    expect(await fs.readFile(path.join(folderB, 'hook-saw.txt'), 'utf8')).toBe('[]');
  });
});
