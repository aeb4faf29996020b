import { resolve } from 'node:path';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverCommands } from '../../../src/custom-commands/command-discovery.js';
import { commandPlaces } from '../../../src/skills/skill-places.js';

describe('custom commands of a real Claude Code project', () => {
  it('load unchanged, subfolders as namespaces, description from the frontmatter or the first line', async () => {
    const cwd = resolve('test/fixtures/claude-project');
    const catalog = await discoverCommands(commandPlaces({ cwd, cairnHome: join(cwd, 'none'), env: { HOME: join(cwd, 'none') } }));
    expect(catalog.problems).toEqual([]);
    const byName = Object.fromEntries(catalog.commands.map((c) => [c.name, c]));
    expect(Object.keys(byName)).toEqual(['deploy:staging', 'frontend:component', 'git:commit', 'git:pr', 'review']);
    expect(byName['git:commit']?.allowedTools).toEqual(['Bash(git add:*)', 'Bash(git status:*)', 'Bash(git commit:*)', 'Bash(git diff:*)']);
    expect(byName['git:commit']?.model).toBe('claude-3-5-haiku-20241022');
    expect(byName['frontend:component']?.argumentHint).toBe('<ComponentName> [folder]');
    expect(byName['deploy:staging']?.description).toBe('Deploy the current branch to staging and report the URL.');
  });
});

describe('the four places', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'cairn-commands-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('a later place replaces an earlier one; a file cairn cannot name is reported and skipped, YAML it cannot read loads with a warning', async () => {
    const cwd = join(root, 'p');
    const places = commandPlaces({ cwd, cairnHome: join(root, 'ch'), env: { HOME: join(root, 'h') } });
    expect(places.map((p) => p.dir)).toEqual([join(root, 'ch', 'commands'), join(root, 'h', '.claude', 'commands'), join(cwd, '.claude', 'commands'), join(cwd, '.cairn', 'commands')]);
    for (const [i, place] of places.entries()) {
      await mkdir(place.dir, { recursive: true });
      await writeFile(join(place.dir, 'same.md'), `from place ${i}`);
    }
    await writeFile(join(places[2]?.dir ?? '', 'bad yaml.md'), 'x');
    await writeFile(join(places[3]?.dir ?? '', 'broken.md'), '---\ndescription: [oops\n---\nbody');
    await writeFile(join(places[3]?.dir ?? '', 'lost.md'), '---\ndescription: ok\n- b\n---\nthe body');
    const catalog = await discoverCommands(places);
    expect(catalog.commands.map((c) => [c.name, c.body])).toEqual([['broken', 'body'], ['lost', 'the body'], ['same', 'from place 3']]);
    expect(catalog.replaced.get('same')?.map((c) => c.source)).toEqual(['cairn-home', 'claude-user', 'claude-project']);
    expect(catalog.problems.map((p) => [p.file, p.message.split(':')[0]])).toEqual([
      [join(places[2]?.dir ?? '', 'bad yaml.md'), 'the file and folder names of a command take letters, digits, ".", "_" and "-" only'],
    ]);
    // YAML strict parsing rejects both; Claude Code loads them: cairn too, saying what it bent.
    const [broken, lost] = catalog.commands;
    expect(broken?.description).toBe('[oops');
    expect(broken?.warnings).toEqual(['description: the value "[oops" is not valid YAML as written; read as that text, as Claude Code does. Quote it to silence this']);
    expect(lost?.description).toBe('the body');
    expect(lost?.warnings?.[0]).toMatch(/^frontmatter is not valid YAML: .*; its fields are ignored and the text after them is the prompt, as in Claude Code$/);
  });
});
