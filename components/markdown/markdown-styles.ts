import { Chalk } from 'chalk';
import type { ChalkInstance } from 'chalk';

export type MarkdownTheme = 'dark' | 'light' | 'none';

type Style = (text: string) => string;

export type MarkdownStyles = {
  heading: Style;
  firstHeading: Style;
  strong: Style;
  em: Style;
  del: Style;
  codespan: Style;
  code: Style;
  link: Style;
  href: Style;
  blockquote: Style;
  gutter: Style;
  tableBorder: Style;
  tableHeader: Style;
  html: Style;
};

// A private Chalk at a fixed level: the theme, not stdout detection, decides colour, and
// 16 colours follow the user's terminal palette. 'none' (NO_COLOR) keeps attributes only.
const chalk: ChalkInstance = new Chalk({ level: 1 });
const plain: Style = (s) => s;

const cache = new Map<MarkdownTheme, MarkdownStyles>();

export function markdownStyles(theme: MarkdownTheme): MarkdownStyles {
  let styles = cache.get(theme);
  if (!styles) {
    styles = buildStyles(theme);
    cache.set(theme, styles);
  }
  return styles;
}

function buildStyles(theme: MarkdownTheme): MarkdownStyles {
  const base = {
    heading: chalk.bold,
    firstHeading: chalk.bold.underline,
    strong: chalk.bold,
    em: chalk.italic,
    del: chalk.strikethrough,
    code: plain,
    gutter: chalk.dim,
    tableBorder: chalk.dim,
    tableHeader: chalk.bold,
  };
  if (theme === 'none') {
    return { ...base, codespan: plain, link: plain, href: chalk.underline, blockquote: chalk.italic, html: plain };
  }
  const dark = theme === 'dark';
  return {
    ...base,
    heading: dark ? chalk.bold.cyan : chalk.bold.blue,
    firstHeading: dark ? chalk.bold.underline.cyan : chalk.bold.underline.blue,
    codespan: dark ? chalk.yellow : chalk.magenta,
    link: plain,
    href: chalk.blue.underline,
    blockquote: chalk.gray.italic,
    html: chalk.gray,
  };
}
