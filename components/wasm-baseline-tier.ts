import { setFlagsFromString } from 'node:v8';

// WebAssembly runs on V8's baseline compiler (Liftoff) only, never tiered up to TurboFan.
//
// Two wasm modules run in cairn: undici's HTTP parser (llhttp, under every fetch: the OpenAI
// provider's calls, web fetches, model lists) and tree-sitter-bash (every bash command's analysis).
// When either gets hot, V8 recompiles its big state-machine functions with TurboFan on a background
// thread, and that compile briefly takes ~20 MB of memory outside the JS heap: the peak RSS of a
// whole session came from the first model call's first 200 ms (119 MB, against 98 MB without it;
// BENCHMARKS.md). What TurboFan would buy is small: a stream's parsing is a few hundred short events
// a second, and a bash analysis is one short parse, which Liftoff's code does in half the time.
//
// Set at run time, not on the bin's #! line, so it holds however cairn is started (`npm start`,
// `node dist/bundle/main.js`, npm's Windows shim, which drops #! flags). Wasm flags are read
// when a module is compiled, so this must run before the first fetch or bash analysis.
export function keepWasmOnBaselineTier(): void {
  setFlagsFromString('--liftoff-only');
}
