// The part of highlight.js 10 this app uses. Its own types (types/index.d.ts) reference the DOM
// lib, which would leak DOM globals into the whole program, so they are not loaded.
declare module 'highlight.js/lib/core.js' {
  /** A language's definition function, as `highlight.js/lib/languages/<name>.js` exports it. */
  export type LanguageFn = (hljs: HighlightJs) => object;

  export interface HighlightJs {
    registerLanguage(name: string, language: LanguageFn): void;
    /** By name or alias, case-insensitive. */
    getLanguage(name: string): ({ name?: string; aliases?: string[] } & Record<string, unknown>) | undefined;
    listLanguages(): string[];
    versionString: string;
    /** `value` is HTML: `<span class="hljs-keyword">` spans around escaped text. */
    highlight(code: string, options: { language: string; ignoreIllegals?: boolean }): { value: string };
  }

  const hljs: HighlightJs;
  export default hljs;
}

declare module 'highlight.js/lib/languages/*' {
  import type { LanguageFn } from 'highlight.js/lib/core.js';

  const language: LanguageFn;
  export default language;
}

/** Every language registered: tests only (the catalogue is generated from it). */
declare module 'highlight.js/lib/index.js' {
  import type { HighlightJs } from 'highlight.js/lib/core.js';

  const hljs: HighlightJs;
  export default hljs;
}
