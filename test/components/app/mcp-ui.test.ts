import { describe, expect, it } from 'vitest';
import { failureNotices } from '../../../components/app/mcp-ui.js';

describe('failureNotices: the warning when an MCP server fails', () => {
  it('names the server and the first line of its error, once while it keeps failing, again after it connected', () => {
    const warned = new Set<string>();
    const failed = { name: 'db', state: 'failed', error: 'the server exited; stderr:\ncannot open /nowhere\n(restarting in 1 s)' };
    expect(failureNotices([failed, { name: 'ok', state: 'connected' }], warned)).toEqual(['MCP server "db" failed: the server exited (/mcp for details)']);
    // Restarting: connecting, failed again; told once.
    expect(failureNotices([{ name: 'db', state: 'connecting' }], warned)).toEqual([]);
    expect(failureNotices([failed], warned)).toEqual([]);
    expect(failureNotices([{ name: 'db', state: 'connected' }], warned)).toEqual([]);
    expect(failureNotices([failed], warned)).toHaveLength(1);
  });

  it('says nothing for servers that are pending, disabled or connecting', () => {
    expect(failureNotices([{ name: 'a', state: 'pending', error: 'waits for approval' }, { name: 'b', state: 'disabled' }, { name: 'c', state: 'connecting' }], new Set())).toEqual([]);
  });
});
