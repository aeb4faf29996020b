// The TUI's first frame is drawn from the session facts before the engine loads; the session the
// engine then builds must say the same provider, model, mode and offline-ness, whatever chose them.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../src/bootstrap.js';
import { settleSessionFacts } from '../../../src/runtime/session-facts.js';
import { earlyFrameSession } from '../../../components/app/early-frame.js';
import { tempWorkspace } from '../../helpers/run-cairn.js';

const runtimes: Runtime[] = [];
afterEach(() => {
  for (const r of runtimes.splice(0)) r.close();
});

interface Case {
  name: string;
  files?: Record<string, string>;
  userSettings?: Record<string, unknown>;
  env?: Record<string, string>;
  flags?: { provider?: string; model?: string; permissionMode?: 'default' | 'acceptEdits' | 'plan' | 'bypassPermissions' | 'dontAsk' };
  expected: Partial<ReturnType<typeof earlyFrameSession>>;
  notice?: RegExp;
}

const cases: Case[] = [
  { name: 'no provider: the offline model', expected: { provider: 'offline', offline: true, mode: 'default' } },
  { name: 'an Anthropic key in the environment', env: { ANTHROPIC_API_KEY: 'sk-test' }, expected: { provider: 'anthropic', offline: false } },
  { name: "a settings file's env key choosing OpenAI", userSettings: { env: { OPENAI_API_KEY: 'sk-test' } }, expected: { provider: 'openai', offline: false } },
  { name: "the user settings' defaultMode", userSettings: { permissions: { defaultMode: 'acceptEdits' } }, expected: { mode: 'acceptEdits' } },
  { name: "Claude Code's 'manual' mode", userSettings: { permissions: { defaultMode: 'manual' } }, expected: { mode: 'default' } },
  { name: 'the mode flag over the settings', userSettings: { permissions: { defaultMode: 'acceptEdits' } }, flags: { permissionMode: 'plan' }, expected: { mode: 'plan' } },
  {
    name: 'bypass asked for where a settings file forbids it',
    userSettings: { permissions: { disableBypassPermissionsMode: 'disable' } },
    flags: { permissionMode: 'bypassPermissions' },
    expected: { mode: 'default' },
    notice: /bypassPermissions is turned off/,
  },
  { name: 'a model alias in settings', env: { ANTHROPIC_API_KEY: 'sk-test' }, userSettings: { model: 'opus' }, expected: { provider: 'anthropic', model: 'claude-opus-5-5' } },
  { name: 'the --model flag over settings', env: { ANTHROPIC_API_KEY: 'sk-test' }, userSettings: { model: 'opus' }, flags: { model: 'haiku' }, expected: { model: 'claude-haiku-5-5' } },
  // An untrusted folder's own settings widen nothing: its mode is withheld, in the facts as in the session.
  { name: "an untrusted folder's bypass mode", files: { '.claude/settings.json': JSON.stringify({ permissions: { defaultMode: 'bypassPermissions' } }) }, expected: { mode: 'default' } },
];

describe('session facts and the session built from them', () => {
  for (const c of cases) {
    it(`${c.name}: the first frame's header says what the session says`, async () => {
      const ws = await tempWorkspace(c.files ?? {});
      const claudeHome = path.join(path.dirname(ws.dir), 'claude');
      await fs.mkdir(claudeHome, { recursive: true });
      if (c.userSettings) await fs.writeFile(path.join(claudeHome, 'settings.json'), JSON.stringify(c.userSettings));
      const env = (): NodeJS.ProcessEnv => ({ HOME: path.dirname(ws.dir), CAIRN_HOME: ws.home, CLAUDE_CONFIG_DIR: claudeHome, ...c.env });
      const facts = await settleSessionFacts({ cwd: ws.dir, env: env(), ...c.flags });
      const early = earlyFrameSession(facts);
      expect(early).toMatchObject(c.expected);

      // The runtime built on those facts, and one that settles everything itself, agree with the frame.
      for (const runtime of [
        await createRuntime({ cwd: ws.dir, env: env(), interactive: false, persist: false, facts }),
        await createRuntime({ cwd: ws.dir, env: env(), interactive: false, persist: false, ...c.flags }),
      ]) {
        runtimes.push(runtime);
        const { session } = runtime;
        expect({ provider: session.providerName, model: session.model, mode: session.mode, offline: session.provider.offline === true }).toEqual({
          provider: early.provider,
          model: early.model,
          mode: early.mode,
          offline: early.offline,
        });
        if (c.notice) expect(runtime.startupNotices.join('\n')).toMatch(c.notice);
      }
      if (c.notice) expect(facts.notices.join('\n')).toMatch(c.notice);
    });
  }
});
