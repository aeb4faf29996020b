// MCP server configurations in Claude Code's format, from every place a user may have written them:
// $CAIRN_HOME/mcp.json, `mcpServers` in the settings files, the project's .mcp.json and
// --mcp-config. A later source replaces an earlier server of the same name whole (no field merge).
import fs from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import type { SettingsLayer } from '../settings/settings-layers.js';
import { readSettingsJson } from '../settings/settings-layers.js';
import { errorMessage } from '../util/error-message.js';
import { discoveredLayers, isBare } from '../settings/bare-mode.js';
import { expandMap, expandVars } from './mcp-expand.js';

export type McpTransportConfig =
  | { transport: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { transport: 'http' | 'sse'; url: string; headers: Record<string, string> };

/**
 * user: written by the user outside the project; project: from a file inside the workspace, which a
 * cloned repository controls, so it starts only when approved; flag: named on the command line.
 */
export type McpScope = 'user' | 'project' | 'flag';

export interface McpServerEntry {
  name: string;
  scope: McpScope;
  /** The file (and key) it came from, for messages and /mcp. */
  source: string;
  config: McpTransportConfig;
}

export interface McpConfig {
  servers: McpServerEntry[];
  /** Each names the file and server at fault; the rest of the configuration still applies. */
  problems: string[];
}

const StringMap = z.record(z.string(), z.string());
const StdioSchema = z.object({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: StringMap.optional(),
  cwd: z.string().optional(),
});
const RemoteSchema = z.object({
  type: z.enum(['http', 'streamable-http', 'sse']),
  url: z.string().min(1),
  headers: StringMap.optional(),
});
const SERVER_NAME = /^[A-Za-z0-9_-]+$/;

export interface McpConfigLocations {
  workspace: string;
  cairnHome: string;
  layers: readonly SettingsLayer[];
  /** --mcp-config values: a file path or a JSON object. */
  flagConfigs?: readonly string[];
  env: NodeJS.ProcessEnv;
}

/** Every configured server, in precedence order resolved: one entry per name. */
export async function loadMcpConfig(at: McpConfigLocations): Promise<McpConfig> {
  const problems: string[] = [];
  const byName = new Map<string, McpServerEntry>();
  const take = (servers: unknown, scope: McpScope, source: string): void => {
    for (const entry of parseServers(servers, scope, source, at.env, problems)) {
      byName.delete(entry.name);
      byName.set(entry.name, entry);
    }
  };
  const file = async (name: string, scope: McpScope): Promise<void> => {
    try {
      const json = await readSettingsJson(name);
      // A file the user named on the command line must be there; the usual places may be empty.
      if (json === undefined && scope === 'flag') problems.push(`--mcp-config: ${name}: no such file; its MCP servers were not started`);
      if (json === undefined) return;
      if (!isObject(json)) problems.push(`${name}: expected a JSON object with "mcpServers"`);
      else take(json['mcpServers'], scope, name);
    } catch (err) {
      problems.push(`${errorMessage(err)}; its MCP servers were not started`);
    }
  };

  // A file named on the command line (often the project's own .mcp.json) is read once, as the flag's:
  // read again from its usual place, each of its problems would be told twice.
  const flagged = new Set<string>();
  const flagFiles = new Set(await Promise.all((at.flagConfigs ?? []).filter((v) => !isJsonText(v)).map((v) => fileIdentity(path.resolve(at.workspace, v)))));
  const usual = async (name: string, scope: McpScope): Promise<void> => {
    if (!flagFiles.has(await fileIdentity(name))) await file(name, scope);
  };

  // --bare: only --mcp-config and --settings name servers; mcp.json and .mcp.json are not read.
  const bare = isBare(at.layers);
  const layers = discoveredLayers(at.layers);
  if (!bare) await usual(path.join(at.cairnHome, 'mcp.json'), 'user');
  for (const layer of layers.filter((l) => l.scope === 'user')) take(layer.data['mcpServers'], 'user', layer.file);
  if (!bare) await usual(path.join(at.workspace, '.mcp.json'), 'project');
  for (const layer of layers.filter((l) => l.scope !== 'user')) take(layer.data['mcpServers'], 'project', layer.file);
  for (const value of at.flagConfigs ?? []) {
    if (!isJsonText(value)) {
      const name = path.resolve(at.workspace, value);
      const identity = await fileIdentity(name);
      if (flagged.has(identity)) continue;
      flagged.add(identity);
      await file(name, 'flag');
    } else {
      try {
        const json: unknown = JSON.parse(value);
        take(isObject(json) ? json['mcpServers'] : undefined, 'flag', '--mcp-config');
      } catch (err) {
        problems.push(`--mcp-config: invalid JSON: ${errorMessage(err)}`);
      }
    }
  }
  return { servers: [...byName.values()], problems };
}

/** The `mcpServers` object of one file into entries; each bad server is a problem naming the file and server. */
export function parseServers(value: unknown, scope: McpScope, source: string, env: NodeJS.ProcessEnv, problems: string[]): McpServerEntry[] {
  if (value === undefined) return [];
  if (!isObject(value)) {
    problems.push(`${source}: "mcpServers" must be an object of server name to configuration`);
    return [];
  }
  const out: McpServerEntry[] = [];
  for (const [name, raw] of Object.entries(value)) {
    const where = `${source}: MCP server "${name}"`;
    if (!SERVER_NAME.test(name)) {
      problems.push(`${where}: a server name has only letters, digits, "_" and "-"; not started`);
      continue;
    }
    // "a__b" would put its tools under a rule written for server "a" (mcp__a covers mcp__a__*).
    if (name.includes('__')) {
      problems.push(`${where}: a server name may not contain "__" (its tools would fall under the rules of server "${name.split('__')[0]}"); not started`);
      continue;
    }
    const missing = new Set<string>();
    const expand = (s: string): string => expandVars(s, env, (v) => missing.add(v));
    const config = parseTransport(raw, where, problems, expand, env, missing);
    if (!config) continue;
    if (missing.size > 0) problems.push(`${where}: ${[...missing].map((v) => `\${${v}}`).join(', ')} not set; left as written`);
    out.push({ name, scope, source, config });
  }
  return out;
}

function parseTransport(
  raw: unknown,
  where: string,
  problems: string[],
  expand: (s: string) => string,
  env: NodeJS.ProcessEnv,
  missing: Set<string>,
): McpTransportConfig | undefined {
  if (!isObject(raw)) {
    problems.push(`${where}: expected an object with "command" or "type" and "url"; not started`);
    return undefined;
  }
  const type = raw['type'];
  if (type === undefined && raw['url'] !== undefined) {
    problems.push(`${where}: "url" needs "type": "http" or "sse"; not started`);
    return undefined;
  }
  if (type !== undefined && type !== 'stdio' && type !== 'http' && type !== 'streamable-http' && type !== 'sse') {
    problems.push(`${where}: "type" ${JSON.stringify(type)} is not supported (stdio, http, sse); not started`);
    return undefined;
  }
  const onMissing = (name: string): void => {
    missing.add(name);
  };
  if (type === undefined || type === 'stdio') {
    const parsed = StdioSchema.safeParse(raw);
    if (!parsed.success) {
      problems.push(`${where}: ${describe(parsed.error)}; not started`);
      return undefined;
    }
    const c = parsed.data;
    return {
      transport: 'stdio',
      command: expand(c.command),
      args: (c.args ?? []).map(expand),
      env: expandMap(c.env ?? {}, env, onMissing),
      ...(c.cwd !== undefined ? { cwd: expand(c.cwd) } : {}),
    };
  }
  const parsed = RemoteSchema.safeParse(raw);
  if (!parsed.success) {
    problems.push(`${where}: ${describe(parsed.error)}; not started`);
    return undefined;
  }
  const url = expand(parsed.data.url);
  if (!URL.canParse(url)) {
    problems.push(`${where}: "url" ${JSON.stringify(url)} is not a URL; not started`);
    return undefined;
  }
  return {
    transport: parsed.data.type === 'sse' ? 'sse' : 'http',
    url,
    headers: expandMap(parsed.data.headers ?? {}, env, onMissing),
  };
}

function describe(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length > 0 ? `"${i.path.join('.')}"` : 'value'}: ${i.message}`).join('; ');
}

function isJsonText(value: string): boolean {
  return value.trim().startsWith('{');
}

/** The same file however it is spelled (relative, through a symlink); its path when it does not exist. */
async function fileIdentity(name: string): Promise<string> {
  try {
    const st = await fs.stat(name);
    return `${st.dev}:${st.ino}`;
  } catch {
    return path.resolve(name);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
