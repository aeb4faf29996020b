import { rootCauseMessage } from '../providers/sdk-errors.js';
import { errorMessage } from '../util/error-message.js';
import type { McpServerEntry } from './mcp-config.js';

/**
 * Why a server did not start, in words the user can act on: an HTTP or SSE server names the URL
 * it tried (without its query or credentials, which may hold a token) and the cause under the
 * SDK's "fetch failed" (connect ECONNREFUSED 127.0.0.1:9, getaddrinfo ENOTFOUND ...).
 */
export function mcpStartFailure(config: McpServerEntry['config'], err: unknown): string {
  const top = errorMessage(err);
  if (!('url' in config)) return `could not start: ${top}`;
  const root = rootCauseMessage(err);
  const cause = root && root !== top ? `${top}: ${root}` : top;
  return `could not reach ${shownUrl(config.url)}: ${cause}`;
}

/** A server's URL as shown to the user: without its query or credentials, which may hold a token. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url;
  }
}
