import type { PermissionMode } from '../../src/events.js';
import type { PermissionCheck, PermissionChecker } from '../../src/permissions/types.js';
import type { AnyTool } from '../../src/tools/tool.js';

/** A checker whose decision is a function of the tool name: for loop tests, not for permission logic. */
export function fakePermissions(decide: (tool: AnyTool, input: unknown) => PermissionCheck = () => ({ behavior: 'allow', reason: 'test' })): PermissionChecker & {
  sessionRules: string[];
  projectRules: string[];
} {
  let mode: PermissionMode = 'default';
  const sessionRules: string[] = [];
  const projectRules: string[] = [];
  return {
    sessionRules,
    projectRules,
    get mode() {
      return mode;
    },
    setMode(m) {
      mode = m;
    },
    check: async (tool, input) => decide(tool, input),
    addSessionRules(rules) {
      sessionRules.push(...rules);
    },
    async saveProjectRules(rules) {
      projectRules.push(...rules);
    },
    readDeniedMatcher: async () => () => false,
    rules: () => ({ allow: [...sessionRules, ...projectRules], ask: [], deny: [] }),
  };
}
