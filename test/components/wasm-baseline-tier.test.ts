import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/run-cairn.js';

// A streamed fetch, as under every model call: undici parses the response with its wasm build of
// llhttp, which V8 would tier up to TurboFan mid-stream. The child reports how far its peak RSS
// rose over the fetch, with and without cairn's start-up setting (the built module the bin runs).
const CHILD = `
const setup = process.argv[1];
if (setup) (await import(setup)).keepWasmOnBaselineTier();
const http = await import('node:http');
const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  let n = 0;
  const timer = setInterval(() => {
    res.write('event: content_block_delta\\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"word "}}\\n\\n');
    if (++n === 600) { clearInterval(timer); res.end(); }
  }, 1);
}).listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const before = process.resourceUsage().maxRSS;
const response = await fetch('http://127.0.0.1:' + server.address().port + '/');
let bytes = 0;
for await (const chunk of response.body) bytes += chunk.length;
server.close();
process.stdout.write(JSON.stringify({ bytes, riseMb: (process.resourceUsage().maxRSS - before) / 1024 }));
`;

function peakRise(setup: string): { bytes: number; riseMb: number } {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', CHILD, setup], { encoding: 'utf8', timeout: 30_000 });
  return JSON.parse(out) as { bytes: number; riseMb: number };
}

describe('wasm stays on the baseline tier', () => {
  it('a streamed fetch no longer spikes the peak RSS by a TurboFan compile of the HTTP parser', () => {
    const built = path.join(repoRoot, 'dist/components/wasm-baseline-tier.js');
    const plain = peakRise('');
    const cairn = peakRise(built);
    expect(cairn.bytes).toBe(plain.bytes);
    expect(cairn.bytes).toBeGreaterThan(600 * 90);
    // Measured on Node 20: +41 MB without the setting, +17 MB with it (the rest is undici loading).
    expect(cairn.riseMb, `peak RSS rose ${cairn.riseMb.toFixed(1)} MB with the setting, ${plain.riseMb.toFixed(1)} MB without`).toBeLessThan(plain.riseMb - 10);
  });
});
