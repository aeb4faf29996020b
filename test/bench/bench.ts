// `npm run bench`: the engine's figures, measured in one run. Record them in BENCHMARKS.md.
import { benchLoopOverhead, benchParallelReads } from './loop-bench.js';

function row(name: string, value: string, goal: string): void {
  process.stdout.write(`${name.padEnd(58)} ${value.padStart(14)}   ${goal}\n`);
}

const overhead = await benchLoopOverhead();
row('loop overhead per tool call (1,000 calls, 1 per turn)', `${overhead.perCallMs.toFixed(3)} ms`, 'goal < 1 ms');
row('loop overhead per tool call (1,000 calls, 10 per turn)', `${overhead.perCallMsBatched.toFixed(3)} ms`, '');

const reads = await benchParallelReads();
row('slowest single slow read', `${reads.slowestSingleMs.toFixed(1)} ms`, '');
row('8 slow reads, one parallel batch', `${reads.parallelMs.toFixed(1)} ms`, `${(reads.parallelMs / reads.slowestSingleMs).toFixed(2)}x slowest, goal <= 1.3x`);
row('8 slow reads, serial', `${reads.serialMs.toFixed(1)} ms`, `${(reads.serialMs / reads.slowestSingleMs).toFixed(2)}x slowest`);

const { benchProviders } = await import('./providers-bench.js');
const providers = await benchProviders();
for (const [name, value] of Object.entries(providers)) {
  const goal = /per_s|perSecond|deltas/i.test(name) ? 'goal > 20,000/s' : '';
  row(name, value >= 100 ? value.toFixed(0) : value.toFixed(2), goal);
}

const { benchSessions } = await import('./session-bench.js');
const sessions = await benchSessions();
row('session append per message, first 1,000', `${sessions.firstAppendUs.toFixed(1)} us`, '');
row('session append per message, last 1,000 (of 10,000)', `${sessions.lastAppendUs.toFixed(1)} us`, `${(sessions.lastAppendUs / sessions.firstAppendUs).toFixed(2)}x first, goal: flat`);
row('load a 10,000-message session file', `${sessions.load10kMs.toFixed(0)} ms`, 'part of the < 300 ms resume goal');

const { benchHtmlToMarkdown } = await import('./web-bench.js');
const web = await benchHtmlToMarkdown();
row(`web_fetch: 1 MB HTML page to Markdown (${(web.bytes / 1024).toFixed(0)} KB)`, `${web.medianMs.toFixed(0)} ms`, `median of 5, ${web.chars.toLocaleString('en-US')} characters out`);

const { benchImagePrepare } = await import('./image-bench.js');
for (const image of await benchImagePrepare()) {
  row(
    `prepare a 4000x3000 screenshot PNG for ${image.api} (${(image.inputBytes / 1024).toFixed(0)} KB)`,
    `${image.medianMs.toFixed(0)} ms`,
    `median of 7, max ${image.maxMs.toFixed(0)} ms; sent ${image.width}x${image.height}, ${(image.sentBytes / 1024).toFixed(0)} KB; goal < 300 ms`,
  );
}

const { benchSandbox } = await import('./sandbox-bench.js');
const sandbox = await benchSandbox();
row('bash `true`, no sandbox (median of 100)', `${sandbox.plainMs.toFixed(1)} ms`, '');
if (sandbox.sandboxedMs !== undefined && sandbox.sandboxedNoNetworkBridgeMs !== undefined) {
  row('bash `true` in the sandbox, network via proxy (median of 100)', `${sandbox.sandboxedMs.toFixed(1)} ms`, `+${(sandbox.sandboxedMs - sandbox.plainMs).toFixed(1)} ms per command`);
  row('bash `true` in the sandbox, network.allowAll (median of 100)', `${sandbox.sandboxedNoNetworkBridgeMs.toFixed(1)} ms`, `+${(sandbox.sandboxedNoNetworkBridgeMs - sandbox.plainMs).toFixed(1)} ms per command`);
} else {
  row('bash `true` in the sandbox', 'unavailable', 'bubblewrap not installed or no user namespaces');
}

const { benchServe } = await import('./serve-bench.js');
const serve = await benchServe();
row('cairn serve: start to first byte of the page (median of 5)', `${serve.firstByteMs.toFixed(0)} ms`, '');
row('cairn serve: events/s to 1 subscriber (offline stream 20000)', serve.eventsPerSec1.toFixed(0), '');
row('cairn serve: events/s to each of 10 subscribers', serve.eventsPerSec10.toFixed(0), `${(serve.eventsPerSec10 / serve.eventsPerSec1).toFixed(2)}x one`);
row('cairn serve: memory per idle session (20 sessions)', `${(serve.bytesPerSession / 1024 / 1024).toFixed(2)} MB`, 'heap + external');

const { benchSearch, printSearch } = await import('./search-bench.js');
printSearch(await benchSearch(), (line) => process.stdout.write(`${line}\n`));

const { benchSnapshots } = await import('./snapshot-bench.js');
const snaps = await benchSnapshots();
row(`workspace snapshot, first (${snaps.files.toLocaleString('en-US')} files, at session start)`, `${snaps.firstMs.toFixed(0)} ms`, '');
row('workspace snapshot, one file changed (median of 20)', `${snaps.medianMs.toFixed(1)} ms`, `max ${snaps.maxMs.toFixed(1)} ms, goal < 150 ms`);
row('a bash command covered: before + after + changes', `${snaps.commandMs.toFixed(1)} ms`, '');
row('snapshot store after 22 snapshots', `${(snaps.storeBytes / 1024 / 1024).toFixed(1)} MB`, 'deleted when the session ends');
