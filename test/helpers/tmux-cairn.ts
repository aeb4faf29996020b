import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { anthropicStream, startAnthropicServer, type AnthropicRequestBody, type ScriptedResponse, type ScriptedServer } from './anthropic-server.js';
import { cairnBin, tempWorkspace } from './run-cairn.js';
import { TmuxTerminal } from './tmux.js';

export interface CairnTerminalOptions {
  /** Command-line arguments, as typed at the shell. */
  args?: string;
  env?: Record<string, string>;
  files?: Record<string, string>;
  /** Files in CAIRN_HOME (keybindings.json, settings.json...). */
  homeFiles?: Record<string, string>;
  columns?: number;
  rows?: number;
  /** Typed before `node cairn` on the same shell line (`echo before-cairn;`). */
  before?: string;
  /** Runs in the workspace before cairn starts (`git init`, say). */
  prepare?: (ws: { dir: string; home: string }) => void | Promise<void>;
}

/**
 * The built cairn in a real terminal (tmux), in a fresh workspace and CAIRN_HOME, once its prompt
 * box is drawn. Terminals and loopback servers a test file starts are closed after each test.
 */
export function cairnTerminals() {
  const terminals: TmuxTerminal[] = [];
  const servers: ScriptedServer<AnthropicRequestBody>[] = [];
  afterEach(async () => {
    for (const t of terminals.splice(0)) t.kill();
    for (const s of servers.splice(0)) await s.close();
  });

  async function start(opts: CairnTerminalOptions = {}) {
    const ws = await tempWorkspace(opts.files ?? {});
    for (const [name, text] of Object.entries(opts.homeFiles ?? {})) await writeFile(join(ws.home, name), text);
    await opts.prepare?.(ws);
    const term = TmuxTerminal.start({
      cwd: ws.dir,
      env: { CAIRN_HOME: ws.home, ...opts.env },
      ...(opts.columns !== undefined ? { columns: opts.columns } : {}),
      ...(opts.rows !== undefined ? { rows: opts.rows } : {}),
    });
    terminals.push(term);
    await term.waitForText('shell$');
    term.type(`${opts.before ?? ''}node ${cairnBin} ${opts.args ?? ''}`);
    term.keys('Enter');
    await term.waitForText('Ask cairn');
    return { term, ws };
  }

  /** cairn on the Anthropic provider, talking to a protocol-exact loopback server that runs `script`. */
  async function startAnthropic(script: (body: AnthropicRequestBody, index: number) => ScriptedResponse, opts: CairnTerminalOptions = {}) {
    const server = await startAnthropicServer((request, index) => script(request.body, index));
    servers.push(server);
    const started = await start({ ...opts, args: `--provider anthropic ${opts.args ?? ''}`, env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: server.url, ...opts.env } });
    return { ...started, server };
  }

  return { start, startAnthropic };
}

/** A reply that streams `text` and then stays open without finishing, like a model still writing. */
export function heldReply(text: string, usage: { input_tokens: number } = { input_tokens: 10 }): ScriptedResponse {
  const chunks = anthropicStream({ content: [{ type: 'text', text }], usage });
  // Everything up to the text's content_block_stop; no message_delta or message_stop.
  return { chunks: chunks.slice(0, chunks.length - 3), hold: true };
}
