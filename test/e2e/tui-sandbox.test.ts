import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../src/sandbox/availability.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// The sandbox in the built cairn, in a real terminal, on the offline model: a command runs without
// asking, a new domain is asked in the approval card, a refused write says which path.

const { start } = cairnTerminals();
let server: http.Server;
let port: number;
const hits: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    res.end('hello-from-the-host\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const usable = TmuxTerminal.available() && (await probeSandbox()).available;

describe.skipIf(!usable)('the sandbox in a real terminal', () => {
  it('runs a command without asking, asks for a new domain, and reaches it once approved', async () => {
    const { term } = await start({ args: '--sandbox' });
    term.type(`run curl -s http://127.0.0.1:${port}/first`);
    term.keys('Enter');
    await term.waitForText('Allow sandbox_network?');
    expect(term.screen()).toContain('127.0.0.1');
    expect(term.screen()).not.toContain('Allow bash?');
    expect(hits).toEqual([]);
    await term.pauseBeforeAnswering();
    term.keys('y');
    await term.waitForText('hello-from-the-host');
    expect(hits).toEqual(['/first']);

    term.type('/sandbox');
    term.keys('Enter');
    await term.waitForText('Sandbox: on');
    expect(term.screen()).toContain('approved now: 127.0.0.1');
  });

  it('says which path the sandbox refused, even after an approval; /sandbox reports off with --no-sandbox', async () => {
    const { term } = await start({ args: '--sandbox' });
    const outside = path.join('/var/tmp', `cairn-tui-sandbox-${process.pid}-${Date.now()}`);
    term.type(`run touch ${outside}`);
    term.keys('Enter');
    // A write the analysis can see outside is still asked; approving it does not take it out of the sandbox.
    await term.waitForText('Allow bash?');
    expect(term.screen()).toContain('outside the');
    await term.pauseBeforeAnswering();
    term.keys('y');
    await term.waitForText('The sandbox refused writing');
    expect(term.screen()).toContain('dangerously_disable_sandbox');
    await expect(fs.access(outside)).rejects.toThrow();

    const off = await start({ args: '--no-sandbox' });
    off.term.type('/sandbox');
    off.term.keys('Enter');
    await off.term.waitForText('Sandbox: off (sandbox.enabled is false)');
  });
});
