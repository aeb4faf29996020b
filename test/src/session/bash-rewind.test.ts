import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOfflineProvider } from '../../../src/providers/offline.js';
import type { CommandSandbox } from '../../../src/sandbox/sandbox.js';
import { AgentSession } from '../../../src/session/agent-session.js';
import { withBashCheckpoints } from '../../../src/session/bash-checkpoints.js';
import { CheckpointRecorder, withCheckpoints } from '../../../src/session/checkpoint-tools.js';
import { checkpointFile, CheckpointStore } from '../../../src/session/checkpoints.js';
import { codeChanges, rewindCode } from '../../../src/session/rewind.js';
import { SessionSnapshots } from '../../../src/session/workspace-snapshots.js';
import { createBashTool } from '../../../src/tools/bash.js';
import { createWriteFileTool } from '../../../src/tools/write-file.js';
import { realPermissions } from '../../helpers/real-permissions.js';
import { hostileRepo, pwnedBy, type HostileKind } from '../../helpers/hostile-repos.js';
import { testSandbox } from '../../helpers/sandbox.js';
import { git } from '../../helpers/test-git.js';

// Rewind covers what bash changed (issue 38 item 4): sed -i, rm and a generator in one prompt,
// rewound through the same plan and restore as write_file's changes.

let root: string;
let ws: string;
let sandbox: CommandSandbox | undefined;

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-bash-rewind-')));
  ws = path.join(root, 'ws');
  await fs.mkdir(ws);
});
afterEach(async () => {
  sandbox?.close();
  sandbox = undefined;
  await fs.rm(root, { recursive: true, force: true });
});


async function open(cwd: string, opts: { sandbox?: CommandSandbox; home?: string } = {}) {
  const home = opts.home ?? path.join(root, 'home');
  const file = checkpointFile(path.join(home, 'projects', 'w', 's1.jsonl'));
  const warnings: string[] = [];
  const snapshots = new SessionSnapshots(path.join(path.dirname(file), 'snapshots'), [home]);
  const recorder = new CheckpointRecorder(await CheckpointStore.load(file), (m) => warnings.push(m), snapshots);
  const bash = createBashTool(opts.sandbox ? { sandbox: opts.sandbox } : {});
  const session = new AgentSession({
    provider: createOfflineProvider({ model: 'm' }),
    tools: [bash, createWriteFileTool()].map((t) => withBashCheckpoints(withCheckpoints(t, recorder), recorder)),
    // bypassPermissions with the built-in denies lifted (user settings): cairn cannot tell what
    // `sh gen.sh` runs after the command wrote files, so otherwise it denies the command in every mode.
    permissions: (await realPermissions({ workspace: cwd, mode: 'bypassPermissions', userSettings: { permissions: { liftBuiltinDeny: ['recursive-rm', 'sudo'] } } })).permissions,
    cwd,
    system: () => 's',
    interactive: false,
    checkpoints: recorder,
  });
  return { session, recorder, warnings, snapshots };
}

/** Every file under `dir` (but .git) with its exact bytes. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    const abs = path.join(entry.parentPath, entry.name);
    if (!entry.isFile() || path.relative(dir, abs).split(path.sep)[0] === '.git') continue;
    out[path.relative(dir, abs)] = (await fs.readFile(abs)).toString('base64');
  }
  return out;
}

/** Files whose bytes a conversion would change: CRLF and mixed line endings under `text`, invalid UTF-8, no final newline. */
async function seed(dir: string): Promise<void> {
  await fs.mkdir(path.join(dir, 'src'), { recursive: true });
  await fs.writeFile(path.join(dir, 'src', 'app.txt'), 'colour one\r\ncolour two\nthree');
  await fs.writeFile(path.join(dir, 'notes.md'), 'keep me\n');
  await fs.writeFile(path.join(dir, 'data.bin'), Buffer.from([0, 1, 2, 0xff, 0xfe, 10, 13]));
  await fs.writeFile(path.join(dir, 'gen.sh'), 'printf "\\x00generated" > data.bin\nmkdir -p out\necho made > out/new.txt\n');
}

const SCRIPT = "run sed -i 's/colour/color/g' src/app.txt && rm notes.md && sh gen.sh";

async function runAndRewind(cwd: string, opts: { sandbox?: CommandSandbox } = {}): Promise<void> {
  const original = await tree(cwd);
  const { session, recorder, warnings } = await open(cwd, opts);
  await session.run(SCRIPT);
  expect(await fs.readFile(path.join(cwd, 'src', 'app.txt'), 'utf8')).toBe('color one\r\ncolor two\nthree');
  await expect(fs.access(path.join(cwd, 'notes.md'))).rejects.toThrow();
  expect(await fs.readFile(path.join(cwd, 'out', 'new.txt'), 'utf8')).toBe('made\n');

  const prompt = session.rewindPoints[0] ?? { turn: -1, id: -1 };
  // Listed before anything is restored.
  const listed = codeChanges(recorder, prompt).map((c) => [path.relative(cwd, c.path), c.action]).sort();
  expect(listed).toEqual([['data.bin', 'restore'], ['notes.md', 'restore'], ['out/new.txt', 'delete'], ['src/app.txt', 'restore']]);
  const outcomes = await rewindCode(recorder, cwd, prompt);
  expect(outcomes.filter((o) => !o.ok)).toEqual([]);
  expect(await tree(cwd)).toEqual(original);
  expect(warnings).toEqual([]);
}

