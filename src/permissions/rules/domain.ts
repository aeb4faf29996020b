import type { AnyTool } from '../../tools/tool.js';
import type { RuleLists } from '../bash/command-check.js';
import type { ParsedRule } from './parse.js';
import type { PermissionCheck } from '../types.js';
import type { PermissionMode } from '../../events.js';
import { allow, ask, askBeyondContainment, BY_MODE, byRule, deny } from '../verdicts.js';

// Claude Code's `WebFetch(domain:example.com)`: one host exactly; `domain:*.example.com` its
// subdomains only (not example.com itself). A bare `WebFetch` covers every host.

function normalHost(host: string): string {
  return host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
}

/** The host a `domain:` specifier names, or undefined for any other specifier (which then matches nothing). */
function ruleDomain(rule: ParsedRule): string | undefined {
  const m = /^domain:\s*(\S+)$/i.exec(rule.specifier ?? '');
  return m?.[1] === undefined ? undefined : normalHost(m[1]);
}

export function ruleMatchesHost(rule: ParsedRule, host: string): boolean {
  if (rule.specifier === undefined) return true;
  const domain = ruleDomain(rule);
  if (domain === undefined) return false;
  const h = normalHost(host);
  if (domain.startsWith('*.')) return h.endsWith(domain.slice(1)) && h.length > domain.length - 1;
  return h === domain;
}

/**
 * Whether an allow rule names this very host (`domain:localhost`, `domain:127.0.0.1`): only then may
 * a fetch reach a loopback or private address. A bare rule or a wildcard does not name it.
 */
export function ruleNamesHost(rules: readonly ParsedRule[], toolName: string, host: string): boolean {
  return rules.some((r) => r.tool === toolName && ruleDomain(r) === normalHost(host));
}

/** The hostname of a URL the model gave, or undefined when it is not a URL. */
export function hostOf(url: string): string | undefined {
  try {
    return normalHost(new URL(url).hostname);
  } catch {
    return undefined;
  }
}

/** deny -> ask -> bypass -> allow -> ask, for a tool whose reach is the host of a URL. */
export function checkDomain(tool: AnyTool, url: string, rules: RuleLists, mode: PermissionMode): PermissionCheck {
  const host = hostOf(url);
  const covers = (r: ParsedRule): boolean => r.tool === tool.name && (host === undefined ? r.specifier === undefined : ruleMatchesHost(r, host));
  const denied = rules.deny.find(covers);
  if (denied) return deny(`denied by rule ${denied.text}`, byRule('deny', denied));
  const asked = rules.ask.find(covers);
  if (asked) return ask(`matches the ask rule ${asked.text}`, [], undefined, byRule('ask', asked));
  if (mode === 'bypassPermissions') return allow('bypassPermissions mode', BY_MODE);
  const allowed = rules.allow.find(covers);
  if (allowed) return allow(`allowed by rule ${allowed.text}`, byRule('allow', allowed));
  if (host === undefined) return ask(`needs your approval: ${tool.name} of ${url}`, []);
  // A site no rule names: auto mode's classifier may answer.
  return askBeyondContainment(`needs your approval: no rule allows ${tool.name} for ${host}`, [`${tool.name}(domain:${host})`]);
}
