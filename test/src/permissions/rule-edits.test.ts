// /permissions add and remove: the file the rule came from is edited in place, its other content and
// formatting kept, and the rule in force changes at once.
import { mkdir, mkdtemp, readFile, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import { permissionSettingsFrom } from '../../../src/permissions/rules/settings.js';
import { fakeBashTool } from '../../helpers/permission-tools.js';

const PROJECT = `{
    // not JSON5: kept as text below
    "permissions": {
        "deny": [ "Bash(rm:*)",   "Bash(curl:*)" ],
        "allow": [
            "Bash(npm test:*)"
        ]
    },
    "other":   {"kept": true}
}
`.replace('    // not JSON5: kept as text below\n', '');

describe('/permissions add and remove', () => {
  it('remove takes the rule out of the file it came from, byte for byte otherwise, and it stops applying', async () => {
    const ws = await realpath(await mkdtemp(join(tmpdir(), 'cairn-rule-edit-')));
    await mkdir(join(ws, '.cairn'));
    const file = join(ws, '.cairn', 'settings.json');
    await writeFile(file, PROJECT);
    const loaded = permissionSettingsFrom([{ file, scope: 'project', family: 'cairn', data: JSON.parse(PROJECT) as Record<string, unknown>, text: PROJECT }], { workspace: ws, cairnHome: join(ws, 'home'), claudeHome: join(ws, 'claude') });
    const checker = createPermissionChecker({ workspace: ws, mode: 'default', rules: loaded.rules, origins: loaded.origins, cairnHome: join(ws, 'home'), homeDir: ws });
    expect((await checker.check(fakeBashTool, { command: 'curl x' })).behavior).toBe('deny');
    const result = await checker.removeRule?.('deny', 'Bash(curl:*)');
    expect(result?.removedFrom).toEqual([file]);
    expect(await readFile(file, 'utf8')).toBe(PROJECT.replace(',   "Bash(curl:*)"', ''));
    expect((await checker.check(fakeBashTool, { command: 'curl x' })).behavior).toBe('ask');
    expect((await checker.check(fakeBashTool, { command: 'rm x' })).behavior).toBe('deny');
  });

  it('add writes the chosen file after the list\'s last rule with its indentation, and applies now', async () => {
    const ws = await realpath(await mkdtemp(join(tmpdir(), 'cairn-rule-edit-')));
    await mkdir(join(ws, '.cairn'));
    const file = join(ws, '.cairn', 'settings.json');
    await writeFile(file, PROJECT);
    const checker = createPermissionChecker({ workspace: ws, mode: 'default', rules: { allow: [], ask: [], deny: [] }, cairnHome: join(ws, 'home'), homeDir: ws });
    const done = await checker.addRule?.('allow', 'Bash(make build)', 'project');
    expect(done).toEqual({ added: true, file });
    expect(await readFile(file, 'utf8')).toBe(PROJECT.replace('"Bash(npm test:*)"\n', '"Bash(npm test:*)",\n            "Bash(make build)"\n'));
    expect((await checker.check(fakeBashTool, { command: 'make build' })).behavior).toBe('allow');
    expect(checker.ruleSource?.('allow', 'Bash(make build)')).toMatchObject({ file, line: 6 });
    // A local file that does not exist yet is made.
    await checker.addRule?.('deny', 'Bash(git push:*)', 'local');
    expect(JSON.parse(await readFile(join(ws, '.cairn', 'settings.local.json'), 'utf8'))).toEqual({ permissions: { deny: ['Bash(git push:*)'] } });
  });
});
