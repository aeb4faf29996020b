// Local types for marked-terminal 7.3: @types/marked-terminal pins an old marked major.
declare module 'marked-terminal' {
  import type { MarkedExtension } from 'marked';

  type Style = (text: string) => string;

  export interface TerminalRendererOptions {
    code?: Style;
    blockquote?: Style;
    html?: Style;
    heading?: Style;
    firstHeading?: Style;
    hr?: Style;
    listitem?: Style;
    list?: (body: string, ordered: boolean, indent: string) => string;
    table?: Style;
    paragraph?: Style;
    strong?: Style;
    em?: Style;
    codespan?: Style;
    del?: Style;
    link?: Style;
    href?: Style;
    text?: Style;
    unescape?: boolean;
    emoji?: boolean;
    width?: number;
    showSectionPrefix?: boolean;
    reflowText?: boolean;
    tab?: number | string;
    tableOptions?: Record<string, unknown>;
    image?: (href: string, title: string, text: string) => string;
  }

  export function markedTerminal(
    options?: TerminalRendererOptions,
    highlightOptions?: Record<string, unknown>,
  ): MarkedExtension;
}
