import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    setupFiles: ['test/helpers/setup-env.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Real-terminal tests spawn the built app; several at once on two cores just time out.
    maxWorkers: 2,
    // As in the bundle (package.json's `bundle`, --alias): marked-terminal gets stubs for
    // cli-highlight and node-emoji, so highlight.js has only the languages code-highlight.ts
    // registers, as in the app. Aliases reach only modules run through vite, so marked-terminal is.
    alias: [{ find: /^(cli-highlight|node-emoji)$/, replacement: fileURLToPath(new URL('components/markdown/marked-terminal-stubs.ts', import.meta.url)) }],
    server: { deps: { inline: ['marked-terminal'] } },
  },
});
