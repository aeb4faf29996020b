import type { SyntaxNode } from './parser.js';

/** The nodes of the types the checks look at, gathered in one pass, and how deep the tree goes. */
export interface NodeIndex {
  of(...types: string[]): SyntaxNode[];
  maxDepth: number;
}

// The node types arith.ts, verify.ts and analysis.ts look up.
const INDEXED = new Set([
  'ansi_c_string', 'heredoc_redirect', 'command_substitution', 'variable_assignment', 'for_statement', 'command', 'declaration_command',
  'unset_command', 'test_command', 'expansion', 'arithmetic_expansion', 'c_style_for_statement', 'compound_statement', 'subscript',
  'binary_expression', 'raw_string', 'comment', 'array',
]);

/**
 * One iterative pass with a tree cursor instead of a descendantsOfType call per check: hostile commands
 * can have a hundred thousand nodes, and a recursive walk of a deep tree would overflow the stack.
 */
export function indexNodes(root: SyntaxNode): NodeIndex {
  const byType = new Map<string, SyntaxNode[]>();
  const cursor = root.walk();
  let depth = 0;
  let maxDepth = 0;
  try {
    for (;;) {
      const type = cursor.nodeType;
      if (INDEXED.has(type)) {
        const list = byType.get(type) ?? [];
        list.push(cursor.currentNode);
        byType.set(type, list);
      }
      if (cursor.gotoFirstChild()) {
        depth += 1;
        if (depth > maxDepth) maxDepth = depth;
        continue;
      }
      let done = false;
      while (!cursor.gotoNextSibling()) {
        if (depth === 0 || !cursor.gotoParent()) {
          done = true;
          break;
        }
        depth -= 1;
      }
      if (done || depth === 0) break;
    }
  } finally {
    cursor.delete();
  }
  return { of: (...types) => types.flatMap((t) => byType.get(t) ?? []), maxDepth };
}
