import { describe, expect, it } from 'vitest';
import { readGitInfo } from '../../../src/context/git-info.js';
import { HOSTILE_BRANCH, HOSTILE_KINDS, HOSTILE_STATUS, hostileRepo, pwnedBy } from '../../helpers/hostile-repos.js';

describe("the system prompt's git section runs none of the repository's programs", () => {
  it.each(HOSTILE_KINDS)('%s: branch and status are read, nothing of the repository runs', async (kind) => {
    const repo = await hostileRepo(kind);
    expect(await readGitInfo(repo.dir)).toEqual({ branch: HOSTILE_BRANCH, status: HOSTILE_STATUS });
    expect(await pwnedBy(repo)).toBeUndefined();
  });
});
