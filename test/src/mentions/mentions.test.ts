import { mkdir, mkdtemp, realpath, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandMentions, findMentions, withChips } from '../../../src/mentions/expand-mentions.js';
import { buildFileIndex } from '../../../src/mentions/file-index.js';
import { fuzzyMatch } from '../../../src/mentions/fuzzy-match.js';
import { SEARCH_PATHS, useSearchPath } from '../../helpers/search-paths.js';

async function workspace(): Promise<{ root: string; outside: string }> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'cairn-mentions-')));
  const root = join(base, 'ws');
  await mkdir(join(root, 'src', 'deep'), { recursive: true });
  await writeFile(join(root, 'src', 'a.ts'), 'one\ntwo\n');
  await writeFile(join(root, 'src', 'deep', 'b.md'), '# b\n');
  await writeFile(join(root, '.gitignore'), 'ignored.log\n');
  await writeFile(join(root, 'ignored.log'), 'x');
  await writeFile(join(base, 'secret.txt'), 'outside the workspace');
  await symlink(join(base, 'secret.txt'), join(root, 'link-out.txt'));
  return { root, outside: base };
}

describe.each(SEARCH_PATHS)('on the %s path', (_path, ripgrep) => {
  useSearchPath(ripgrep);

  describe('@ mentions', () => {
    it('finds mentions at word starts, not in e-mail addresses; trailing punctuation is not part of the path', () => {
      expect(findMentions('see @src/a.ts, and @docs/ then mail me@host.com. Also @src/a.ts.')).toEqual(['src/a.ts', 'docs/']);
    });

    it('attaches a file and a folder listing; chips show them; names outside the workspace are not read', async () => {
      const { root } = await workspace();
      const { text, attachments } = await expandMentions('look at @src/a.ts and @src/ and @../secret.txt and @link-out.txt and @/etc/passwd and @nope.ts', root);
      expect(attachments.map((a) => [a.path, a.kind, a.size])).toEqual([
        ['src/a.ts', 'file', 2],
        ['src/', 'dir', 2],
      ]);
      expect(text).toContain('<file path="src/a.ts">\none\ntwo\n</file>');
      expect(text).toContain('<directory path="src/">\na.ts\ndeep/\n</directory>');
      expect(text).not.toContain('outside the workspace');
      expect(text).not.toContain('root:');
      expect(withChips('look at @src/a.ts and @src/', attachments)).toBe('look at [@src/a.ts · 2 lines] and [@src/ · 2 entries]');
    });

    it("a path the user's Read deny rules cover is not attached, and the chip says so", async () => {
      const { root } = await workspace();
      const { text, attachments } = await expandMentions('see @src/a.ts and @src/deep/b.md', root, (abs) => abs.endsWith('a.ts'));
      expect(text).not.toContain('one\ntwo');
      expect(text).toContain('<file path="src/deep/b.md">');
      expect(withChips('see @src/a.ts', attachments)).toBe('see [@src/a.ts · not attached: denied by a Read rule]');
    });

    it('the index outside git walks the tree honouring .gitignore; fuzzy matching puts the file-name hit first', async () => {
      const { root } = await workspace();
      const index = await buildFileIndex(root);
      expect(index.source).toBe('walk');
      expect([...index.files].sort()).toEqual(['.gitignore', 'link-out.txt', 'src/a.ts', 'src/deep/b.md']);
      expect(index.dirs).toEqual(['src/', 'src/deep/']);
      expect(fuzzyMatch(['src/deep/b.md', 'bin/main.ts', 'docs/b-side/x.md'], 'b.m')).toEqual(['src/deep/b.md', 'docs/b-side/x.md']);
    });
  });
});
