import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayPath, resolveInWorkspace } from '../../../src/tools/paths.js';

describe('resolveInWorkspace', () => {
  it('resolves relative paths against the workspace and keeps absolute ones', () => {
    expect(resolveInWorkspace('/ws', 'src/a.ts')).toBe('/ws/src/a.ts');
    expect(resolveInWorkspace('/ws', '../other/b.ts')).toBe('/other/b.ts');
    expect(resolveInWorkspace('/ws', '/etc/hosts')).toBe('/etc/hosts');
    expect(resolveInWorkspace('/ws', '~/notes.md')).toBe(path.join(os.homedir(), 'notes.md'));
  });
});

describe('displayPath', () => {
  it('is relative inside the workspace and absolute outside', () => {
    expect(displayPath('/ws', '/ws/src/a.ts')).toBe('src/a.ts');
    expect(displayPath('/ws', '/ws')).toBe('.');
    expect(displayPath('/ws', '/wsx/a.ts')).toBe('/wsx/a.ts');
    expect(displayPath('/ws', '/etc/hosts')).toBe('/etc/hosts');
  });
});
