import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dirsOf } from '../../../src/mentions/file-index.js';

// What `@dir/` completion offers: every folder holding a file, and each folder's parents, once, sorted.
function everyPrefix(files: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const f of files) for (let i = f.indexOf('/'); i !== -1; i = f.indexOf('/', i + 1)) dirs.add(f.slice(0, i + 1));
  return [...dirs].sort();
}

const segment = fc.constantFrom('a', 'b', 'src', 'lib', 'x.ts', 'a.b', 'é');
const relPath = fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('/'));

describe('the @ index folders', () => {
  it('lists each folder that holds a file, with its parents', () => {
    expect(dirsOf(['src/app/main.ts', 'src/app/view.ts', 'README.md', 'docs/guide/a.md'])).toEqual(['docs/', 'docs/guide/', 'src/', 'src/app/']);
  });

  it('gives the same folders as taking every prefix of every path, in any file order', () => {
    fc.assert(
      fc.property(fc.array(relPath, { maxLength: 60 }), (files) => {
        expect(dirsOf(files)).toEqual(everyPrefix(files));
        expect(dirsOf([...files].sort())).toEqual(everyPrefix(files));
      }),
    );
  });
});
