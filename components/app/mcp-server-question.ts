// The question about a new MCP server from the project's own files, asked on the terminal at start
// (after the trust question, before the full-screen app), once per server: approve it, approve it
// and the rest asked about now, or decline it; the answer is remembered for the project. Enter
// alone decides nothing: the server waits and is asked about next time. Keys are read as the trust
// question reads them (a line typed after the answer guard), so type-ahead approves nothing.
import type { AskMcpServer, McpServerAnswer, McpServerQuestion } from '../../src/runtime/mcp-choices-at-start.js';
import { stripTerminalControls } from '../../src/util/terminal-text.js';
import { askLineOnTerminal, type TrustTerminal } from './trust-question.js';

export const MCP_SERVER_PROMPT = 'Start it? [y] yes, [a] yes to all new servers, [n] no (remembered), Enter: not now ';

export function mcpServerQuestionText(q: McpServerQuestion): string {
  // Names, paths and commands come from disk: shown, never obeyed.
  const clean = (s: string): string => stripTerminalControls(s);
  return [
    '',
    `New MCP server in ${clean(q.folder)}${q.count > 1 ? ` (${q.index} of ${q.count})` : ''}: "${clean(q.server.name)}"`,
    `  from ${clean(q.server.source)}`,
    `  ${clean(q.server.what)}`,
    '',
    'A project server is a program the repository (or anyone who edited it) chose; it runs with your',
    'permissions once started. Its tools still ask before each call unless a rule allows them.',
    '',
    '',
  ].join('\n');
}

/** The answer a typed line means; anything else is "not now". */
export function mcpServerAnswer(line: string | undefined): McpServerAnswer {
  const word = (line ?? '').trim().toLowerCase();
  if (word === 'y' || word === 'yes') return 'approve';
  if (word === 'a' || word === 'all') return 'approve-all';
  if (word === 'n' || word === 'no') return 'decline';
  return 'later';
}

export function askMcpServerOnTerminal(io: TrustTerminal = { input: process.stdin, output: process.stdout }): AskMcpServer {
  return async (question) => mcpServerAnswer(await askLineOnTerminal(io, mcpServerQuestionText(question), MCP_SERVER_PROMPT));
}
