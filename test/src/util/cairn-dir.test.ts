import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addAllowRulesToFile } from '../../../src/permissions/rules/settings.js';
import { CAIRN_GITIGNORE, cairnDir, prepareCairnDir, prepareCairnDirSync } from '../../../src/util/cairn-dir.js';
import { saveMemory } from '../../../src/context/long-term-memory.js';
import { createMessageBus } from '../../../src/team/message-bus.js';
import { createTaskStore } from '../../../src/tasks/task-store.js';

let repo: string;
beforeEach(() => {
  repo = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-dir-')));
  execFileSync('git', ['init', '-q'], { cwd: repo });
});
afterEach(() => {
  fs.rmSync(repo, { recursive: true, force: true });
});

/** `git status` as a script reads it: untracked files one by one. */
const status = (): string[] => execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: repo, encoding: 'utf8' }).split('\n').filter(Boolean);
const ignored = (file: string): boolean => {
  try {
    execFileSync('git', ['check-ignore', '-q', file], { cwd: repo });
    return true;
  } catch {
    return false;
  }
};

describe('.cairn/.gitignore (issue 12 item 15)', () => {
  it('covers the local files and leaves the project ones to the repository', async () => {
    await prepareCairnDir(cairnDir(repo));
    for (const local of ['settings.local.json', 'scheduled_tasks.json', 'team/lead.jsonl', 'team/lead.read', 'tasks/1.json', 'memory/2026-11-30.md', 'x.123.tmp']) {
      expect(ignored(`.cairn/${local}`), local).toBe(true);
    }
    for (const project of ['settings.json', 'MEMORY.md', 'AGENT.md', 'agents/reviewer.md', '.gitignore']) {
      expect(ignored(`.cairn/${project}`), project).toBe(false);
    }
  });

  it('is written once and never over the user’s own', async () => {
    fs.mkdirSync(cairnDir(repo));
    fs.writeFileSync(path.join(cairnDir(repo), '.gitignore'), 'mine\n');
    await prepareCairnDir(cairnDir(repo));
    prepareCairnDirSync(cairnDir(repo));
    expect(fs.readFileSync(path.join(cairnDir(repo), '.gitignore'), 'utf8')).toBe('mine\n');
  });

  it('only a .cairn folder gets one', async () => {
    await prepareCairnDir(path.join(repo, 'home', 'memory'));
    expect(fs.readdirSync(path.join(repo, 'home', 'memory'))).toEqual([]);
  });

  it('every writer into .cairn/ adds it first: saving an "always" rule, team messages, shared tasks, project memory', async () => {
    await addAllowRulesToFile(path.join(repo, '.cairn', 'settings.local.json'), ['write_file(./**)']);
    const bus = createMessageBus(repo);
    await bus.send('lead', 'helper', 'hello');
    await bus.read('helper');
    await createTaskStore(repo).create({ subject: 's', description: 'd' });
    expect(status()).toEqual(['?? .cairn/.gitignore']);
    expect(fs.readFileSync(path.join(repo, '.cairn', '.gitignore'), 'utf8')).toBe(CAIRN_GITIGNORE);

    fs.rmSync(path.join(repo, '.cairn'), { recursive: true });
    await saveMemory('project', { cairnHome: path.join(repo, 'home'), cwd: repo }, 'remember this', new Date());
    expect(fs.readdirSync(path.join(repo, '.cairn')).sort()).toEqual(['.gitignore', 'MEMORY.md']);
  });
});
