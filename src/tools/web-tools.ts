import { claudeHomeFrom } from '../settings/settings-layers.js';
import { ruleNamesHost } from '../permissions/rules/domain.js';
import { parseRule } from '../permissions/rules/parse.js';
import type { ParsedRule } from '../permissions/rules/parse.js';
import type { PermissionChecker } from '../permissions/types.js';
import { loadSearchConfig } from '../web/search/search-config.js';
import type { AnyTool } from './tool.js';
import { createWebFetchTool } from './web-fetch.js';
import { createWebSearchTool } from './web-search.js';

export interface WebToolsDeps {
  cwd: string;
  cairnHome: string;
  env: NodeJS.ProcessEnv;
  /** The session's rules: web_fetch reaches a loopback or private address only for a host an allow rule names. */
  permissions: Pick<PermissionChecker, 'rules'>;
}

function parsedAllowRules(permissions: Pick<PermissionChecker, 'rules'>): ParsedRule[] {
  return permissions.rules().allow.flatMap((text) => {
    try {
      return [parseRule(text)];
    } catch {
      return []; // the loader already reported it; an unparseable rule names no host
    }
  });
}

/** web_search and web_fetch, wired to the settings and the rules in force. */
export function createWebTools(deps: WebToolsDeps): AnyTool[] {
  const at = { workspace: deps.cwd, cairnHome: deps.cairnHome, claudeHome: claudeHomeFrom(deps.env) };
  return [
    createWebSearchTool({ config: () => loadSearchConfig(at, deps.env) }),
    createWebFetchTool({ allowPrivate: (host) => ruleNamesHost(parsedAllowRules(deps.permissions), 'web_fetch', host) }),
  ];
}
