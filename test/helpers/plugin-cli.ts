import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { runPluginCommand } from '../../src/plugins/plugin-command.js';

export interface PluginCliRun {
  code: number;
  out: string;
  err: string;
}

/**
 * `cairn plugin ...` run in-process for each test in a fresh temp HOME, CAIRN_HOME and
 * CLAUDE_CONFIG_DIR (removed after the test). `cwd` is the folder it runs in, below the temp base
 * (the base itself when not given).
 */
export function pluginCli(prefix: string, options: { cwd?: string } = {}) {
  const rig = { base: '', cwd: '', env: {} as NodeJS.ProcessEnv };
  beforeEach(async () => {
    rig.base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), `cairn-${prefix}-`)));
    rig.cwd = options.cwd === undefined ? rig.base : path.join(rig.base, options.cwd);
    await fs.mkdir(rig.cwd, { recursive: true });
    rig.env = { HOME: rig.base, CAIRN_HOME: path.join(rig.base, 'cairn'), CLAUDE_CONFIG_DIR: path.join(rig.base, 'claude') };
  });
  afterEach(async () => {
    await fs.rm(rig.base, { recursive: true, force: true });
  });
  async function plugin(...args: string[]): Promise<PluginCliRun> {
    let out = '';
    let err = '';
    const code = await runPluginCommand(args, { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) }, env: rig.env, cwd: rig.cwd });
    return { code, out, err };
  }
  return { rig, plugin };
}
