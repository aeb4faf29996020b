import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withFolderInstructions } from '../../../src/context/folder-instructions-tools.js';
import { createSystemPromptSource } from '../../../src/context/system-prompt-source.js';
import { createBuiltinTools } from '../../../src/tools/builtin.js';

async function setUp() {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-folder-')));
  const ws = path.join(base, 'ws');
  const write = async (rel: string, text: string) => {
    await fs.mkdir(path.dirname(path.join(ws, rel)), { recursive: true });
    await fs.writeFile(path.join(ws, rel), text);
  };
  await fs.mkdir(ws, { recursive: true });
  execFileSync('git', ['init', '-q', ws]);
  await write('CLAUDE.md', 'root instructions');
  await write('src/api/CLAUDE.md', 'API folder: use zod for every handler @conventions.md');
  await write('src/api/conventions.md', 'API conventions imported');
  await write('src/api/handler.ts', 'export const h = 1;\n');
  await write('src/ui/AGENTS.md', 'UI folder agents');
  await write('src/ui/view.tsx', 'view\n');
  await write('.claude/rules/tests.md', '---\npaths: "**/*.test.ts"\n---\nTests use vitest.');
  await write('lib/a.test.ts', 'test\n');
  const problems: string[] = [];
  const source = createSystemPromptSource({ cwd: ws, cairnHome: path.join(base, 'cairn'), claudeHome: path.join(base, 'claude'), toolNames: () => [], now: () => new Date(), onProblem: (m) => problems.push(m) });
  const tools = withFolderInstructions(createBuiltinTools(), source.forPaths);
  const read = tools.find((t) => t.name === 'read_file');
  if (!read) throw new Error('no read_file');
  const ctx = { cwd: ws, signal: new AbortController().signal };
  return { ws, source, read, ctx, problems };
}

describe('a subfolder’s instruction files', () => {
  it('join the read_file result the first time a file there is read, with their imports; not the second time', async () => {
    const { source, read, ctx, problems } = await setUp();
    const prompt = await source.build({ mode: 'default', model: 'm' });
    expect(prompt.text).toContain('root instructions');
    expect(prompt.text).not.toContain('API folder');

    const first = await read.call({ path: 'src/api/handler.ts' }, ctx);
    expect(first.content).toContain('export const h = 1;');
    expect(first.content).toMatch(/<system-reminder>\nInstructions from .*src\/api\/CLAUDE\.md, which apply to files there:\n\nAPI folder: use zod/);
    expect(first.content).toContain('API conventions imported');
    const again = await read.call({ path: 'src/api/handler.ts' }, ctx);
    expect(again.content).not.toContain('API folder');

    const ui = await read.call({ path: 'src/ui/view.tsx' }, ctx);
    expect(ui.content).toContain('UI folder agents');
    expect(ui.content).not.toContain('API folder');
    expect((await source.loadedFiles()).map((f) => path.basename(path.dirname(f.path)) + '/' + path.basename(f.path))).toEqual([
      'ws/CLAUDE.md', 'api/CLAUDE.md', 'api/conventions.md', 'ui/AGENTS.md',
    ]);
    expect(problems).toEqual([]);
  });

  it('a .claude/rules file with paths: joins when a matching file is read, once', async () => {
    const { read, ctx } = await setUp();
    const other = await read.call({ path: 'src/ui/view.tsx' }, ctx);
    expect(other.content).not.toContain('vitest');
    const match = await read.call({ path: 'lib/a.test.ts' }, ctx);
    expect(match.content).toContain('Tests use vitest.');
    expect(match.content).not.toContain('paths:');
    const again = await read.call({ path: 'lib/a.test.ts' }, ctx);
    expect(again.content).not.toContain('vitest');
  });

  it('a failed read brings nothing', async () => {
    const { read, ctx } = await setUp();
    const result = await read.call({ path: 'src/api/none.ts' }, ctx);
    expect(result.isError).toBe(true);
    expect(result.content).not.toContain('API folder');
  });
});
