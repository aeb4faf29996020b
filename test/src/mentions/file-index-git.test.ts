import { describe, expect, it } from 'vitest';
import { buildFileIndex } from '../../../src/mentions/file-index.js';
import { HOSTILE_KINDS, hostileFiles, hostileRepo, pwnedBy } from '../../helpers/hostile-repos.js';

describe('the @-file index runs none of the repository programs', () => {
  it.each(HOSTILE_KINDS)('%s: git lists the files, nothing of the repository runs', async (kind) => {
    const repo = await hostileRepo(kind);
    const index = await buildFileIndex(repo.dir);
    expect(index.source).toBe('git');
    expect([...index.files].sort()).toEqual(hostileFiles(kind));
    expect(await pwnedBy(repo)).toBeUndefined();
  });
});
