import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';
import type { Node, Tree } from 'web-tree-sitter';

export type { Node as SyntaxNode };

// The wasm runtime and grammar load once, on first use: most sessions never run bash.
let parserPromise: Promise<Parser> | undefined;

async function createParser(): Promise<Parser> {
  await Parser.init();
  const wasmPath = createRequire(import.meta.url).resolve('tree-sitter-bash/tree-sitter-bash.wasm');
  const language = await Language.load(wasmPath);
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}

function getParser(): Promise<Parser> {
  if (!parserPromise) {
    parserPromise = createParser().catch((err: unknown) => {
      // Let a later call retry instead of caching the failure forever.
      parserPromise = undefined;
      throw err;
    });
  }
  return parserPromise;
}

/** Parses a shell script with tree-sitter-bash. The caller must call tree.delete() when done. */
export async function parseBash(script: string): Promise<Tree> {
  const parser = await getParser();
  const tree = parser.parse(script);
  if (!tree) throw new Error('tree-sitter returned no tree for a bash command');
  return tree;
}
