import { describe, expect, it } from 'vitest';
import { buildPolicy } from '../../../src/sandbox/policy.js';
import { seatbeltProfile } from '../../../src/sandbox/seatbelt-profile.js';

// macOS cannot be run here: the profile is checked as the text sandbox-exec would read.

const policy = buildPolicy({
  workspace: '/Users/me/project',
  tempDir: '/private/tmp/cairn-sandbox-1/tmp',
  home: '/Users/me',
  additionalDirectories: ['~/shared "docs"'],
  filesystem: { denyRead: ['~/.aws'] },
  network: { allowedDomains: ['registry.npmjs.org'] },
});

describe('the Seatbelt profile', () => {
  const text = seatbeltProfile(policy, { proxyPort: 51234 });
  const lines = text.split('\n');
  const index = (prefix: string): number => lines.findIndex((l) => l.startsWith(prefix));

  it('denies by default, reads everywhere, writes only in the writable places', () => {
    expect(lines[0]).toBe('(version 1)');
    expect(lines[1]).toBe('(deny default)');
    expect(text).toContain('(allow file-read*)');
    expect(text).toContain(
      '(allow file-write* (subpath "/Users/me/project") (subpath "/Users/me/shared \\"docs\\"") (subpath "/private/tmp/cairn-sandbox-1/tmp"))',
    );
  });

  it('keeps protected paths read-only after the writable roots (later rules win)', () => {
    const deny = lines[index('(deny file-write*')] ?? '';
    for (const p of ['/Users/me/project/.git/hooks', '/Users/me/project/.claude', '/Users/me/project/.cairn']) expect(deny).toContain(`(subpath "${p}")`);
    expect(deny).toContain('(literal "/Users/me/project/.mcp.json")');
    expect(deny).toContain('(subpath "/Users/me/project/.git/config")');
    expect(index('(deny file-write*')).toBeGreaterThan(index('(allow file-write* (subpath'));
  });

  it('hides denyRead paths, and lets the network reach only the proxy', () => {
    expect(text).toContain('(deny file-read* (subpath "/Users/me/.aws"))');
    expect(text).toContain('(allow network-outbound (remote tcp "localhost:51234"))');
    expect(text).not.toContain('(allow network*)');
    expect(seatbeltProfile({ ...policy, network: { restricted: true, allowedDomains: [] } })).not.toContain('network');
    expect(seatbeltProfile({ ...policy, network: { restricted: false, allowedDomains: [] } })).toContain('(allow network*)');
  });
});
