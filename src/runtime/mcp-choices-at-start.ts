// The question about a trusted project's new MCP servers, settled at start with the trust question
// (before the TUI's first frame): each server of the project's own files that the user has not
// answered about is asked about once; the answers are remembered per project. Headless, nothing
// is asked: such servers wait and setUpMcp's notices name them and how to approve them.
import { serversToAsk } from '../mcp/mcp-approval.js';
import { loadMcpConfig, type McpServerEntry } from '../mcp/mcp-config.js';
import { shownUrl } from '../mcp/mcp-start-failure.js';
import { readMcpChoices, rememberMcpChoices, type McpProjectChoices } from '../mcp/mcp-project-choices.js';
import { readSettingsLayers, type SettingsLayer } from '../settings/settings-layers.js';
import { errorMessage } from '../util/error-message.js';

export interface McpServerQuestion {
  folder: string;
  /** The server asked about: its name, the file it is in, what it runs or reaches. */
  server: { name: string; source: string; what: string };
  /** Its place among the servers asked about now (1-based), and how many they are. */
  index: number;
  count: number;
}

/** approve: this one; approve-all: this one and the rest asked about now; decline: remembered; later: ask next time. */
export type McpServerAnswer = 'approve' | 'approve-all' | 'decline' | 'later';

export type AskMcpServer = (question: McpServerQuestion) => Promise<McpServerAnswer>;

/**
 * The user's answers about this project's servers, asking about new ones when someone can answer
 * (`ask`) and the folder is trusted (an untrusted folder's servers wait for trust first). Problems
 * (a store that cannot be read or written) go to `notices`; those of the MCP configuration itself
 * are told once, by setUpMcp, which reads it again.
 */
export async function settleMcpChoices(opts: {
  cwd: string;
  cairnHome: string;
  claudeHome: string;
  env: NodeJS.ProcessEnv;
  trusted: boolean;
  flagConfigs?: readonly string[];
  ask?: AskMcpServer;
  notices: string[];
}): Promise<McpProjectChoices> {
  const remembered = await readMcpChoices({ cairnHome: opts.cairnHome, workspace: opts.cwd });
  opts.notices.push(...remembered.problems);
  const choices: McpProjectChoices = { approved: remembered.approved, declined: remembered.declined };
  if (!opts.ask || !opts.trusted) return choices;
  let layers: SettingsLayer[];
  try {
    layers = (await readSettingsLayers({ workspace: opts.cwd, cairnHome: opts.cairnHome, claudeHome: opts.claudeHome })).layers;
  } catch {
    return choices; // the settings loader reads the same files next and reports the problem, naming the file
  }
  const config = await loadMcpConfig({ workspace: opts.cwd, cairnHome: opts.cairnHome, layers, env: opts.env, ...(opts.flagConfigs ? { flagConfigs: opts.flagConfigs } : {}) });
  const asked = serversToAsk(config.servers, { layers, trusted: true, choices });
  if (asked.length === 0) return choices;

  const approved: string[] = [];
  const declined: string[] = [];
  for (const [i, server] of asked.entries()) {
    const answer = await opts.ask({ folder: opts.cwd, server: { name: server.name, source: server.source, what: describeServer(server) }, index: i + 1, count: asked.length });
    if (answer === 'approve') approved.push(server.name);
    if (answer === 'decline') declined.push(server.name);
    if (answer === 'approve-all') {
      approved.push(...asked.slice(i).map((s) => s.name));
      break;
    }
  }
  if (approved.length > 0 || declined.length > 0) {
    try {
      await rememberMcpChoices({ cairnHome: opts.cairnHome, workspace: opts.cwd }, { approved, declined });
    } catch (err) {
      opts.notices.push(`MCP server answers apply to this session only, not remembered: ${errorMessage(err)}`);
    }
  }
  return { approved: [...choices.approved, ...approved], declined: [...choices.declined.filter((n) => !approved.includes(n)), ...declined] };
}

/** What a server runs or reaches, for the question. */
function describeServer(server: McpServerEntry): string {
  const c = server.config;
  return c.transport === 'stdio' ? `runs: ${[c.command, ...c.args].join(' ')}` : `connects to (${c.transport}): ${shownUrl(c.url)}`;
}
