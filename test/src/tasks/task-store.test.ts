import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTaskStore } from '../../../src/tasks/task-store.js';
import { createTaskTools } from '../../../src/tools/task-tools.js';
import { repoRoot } from '../../helpers/run-cairn.js';

async function ws(): Promise<string> {
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-tasks-')));
}

// A second (and third) process claiming tasks through the built store module.
function claimer(cwd: string, name: string, ids: string[]): Promise<string[]> {
  const script = `
    const { createTaskStore } = await import(${JSON.stringify(path.join(repoRoot, 'dist/src/tasks/task-store.js'))});
    const store = createTaskStore(${JSON.stringify(cwd)});
    const won = [];
    await Promise.all(${JSON.stringify(ids)}.map(async (id) => {
      try { await store.update(id, { owner: ${JSON.stringify(name)}, status: 'in_progress' }, ${JSON.stringify(name)}); won.push(id); } catch {}
    }));
    process.stdout.write(JSON.stringify(won));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as string[]) : reject(new Error(err))));
  });
}

describe('shared tasks', () => {
  it('concurrent claims from two processes: every task gets exactly one owner', async () => {
    const cwd = await ws();
    const store = createTaskStore(cwd);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await store.create({ subject: `task ${i}` })).id);
    const [a, b] = await Promise.all([claimer(cwd, 'alice', ids), claimer(cwd, 'bob', ids)]);
    expect([...a, ...b].sort()).toEqual([...ids].sort());
    expect(a.filter((id) => b.includes(id))).toEqual([]);
    for (const id of ids) {
      const t = await store.get(id);
      expect(a.includes(id) ? 'alice' : 'bob').toBe(t.owner);
    }
  });

  it('refuses a claim of an owned task, a blocked start, and a release by someone else', async () => {
    const cwd = await ws();
    const store = createTaskStore(cwd);
    const first = await store.create({ subject: 'schema' });
    const second = await store.create({ subject: 'api', blocked_by: [first.id] });
    await store.update(first.id, { owner: 'alice' }, 'alice');
    await expect(store.update(first.id, { owner: 'bob' }, 'bob')).rejects.toThrow(/already owned by alice/);
    await expect(store.update(first.id, { owner: null }, 'bob')).rejects.toThrow(/only they can release/);
    await expect(store.update(second.id, { status: 'in_progress' }, 'bob')).rejects.toThrow(new RegExp(`blocked by ${first.id}`));
    await store.update(first.id, { status: 'completed' }, 'alice');
    expect((await store.update(second.id, { status: 'in_progress', owner: 'bob' }, 'bob')).status).toBe('in_progress');
  });

  it('the tools report errors as results and list tasks', async () => {
    const cwd = await ws();
    const tools = Object.fromEntries(createTaskTools(createTaskStore(cwd), 'lead').map((t) => [t.name, t]));
    const ctx = { cwd, signal: new AbortController().signal };
    const created = await tools['task_create']!.call({ subject: 'write docs' }, ctx);
    const id = /Created (\w+)/.exec(created.content)![1]!;
    expect((await tools['task_update']!.call({ id, owner: 'lead', status: 'in_progress' }, ctx)).content).toMatch(/\[in_progress\] @lead write docs/);
    expect((await tools['task_list']!.call({}, ctx)).content).toMatch(new RegExp(`${id} \\[in_progress\\] @lead`));
    expect(await tools['task_get']!.call({ id: 'nope' }, ctx)).toMatchObject({ isError: true, content: expect.stringMatching(/no task nope/) });
  });
});

describe('task files that cannot be read', () => {
  it('a corrupt task file is reported naming it, the others are listed, and the file is kept', async () => {
    const cwd = await ws();
    const problems: string[] = [];
    const store = createTaskStore(cwd, () => new Date('2026-11-30T10:00:00Z'), (m) => problems.push(m));
    const good = await store.create({ subject: 'kept' });
    const broken = path.join(store.dir, 'broken.json');
    await fs.writeFile(broken, '{"id":"broken","subj');
    expect((await store.list()).map((t) => t.id)).toEqual([good.id]);
    await store.list();
    expect(problems).toEqual([expect.stringContaining(`${broken}: not valid JSON`)]);
    expect(await fs.readFile(broken, 'utf8')).toBe('{"id":"broken","subj');
    const scanned = await store.scan();
    expect(scanned.problems).toEqual([expect.stringContaining(broken)]);
    await expect(store.get('broken')).rejects.toThrow(`${broken}: not valid JSON`);
  });

  it('task_list shows the model which task file it could not read, beside the tasks it could', async () => {
    const cwd = await ws();
    const store = createTaskStore(cwd, () => new Date('2026-11-30T10:00:00Z'), () => undefined);
    await store.create({ subject: 'kept' });
    const broken = path.join(store.dir, 'broken.json');
    await fs.writeFile(broken, '{"id":"broken","subj');
    const list = createTaskTools(store, 'lead').find((t) => t.name === 'task_list');
    const result = await list?.call({}, { cwd, signal: new AbortController().signal });
    expect(result?.content).toContain('kept');
    expect(result?.content).toContain(`Skipped a task file: ${broken}: not valid JSON`);
  });

  it('a task file that is not a file is reported, not opened', async () => {
    const cwd = await ws();
    const problems: string[] = [];
    const store = createTaskStore(cwd, undefined, (m) => problems.push(m));
    await store.create({ subject: 'kept' });
    await fs.mkdir(path.join(store.dir, 'odd.json'));
    expect(await store.list()).toHaveLength(1);
    expect(problems).toEqual([expect.stringContaining(`${path.join(store.dir, 'odd.json')}: is a directory`)]);
  });

  it('a tasks folder that cannot be listed is an error naming it, not an empty list', async () => {
    const cwd = await ws();
    await fs.mkdir(path.join(cwd, '.cairn'), { recursive: true });
    await fs.writeFile(path.join(cwd, '.cairn', 'tasks'), 'not a folder');
    await expect(createTaskStore(cwd).list()).rejects.toThrow(`cannot list the tasks in ${path.join(cwd, '.cairn', 'tasks')}: ENOTDIR`);
  });
});
