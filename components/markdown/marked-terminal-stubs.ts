// Stands in for two packages marked-terminal imports but this app never lets it use (the bundle's
// esbuild --alias flags in package.json and vitest.config.ts's alias point them here):
// - cli-highlight, which imports all of highlight.js (~190 languages, ~40 ms to load). marked-
//   terminal calls it only from its code renderer; markdown-engine.ts draws code blocks itself
//   (code-highlight.ts, with highlight.js's common languages and the others on demand).
// - node-emoji, with its emoji table (~10 ms to load). marked-terminal reads it only with
//   `emoji: true`; markdown-engine.ts passes false.

/** cli-highlight's `highlight`: the code as it is (not reached, see above). */
export function highlight(code: string): string {
  return code;
}

/** node-emoji's `get`: no emoji by that name (not reached, see above). */
export function get(_name: string): string | undefined {
  return undefined;
}
