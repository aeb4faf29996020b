import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { namedTmpPaths } from '../../../src/sandbox/private-tmp.js';
import type { CommandSandbox } from '../../../src/sandbox/sandbox.js';
import { createBashTool } from '../../../src/tools/bash.js';
import type { ToolResult } from '../../../src/tools/tool.js';
import { testSandbox } from '../../helpers/sandbox.js';

// An approved command that writes /tmp/x runs in the sandbox, where /tmp is the session's own folder:
// the result must say the file went there, not read as if the machine's /tmp/x now existed.

let root: string;
let ws: string;
let sandbox: CommandSandbox;
const tag = `cairn-private-tmp-${process.pid}-${Date.now()}`;
const hostTarget = `/tmp/${tag}.txt`;

async function approvedRun(command: string, cwd = ws): Promise<ToolResult> {
  const bash = createBashTool({ sandbox });
  return bash.call({ command }, { cwd, signal: new AbortController().signal, approval: { byUser: true, readOnly: false } });
}

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join('/var/tmp', 'cairn-private-tmp-')));
  ws = path.join(root, 'ws');
  await fs.mkdir(ws);
  sandbox = await testSandbox(ws);
  expect(sandbox.status().availability).toEqual({ available: true });
});
afterEach(async () => {
  sandbox.close();
  await fs.rm(root, { recursive: true, force: true });
  await fs.rm(hostTarget, { force: true });
});

describe("a write to /tmp under the sandbox", () => {
  it("says the file went to the session's private /tmp and the machine's /tmp did not change", async () => {
    const r = await approvedRun(`touch ${hostTarget}`);
    expect(existsSync(hostTarget)).toBe(false);
    expect(r.content).toContain(`${hostTarget} was written to this session's private /tmp`);
    expect(r.content).toContain(sandbox.status().policy.tempDir);
    expect(r.content).toContain('dangerously_disable_sandbox');
    // The file is where the note says, and the session's next command sees it at the same path.
    const again = await approvedRun(`echo kept >> '${hostTarget}' && cat ${hostTarget}`);
    expect(again.content.split('\n')[0]).toBe('kept');
    expect(again.content).toContain('was written to');
  });

  it('adds nothing to a command that ran unasked (scratch files in /tmp are what it is for)', async () => {
    const bash = createBashTool({ sandbox });
    const r = await bash.call({ command: `echo scratch > ${hostTarget} && cat ${hostTarget}` }, { cwd: ws, signal: new AbortController().signal });
    expect(r.content).toBe('scratch');
    expect(existsSync(hostTarget)).toBe(false);
  });

  it('adds nothing when the /tmp path a command names is only read, or is not written', async () => {
    const r = await approvedRun(`cat ${hostTarget} 2>/dev/null; echo done`);
    expect(r.content).toBe('done');
  });

  it('adds nothing for a workspace that itself lives under /tmp (it is bound in place)', async () => {
    const tmpWs = await fs.realpath(await fs.mkdtemp(path.join('/tmp', 'cairn-tmp-ws-')));
    sandbox.close();
    sandbox = await testSandbox(tmpWs);
    try {
      const r = await approvedRun(`echo hi > ${tmpWs}/made.txt && cat ${tmpWs}/made.txt`, tmpWs);
      expect(r.content).toBe('hi');
      expect(await fs.readFile(path.join(tmpWs, 'made.txt'), 'utf8')).toBe('hi\n');
    } finally {
      await fs.rm(tmpWs, { recursive: true, force: true });
    }
  });
});

describe('the /tmp paths a command names', () => {
  it('finds quoted and unquoted paths, and stops at shell syntax', () => {
    expect(namedTmpPaths(`touch /tmp/a.txt && echo x > "/tmp/b c" ; cp f '/tmp/d/'|tee /tmp/e`)).toEqual(['/tmp/a.txt', '/tmp/b c', '/tmp/d', '/tmp/e']);
    expect(namedTmpPaths('ls /var/tmp/x ./tmp/y src/tmp/z /tmpfoo')).toEqual([]);
  });
});