describe('rewind restores what a bash command changed', () => {
  it('in a git repository: sed -i, rm and a generator in one prompt come back byte for byte, the created file goes; untracked and line-ending-converted files too', async () => {
    await seed(ws);
    // `text` would turn CRLF into LF on the way into git: the snapshot must keep the exact bytes anyway.
    await fs.writeFile(path.join(ws, '.gitattributes'), '*.txt text eol=lf\n');
    git(ws, 'init', '-q', '-b', 'main');
    git(ws, 'add', '.gitattributes', 'gen.sh', 'notes.md');
    git(ws, 'commit', '-q', '-m', 'init'); // src/app.txt and data.bin stay untracked
    const index = await fs.readFile(path.join(ws, '.git', 'index'));
    await runAndRewind(ws);
    // The user's index, refs and stash are untouched.
    expect(await fs.readFile(path.join(ws, '.git', 'index'))).toEqual(index);
    expect(git(ws, 'stash', 'list')).toBe('');
    expect(git(ws, 'for-each-ref', '--format=%(refname)')).toBe('refs/heads/main\n');
  });

  it('in a folder that is not a git repository, with the sandbox on', async () => {
    sandbox = await testSandbox(ws);
    expect(sandbox.status().availability).toEqual({ available: true });
    await seed(ws);
    await runAndRewind(ws, { sandbox });
  });

  it('ignored files are not snapshotted; a workspace below the repository top covers only itself', async () => {
    const repo = path.join(root, 'repo');
    const sub = path.join(repo, 'pkg');
    await fs.mkdir(path.join(sub, 'build'), { recursive: true });
    await fs.writeFile(path.join(repo, '.gitignore'), 'build/\n');
    await fs.writeFile(path.join(sub, 'a.txt'), 'a\n');
    await fs.writeFile(path.join(repo, 'top.txt'), 'top\n');
    git(repo, 'init', '-q');
    const { session, recorder } = await open(sub);
    await session.run('run echo changed > a.txt && echo out > build/x.o && echo t > ../top.txt');
    const prompt = session.rewindPoints[0] ?? { turn: -1, id: -1 };
    expect(codeChanges(recorder, prompt).map((c) => path.relative(repo, c.path))).toEqual(['pkg/a.txt']);
  });

  it('the store lives in the session folder and is pruned with the session', async () => {
    await seed(ws);
    const { session, snapshots } = await open(ws);
    await session.run('run echo x > notes.md');
    expect((await fs.readdir(snapshots.root)).length).toBe(1);
    snapshots.pruneNow();
    await expect(fs.access(snapshots.root)).rejects.toThrow();
  });
});

describe('faults: the command still runs, and the user is told rewind will not cover it', () => {
  it('a snapshot store that cannot be written', async () => {
    await seed(ws);
    const home = path.join(root, 'locked');
    await fs.mkdir(home);
    await fs.writeFile(path.join(home, 'projects'), 'a file where the folder should be');
    const { session, warnings } = await open(ws, { home });
    await session.run('run echo ran > notes.md');
    expect(await fs.readFile(path.join(ws, 'notes.md'), 'utf8')).toBe('ran\n');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^Rewind will not cover bash commands' changes: the workspace snapshot failed \(.*\)\. Check that .* is writable and git works\.$/);
  });

  it('git missing', async () => {
    await seed(ws);
    const { session, warnings } = await open(ws);
    // bash and the commands it runs, but no git.
    const bin = path.join(root, 'bin');
    await fs.mkdir(bin);
    for (const program of ['bash', 'sh', 'echo']) await fs.symlink(execFileSync('which', [program], { encoding: 'utf8' }).trim(), path.join(bin, program));
    const saved = process.env['PATH'];
    process.env['PATH'] = bin;
    try {
      await session.run('run echo ran > notes.md');
    } finally {
      process.env['PATH'] = saved;
    }
    expect(await fs.readFile(path.join(ws, 'notes.md'), 'utf8')).toBe('ran\n');
    expect(warnings.join('\n')).toMatch(/workspace snapshot failed \(git: not found in any absolute PATH folder\)/);
  });
});

describe('a hostile repository: snapshotting and rewinding run none of its programs', () => {
  const kinds: HostileKind[] = ['fsmonitor', 'hooks', 'filter', 'commondir', 'gitdir-file', 'submodule'];
  it.each(kinds)('%s', async (kind) => {
    const repo = await hostileRepo(kind);
    try {
      const before = await fs.readFile(path.join(repo.dir, 'b.txt'));
      const { session, recorder } = await open(repo.dir);
      await session.run('run echo overwritten > b.txt && rm a.txt && echo made > made.txt');
      const prompt = session.rewindPoints[0] ?? { turn: -1, id: -1 };
      expect(codeChanges(recorder, prompt).map((c) => [path.basename(c.path), c.action]).sort()).toEqual([['a.txt', 'restore'], ['b.txt', 'restore'], ['made.txt', 'delete']]);
      expect((await rewindCode(recorder, repo.dir, prompt)).every((o) => o.ok)).toBe(true);
      expect(await fs.readFile(path.join(repo.dir, 'b.txt'))).toEqual(before);
      expect(await fs.readFile(path.join(repo.dir, 'a.txt'), 'utf8')).toBe('alpha\n');
      expect(await pwnedBy(repo)).toBeUndefined();
    } finally {
      await fs.rm(path.dirname(repo.dir), { recursive: true, force: true });
    }
  });
});
