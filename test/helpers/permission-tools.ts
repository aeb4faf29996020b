import { join } from 'node:path';
import { z } from 'zod';
import type { PermissionMode } from '../../src/events.js';
import { createPermissionChecker } from '../../src/permissions/checker.js';
import type { PermissionRuleSet } from '../../src/permissions/types.js';
import { defineTool } from '../../src/tools/tool.js';

/** A bash tool as the permission chain sees it: its command, and effects on the world. It runs nothing. */
export const fakeBashTool = defineTool({
  name: 'bash',
  description: 'bash (a stand-in that runs nothing)',
  inputSchema: z.object({ command: z.string() }),
  kind: 'execute',
  effects: () => 'world' as const,
  command: (input) => input.command,
  call: async () => ({ content: '' }),
});

/** One row of a bash attack corpus: a command, the rules and mode it runs under, and the decision expected. */
export interface BashCase {
  command: string;
  rules?: Partial<PermissionRuleSet>;
  mode?: PermissionMode;
  expected: 'allow' | 'ask' | 'deny';
  /** A fragment the reason must contain. */
  reason?: RegExp;
  /** Built-in deny rules lifted by a setting. */
  lift?: string[];
}

/** The real checker's decision for a case, in `workspace` (home is its parent, cairn's home inside it). */
export function decideBash(workspace: string, c: BashCase) {
  const checker = createPermissionChecker({
    workspace,
    mode: c.mode ?? 'default',
    rules: { allow: c.rules?.allow ?? [], ask: c.rules?.ask ?? [], deny: c.rules?.deny ?? [] },
    cairnHome: join(workspace, '.cairn-home'),
    homeDir: join(workspace, '..'),
    ...(c.lift ? { liftedBuiltinDeny: c.lift } : {}),
  });
  return checker.check(fakeBashTool, { command: c.command });
}
