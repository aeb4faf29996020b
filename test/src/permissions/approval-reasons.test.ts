import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import { defineTool } from '../../../src/tools/tool.js';
import { fakeBashTool } from '../../helpers/permission-tools.js';

// Issue 12 item 19: an approval's reason reads as a request, not as a refusal ("is not allowed").
const bashTool = fakeBashTool;
const writeFileTool = defineTool({
  name: 'write_file',
  description: 'write_file',
  inputSchema: z.object({ path: z.string() }),
  kind: 'edit',
  effects: () => 'world' as const,
  paths: (input) => [input.path],
  call: async () => ({ content: '' }),
});

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'cairn-reasons-')));
  await mkdir(join(root, 'ws'), { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const checker = () =>
  createPermissionChecker({ workspace: join(root, 'ws'), mode: 'default', rules: { allow: [], ask: [], deny: [] }, cairnHome: join(root, 'home'), homeDir: join(root, 'home') });

describe('approval reasons', () => {
  it('say what needs the approval and that no rule allows it', async () => {
    const c = checker();
    expect(await c.check(bashTool, { command: 'npm test' })).toMatchObject({ behavior: 'ask', reason: 'needs your approval: no rule allows npm test' });
    // Quoted exactly as it will run, not as the bare words rules match.
    expect(await c.check(bashTool, { command: "node src/cli.js '2 weeks 3d'" })).toMatchObject({ reason: "needs your approval: no rule allows node src/cli.js '2 weeks 3d'" });
    expect(await c.check(bashTool, { command: `echo "it's" && node x.js 'a b'` })).toMatchObject({ reason: `needs your approval: no rule allows "node x.js 'a b'" in this compound command` });
    expect(await c.check(bashTool, { command: 'npm test && npm run build' })).toMatchObject({
      behavior: 'ask',
      reason: 'needs your approval: no rule allows "npm test", "npm run build" in this compound command',
    });
    expect(await c.check(writeFileTool, { path: 'notes.txt' })).toMatchObject({ behavior: 'ask', reason: 'needs your approval: no rule allows write_file "notes.txt"' });
  });
});
