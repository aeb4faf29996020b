import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findImports, MAX_IMPORT_DEPTH } from '../../../src/context/instruction-imports.js';
import { INSTRUCTION_SIZE_WARNING, loadInstructionFiles } from '../../../src/context/instruction-files.js';

async function project() {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-imports-')));
  const ws = path.join(base, 'ws');
  const home = path.join(base, 'home');
  const claudeHome = path.join(home, '.claude');
  await fs.mkdir(ws, { recursive: true });
  await fs.mkdir(claudeHome, { recursive: true });
  execFileSync('git', ['init', '-q', ws]);
  const write = async (file: string, text: string) => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, text);
  };
  const problems: string[] = [];
  const load = (extra: { isReadDenied?: (p: string) => boolean } = {}) =>
    loadInstructionFiles({ cairnHome: path.join(base, 'cairn'), claudeHome, cwd: ws, home, onProblem: (m) => problems.push(m), ...extra });
  return { base, ws, home, claudeHome, write, problems, load };
}

describe('@path imports in CLAUDE.md', () => {
  it('are not imports inside code spans, fenced blocks or HTML comments, and drop trailing punctuation', () => {
    const md = ['See @docs/a.md.', '`@not/span.md`', '```', '@not/fence.md', '```', '<!-- @not/comment.md -->', '- item @./list.md', 'mail me at me@example.com', '@~/x.md'].join('\n');
    expect(findImports(md)).toEqual(['docs/a.md', './list.md', '~/x.md']);
  });

  it('load relative to the importing file, from ~/ and by absolute path, after the file that imports them', async () => {
    const p = await project();
    await p.write(path.join(p.ws, 'CLAUDE.md'), 'Root rules. See @docs/guide.md and @~/.claude/mine.md');
    await p.write(path.join(p.ws, 'docs', 'guide.md'), 'Guide: read @./deeper/style.md and @' + path.join(p.ws, 'abs.md'));
    await p.write(path.join(p.ws, 'docs', 'deeper', 'style.md'), 'Style: tabs');
    await p.write(path.join(p.ws, 'abs.md'), 'Absolute import');
    await p.write(path.join(p.claudeHome, 'mine.md'), 'My per-user notes');
    const { files } = await p.load();
    expect(files.map((f) => [path.relative(p.base, f.path), f.importedBy && path.relative(p.base, f.importedBy)])).toEqual([
      ['ws/CLAUDE.md', undefined],
      ['ws/docs/guide.md', 'ws/CLAUDE.md'],
      ['ws/docs/deeper/style.md', 'ws/docs/guide.md'],
      ['ws/abs.md', 'ws/docs/guide.md'],
      ['home/.claude/mine.md', 'ws/CLAUDE.md'],
    ]);
    expect(p.problems).toEqual([]);
  });

  it(`follow ${MAX_IMPORT_DEPTH} hops as Claude Code does; the next is left out with a word`, async () => {
    const p = await project();
    await p.write(path.join(p.ws, 'CLAUDE.md'), 'level 0 @l1.md');
    for (let i = 1; i <= 5; i++) await p.write(path.join(p.ws, `l${i}.md`), `level ${i} @l${i + 1}.md`);
    const { files } = await p.load();
    expect(files.map((f) => f.content.split(' @')[0])).toEqual(['level 0', 'level 1', 'level 2', 'level 3', 'level 4']);
    expect(p.problems).toEqual([`${path.join(p.ws, 'l4.md')} imports @l5.md: imports nest more than 4 levels deep (as in Claude Code); ${path.join(p.ws, 'l5.md')} is left out`]);
  });

  it('a cycle is reported and each file loaded once; a missing file is reported naming the importing file', async () => {
    const p = await project();
    await p.write(path.join(p.ws, 'CLAUDE.md'), 'A @b.md @missing/file.md and ask @alice');
    await p.write(path.join(p.ws, 'b.md'), 'B @CLAUDE.md');
    const { files } = await p.load();
    expect(files.map((f) => path.basename(f.path))).toEqual(['CLAUDE.md', 'b.md']);
    expect(p.problems).toEqual([
      `${path.join(p.ws, 'b.md')} imports @CLAUDE.md, which imports ${path.join(p.ws, 'b.md')} again (a cycle); each file is loaded once`,
      `${path.join(p.ws, 'CLAUDE.md')} imports @missing/file.md: ${path.join(p.ws, 'missing', 'file.md')} does not exist; the import is left out`,
    ]);
  });

  it('a project file cannot import secrets from outside the project or a file a Read deny rule covers', async () => {
    const p = await project();
    await p.write(path.join(p.home, '.ssh', 'id_rsa'), 'PRIVATE KEY');
    await p.write(path.join(p.claudeHome, '.credentials.json'), '{"token":"t"}');
    await p.write(path.join(p.ws, '.env'), 'SECRET=1');
    await p.write(path.join(p.ws, 'CLAUDE.md'), 'Hi @~/.ssh/id_rsa @~/.claude/.credentials.json @.env');
    const { files } = await p.load({ isReadDenied: (abs) => abs.endsWith('.env') });
    const text = files.map((f) => f.content).join('\n');
    expect(text).not.toContain('PRIVATE KEY');
    expect(text).not.toContain('token');
    expect(text).not.toContain('SECRET=1');
    expect(p.problems).toHaveLength(3);
    expect(p.problems[0]).toContain('is outside the project');
    expect(p.problems[2]).toContain('covered by a Read deny rule');
  });

  it("the user's own ~/.claude/CLAUDE.md may import from anywhere in their home", async () => {
    const p = await project();
    await p.write(path.join(p.home, 'notes', 'style.md'), 'user style');
    await p.write(path.join(p.claudeHome, 'CLAUDE.md'), 'User file @~/notes/style.md');
    const { files } = await p.load();
    expect(files.map((f) => f.content)).toEqual(['User file @~/notes/style.md', 'user style']);
  });
});

