import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverSkills } from '../../../src/skills/skill-discovery.js';
import { shippedSkillsDir, skillPlaces } from '../../../src/skills/skill-places.js';
import { parseSkill } from '../../../src/skills/skill-parse.js';
import { findSkill } from '../../../src/skills/skill.js';

const INVALID = resolve('test/fixtures/skills/invalid');
const LONG = 'a'.repeat(65);

describe('a folder of skills, most of them broken', () => {
  it('reports each bad one with its path and reason, and loads the valid ones', async () => {
    const catalog = await discoverSkills([{ source: 'claude-project', dir: INVALID }]);
    expect(catalog.skills.map((s) => s.name)).toEqual([
      'bad-allowed-tools', 'description-too-long', 'invalid-yaml', 'missing-description', 'missing-name', 'name-mismatch', 'valid-one', 'valid-two',
    ]);
    const reasons = new Map(catalog.problems.map((p) => [p.file.slice(INVALID.length + 1), p.message]));
    expect(Object.fromEntries(reasons)).toEqual({
      [`${LONG}/SKILL.md`]: 'name: 65 characters, more than 64',
      'Bad_Name/SKILL.md': 'name: "Bad_Name" must be lowercase letters, digits and single hyphens',
      'no-frontmatter/SKILL.md': 'no YAML frontmatter (a --- block with name and description)',
      'unclosed-frontmatter/SKILL.md': 'the frontmatter has no closing --- line',
      'bad-disable/SKILL.md': 'disable-model-invocation: must be true or false',
      'no-skill-md/SKILL.md': 'missing: a skill folder needs a SKILL.md',
      'skill-md-is-a-folder/SKILL.md': expect.stringMatching(/directory/),
    });
  });

  it('loads what Claude Code loads, saying which rule each bends: a name not its folder, a long description, YAML strict parsing rejects', async () => {
    const catalog = await discoverSkills([{ source: 'claude-project', dir: INVALID }]);
    const warned = Object.fromEntries(catalog.skills.map((s) => [s.name, s.warnings ?? []]));
    expect(warned).toEqual({
      'bad-allowed-tools': [expect.stringMatching(/^allowed-tools: invalid rule "Bash\(git diff": missing closing .*; it grants nothing$/)],
      'description-too-long': ['description: 1025 characters, more than the 1024 of the Agent Skills format; loaded whole, as in Claude Code'],
      'invalid-yaml': ['description: the value "[unclosed" is not valid YAML as written; read as that text, as Claude Code does. Quote it to silence this'],
      'missing-description': ['description: missing; the first paragraph of the body stands in, as in Claude Code'],
      'missing-name': ['name: missing; it runs as /missing-name, its folder, as in Claude Code'],
      'name-mismatch': ['name: "another-name" differs from its folder "name-mismatch"; it runs as /name-mismatch, as in Claude Code'],
      'valid-one': [],
      'valid-two': [],
    });
    const byName = new Map(catalog.skills.map((s) => [s.name, s]));
    expect(byName.get('bad-allowed-tools')?.allowedTools).toEqual([]);
    expect(byName.get('description-too-long')?.description).toHaveLength(1025);
    expect(byName.get('missing-description')?.description).toBe('body');
  });

  it('keeps the valid skills whole: allowed-tools as a YAML list, the hint, model invocation off', async () => {
    const catalog = await discoverSkills([{ source: 'claude-project', dir: INVALID }]);
    const [one, two] = catalog.skills.filter((s) => s.name.startsWith('valid-'));
    expect(one?.allowedTools).toEqual(['Bash(echo:*)', 'Read']);
    expect(one?.body).toContain('Say hello with $ARGUMENTS.');
    expect(two?.description).toBe('Another valid one: quoted because of the colon.');
    expect(two?.disableModelInvocation).toBe(true);
    expect(two?.argumentHint).toBe('[who]');
  });

  it('takes allowed-tools as a comma-separated string too, parentheses kept whole', () => {
    const r = parseSkill('/x/s/SKILL.md', 'cairn-home', '---\nname: s\ndescription: d\nallowed-tools: Bash(git diff:*), Bash(git log --oneline:*) Read\n---\nb');
    expect('skill' in r && r.skill.allowedTools).toEqual(['Bash(git diff:*)', 'Bash(git log --oneline:*)', 'Read']);
  });
});

