import { join } from 'node:path';
import { expect } from 'vitest';
import { z } from 'zod';
import type { PermissionMode } from '../../src/events.js';
import { createPermissionChecker } from '../../src/permissions/checker.js';
import type { PermissionChecker, PermissionRuleSet } from '../../src/permissions/types.js';
import { defineTool } from '../../src/tools/tool.js';

/** A real checker for a workspace, with `home` for `~` and cairn's home where the caller puts it, in `mode` with `rules`. */
export function testChecker(places: { workspace: string; home: string; cairnHome: string }, mode: PermissionMode, rules: Partial<PermissionRuleSet> = {}): PermissionChecker {
  return createPermissionChecker({
    workspace: places.workspace,
    mode,
    rules: { allow: rules.allow ?? [], ask: rules.ask ?? [], deny: rules.deny ?? [] },
    cairnHome: places.cairnHome,
    homeDir: places.home,
  });
}

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

// Asks only the user may answer: cairn cannot read the command, a protected path, an ask rule, a write
// to a path computed at run time (it could be a protected one). A read computed at run time is the classifier's: it sees the command.
const USER_ONLY = /pars|cannot tell|protected|writes to \S+, which cannot be resolved|control characters|elsewhere|ask rule|could not analyze|runs nothing a rule can match|hard link/;

/**
 * Auto mode with a classifier that approves everything must still hold a corpus case: what default
 * mode denies stays denied, what only the user may answer stays the user's (never the classifier's),
 * and what default mode allows stays allowed. Cases of other modes are default mode's only.
 */
export async function expectAutoModeHolds(workspace: string, c: BashCase): Promise<void> {
  if (c.mode !== undefined && c.mode !== 'default') return;
  const before = await decideBash(workspace, { ...c, mode: 'default' });
  const auto = await decideBash(workspace, { ...c, mode: 'auto' });
  const withYes = auto.behavior === 'ask' && auto.classifiable === true ? 'allow' : auto.behavior;
  if (before.behavior === 'deny') expect(withYes, auto.reason).toBe('deny');
  if (before.behavior === 'allow') expect(withYes, auto.reason).toBe('allow');
  if (before.behavior === 'ask' && USER_ONLY.test(before.reason)) expect(withYes, `${before.reason} -> ${auto.reason}`).toBe('ask');
}