describe("Claude Code's instruction files", () => {
  it('reads ~/.claude/CLAUDE.md and rules, then per folder CLAUDE.md, .claude/CLAUDE.md, .claude/rules and CLAUDE.local.md', async () => {
    const p = await project();
    await p.write(path.join(p.claudeHome, 'CLAUDE.md'), 'user claude');
    await p.write(path.join(p.claudeHome, 'rules', 'u.md'), 'user rule');
    await p.write(path.join(p.ws, 'CLAUDE.md'), 'project claude');
    await p.write(path.join(p.ws, '.claude', 'CLAUDE.md'), 'dot-claude claude');
    await p.write(path.join(p.ws, '.claude', 'rules', 'b.md'), 'rule b');
    await p.write(path.join(p.ws, '.claude', 'rules', 'nested', 'a.md'), '---\ndescription: x\n---\nrule nested a');
    await p.write(path.join(p.ws, '.claude', 'rules', 'api.md'), '---\npaths:\n  - "src/api/**/*.ts"\n---\nAPI rule');
    await p.write(path.join(p.ws, 'CLAUDE.local.md'), 'local claude');
    const { files, conditional } = await p.load();
    expect(files.map((f) => f.content)).toEqual(['user claude', 'user rule', 'project claude', 'dot-claude claude', 'rule b', 'rule nested a', 'local claude']);
    expect(conditional.map((r) => [path.basename(r.path), r.match(path.join(p.ws, 'src/api/v1/x.ts')), r.match(path.join(p.ws, 'src/ui/x.ts'))])).toEqual([['api.md', true, false]]);
  });

  it(`a file over ${INSTRUCTION_SIZE_WARNING} characters is loaded with a warning naming it`, async () => {
    const p = await project();
    await p.write(path.join(p.ws, 'CLAUDE.md'), 'x'.repeat(300_000));
    const { files } = await p.load();
    expect(files).toHaveLength(1);
    expect(p.problems).toEqual([
      `Instruction file ${path.join(p.ws, 'CLAUDE.md')} is 300,000 characters (over 40,000): all of it is sent with every request. Split it into .claude/rules/ files or @imports`,
    ]);
  });
});