describe('the five places', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'cairn-skills-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });
  const skill = async (dir: string, name: string, description: string): Promise<void> => {
    await mkdir(join(dir, name), { recursive: true });
    await writeFile(join(dir, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\nbody from ${description}\n`);
  };

  it('a later place replaces an earlier one of the same name, and says which it replaced', async () => {
    const cwd = join(root, 'project');
    const opts = { cwd, cairnHome: join(root, 'cairn-home'), env: { HOME: join(root, 'home') }, shippedDir: join(root, 'shipped') };
    const places = skillPlaces(opts);
    expect(places.map((p) => p.source)).toEqual(['cairn', 'cairn-home', 'claude-user', 'claude-project', 'cairn-project']);
    expect(places.map((p) => p.dir)).toEqual([
      join(root, 'shipped'),
      join(root, 'cairn-home', 'skills'),
      join(root, 'home', '.claude', 'skills'),
      join(cwd, '.claude', 'skills'),
      join(cwd, '.cairn', 'skills'),
    ]);
    // "every" is in all five; each other name stops one place earlier.
    const names = ['every', 'to-project-claude', 'to-claude-user', 'to-cairn-home', 'shipped-only'];
    for (const [i, place] of places.entries()) {
      for (const name of names.slice(0, names.length - i)) await skill(place.dir, name, `${name} in ${place.source}`);
    }
    const catalog = await discoverSkills(places);
    const won = Object.fromEntries(catalog.skills.map((s) => [s.name, s.source]));
    expect(won).toEqual({
      every: 'cairn-project',
      'to-project-claude': 'claude-project',
      'to-claude-user': 'claude-user',
      'to-cairn-home': 'cairn-home',
      'shipped-only': 'cairn',
    });
    expect(catalog.replaced.get('every')?.map((s) => s.source)).toEqual(['cairn', 'cairn-home', 'claude-user', 'claude-project']);
    expect(catalog.skills.find((s) => s.name === 'every')?.body).toBe('body from every in cairn-project');
    expect(catalog.problems).toEqual([]);
  });

  it('CLAUDE_CONFIG_DIR moves the Claude Code user folder', () => {
    const places = skillPlaces({ cwd: root, cairnHome: join(root, 'c'), env: { CLAUDE_CONFIG_DIR: join(root, 'cc') }, shippedDir: undefined });
    expect(places.find((p) => p.source === 'claude-user')?.dir).toBe(join(root, 'cc', 'skills'));
    expect(places.some((p) => p.source === 'cairn')).toBe(false);
  });
});

describe('the skills shipped with cairn', () => {
  it('are found from the package, whichever directory cairn runs in', () => {
    expect(shippedSkillsDir()).toBe(resolve('skills'));
    expect(shippedSkillsDir(resolve('dist/bundle/main.js'))).toBe(resolve('skills'));
  });

  it('all load, with a name, a description that says when to use it, and no problems', async () => {
    const catalog = await discoverSkills([{ source: 'cairn', dir: resolve('skills') }]);
    expect(catalog.problems).toEqual([]);
    expect(catalog.skills.map((s) => s.name)).toEqual(['commit-message', 'github', 'init', 'review', 'security-review', 'skill-creator', 'summarize', 'weather', 'web-search']);
    for (const s of catalog.skills) {
      expect(s.description, s.name).toMatch(/\bUse when\b/);
      expect(s.body.length, s.name).toBeGreaterThan(400);
      expect(s.body, s.name).toContain('$ARGUMENTS');
    }
    const byName = new Map(catalog.skills.map((s) => [s.name, s]));
    expect(byName.get('commit-message')?.allowedTools).toEqual(['Bash(git diff:*)', 'Bash(git status:*)', 'Bash(git log:*)']);
    // Reading is granted; anything that changes GitHub is not.
    expect(byName.get('github')?.allowedTools.every((r) => /^Bash\(gh (pr|issue|run|auth) (view|list|diff|checks|status):\*\)$/.test(r))).toBe(true);
    expect(byName.get('web-search')?.body).toMatch(/has no\s+web tools/);
  });

  it('weather uses web_fetch on no-key services, and says so plainly without web tools or a network', async () => {
    const catalog = await discoverSkills([{ source: 'cairn', dir: resolve('skills') }]);
    const weather = catalog.skills.find((s) => s.name === 'weather');
    expect(weather?.allowedTools).toEqual([]);
    expect(weather?.body).toContain('https://wttr.in/<place>?format=j1');
    expect(weather?.body).toContain('https://api.open-meteo.com/v1/forecast');
    expect(weather?.body).toMatch(/has no web tools enabled, so I cannot\s+look up the weather/);
    expect(weather?.body).toMatch(/could not reach the weather services \(<the error web_fetch gave>\)/);
    expect(weather?.body).toMatch(/Never make up numbers/);
  });

  it('skill-creator is also found by its former name create-skill, as a command and for load_skill', async () => {
    const catalog = await discoverSkills([{ source: 'cairn', dir: resolve('skills') }]);
    const creator = catalog.skills.find((s) => s.name === 'skill-creator');
    if (!creator) throw new Error('skill-creator is not shipped');
    expect(creator.aliases).toEqual(['create-skill']);
    expect(findSkill(catalog.skills, 'create-skill')).toBe(creator);
    expect(creator.body).toContain('SKILL.md');
    // A skill that really has the name wins over an alias.
    const own = { ...creator, name: 'create-skill', aliases: [] };
    expect(findSkill([creator, own], 'create-skill')).toBe(own);
  });
});

describe('metadata.aliases', () => {
  it('takes a list or a comma-separated string; a bad name is a problem naming the field', () => {
    const skill = (aliases: string): ReturnType<typeof parseSkill> => parseSkill('/x/a/SKILL.md', 'cairn', `---\nname: a\ndescription: d\nmetadata:\n  aliases: ${aliases}\n---\nbody`);
    expect(skill('[b, c]')).toMatchObject({ skill: { aliases: ['b', 'c'] } });
    expect(skill('b, c')).toMatchObject({ skill: { aliases: ['b', 'c'] } });
    expect(skill('Bad_Name')).toEqual({ problem: 'metadata.aliases: "Bad_Name" must be lowercase letters, digits and single hyphens' });
    expect(skill('{x: 1}')).toEqual({ problem: 'metadata.aliases: must be a comma-separated string or a list of names' });
  });
});

describe('a real Claude Code project layout', () => {
  it('loads its skills unchanged: scripts, references, templates, CLAUDE_SKILL_DIR in allowed-tools', async () => {
    const cwd = resolve('test/fixtures/claude-project');
    const catalog = await discoverSkills(skillPlaces({ cwd, cairnHome: join(cwd, 'none'), env: { HOME: join(cwd, 'none') }, shippedDir: undefined }));
    expect(catalog.problems).toEqual([]);
    expect(catalog.skills.map((s) => `${s.name}:${s.source}`)).toEqual(['api-client:claude-project', 'db-migration:claude-project', 'release-notes:claude-project']);
    expect(catalog.skills.find((s) => s.name === 'db-migration')?.disableModelInvocation).toBe(true);
    expect(catalog.skills.find((s) => s.name === 'api-client')?.allowedTools).toEqual(['Read', 'Write(src/api/**)', 'Edit(src/api/**)']);
  });
});
