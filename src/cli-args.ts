import { parseArgs } from 'node:util';
import { isPermissionMode, PERMISSION_MODES, type PermissionMode } from './permission-modes.js';
import type { OutputFormat } from './headless.js';
import { errorMessage } from './util/error-message.js';
import { itemAt } from './util/invariant.js';
import { FlagError, sessionFlagsFrom, UNSUPPORTED_FLAGS, type SessionFlags } from './cli-session-flags.js';

export interface CliArgs {
  prompt?: string;
  print: boolean;
  outputFormat: OutputFormat;
  /** `stream-json`: user messages as JSON lines on stdin, one turn each (needs --output-format stream-json). */
  inputFormat: 'text' | 'stream-json';
  maxTurns?: number;
  permissionMode?: PermissionMode;
  allowedTools: string[];
  disallowedTools: string[];
  provider?: string;
  model?: string;
  listProviders: boolean;
  replay?: string;
  replaySpeed?: number;
  version: boolean;
  help: boolean;
  continueLatest: boolean;
  showSystem: boolean;
  /** --sandbox (true) / --no-sandbox (false); absent: the settings decide. */
  sandbox?: boolean;
  /** An id, or '' for "let me pick". */
  resume?: string;
  /** -w / --worktree [NAME]: start in a new git worktree (empty: a generated name). */
  worktree?: string;
  /** --mcp-config values: JSON files or JSON strings with "mcpServers" (empty when not given). */
  mcpConfig: string[];
  /** Claude Code's session flags (system prompt, budget, schema, tools, settings...). */
  session: SessionFlags;
}

export class UsageError extends Error {}

export const HELP = `cairn: an AI coding agent for the terminal

Usage:
  cairn [prompt]                 open the full-screen app (and submit the prompt)
  cairn -p "task"                run headless, print the answer (stdin piped in becomes the prompt)
  cairn serve                    the same sessions in a browser page (cairn serve --help)

Headless (-p) and its output:
  -p, --print                    headless mode
  --output-format FORMAT         text (default) | json | stream-json (every event as a JSON line);
                                 json and stream-json carry Claude Code's init and result lines
  --input-format FORMAT          text (default) | stream-json: user messages as JSON lines on stdin,
                                 one turn each (with --output-format stream-json)
  --verbose                      accepted for Claude Code's scripts: stream-json is always complete
  --include-partial-messages     stream-json also carries Claude Code's stream_event lines (raw deltas)
  --json-schema SCHEMA           the final answer must be JSON matching SCHEMA: it is the result's
                                 structured_output (one retry on a mismatch, then an error result)
  --max-turns N                  stop after N model turns (default 50)
  --max-budget-usd N             spending cap: stop before the model call that would pass N dollars

System prompt:
  --system-prompt TEXT           replace the fixed part of the system prompt (also --system-prompt-file F)
  --append-system-prompt TEXT    add TEXT at its end (also --append-system-prompt-file F)
  --show-system                  print the assembled system prompt and exit

Permissions and tools:
  --permission-mode MODE         default | acceptEdits | plan | auto | bypassPermissions | dontAsk
  --dangerously-skip-permissions the same as --permission-mode bypassPermissions
  --allowed-tools RULES...       allow rules, as several arguments or one list separated by spaces
                                 or commas: "Bash(git status:*)" Read, or "Read,Edit" (also --allowedTools)
  --disallowed-tools RULES...    deny rules, same forms (also --disallowedTools)
  --tools NAMES...               only these built-in tools ("Read,Bash,Edit"; "" none; "default" all)
  --add-dir DIRS...              more folders the session may read and write (additionalDirectories)
  --plugin-dir DIR               load a plugin from a folder for this session (repeatable)
  --sandbox, --no-sandbox        run bash commands in the bubblewrap sandbox, or not (overrides sandbox.enabled)

Settings, agents and MCP:
  --settings FILE|JSON           one more settings layer, the most specific (trusted as your own)
  --bare                         discover nothing: no hooks, MCP servers, plugins, skills, agents,
                                 CLAUDE.md/AGENTS.md or memory from your folders; only what flags pass
  --agents JSON                  subagent definitions for this session ({"name": {"description", "prompt", "tools"}})
  --mcp-config CONFIGS...        MCP servers from JSON files or strings ({"mcpServers": {...}}), as
                                 several arguments, started without asking (also --mcpConfig)

Model:
  --provider NAME                anthropic | openai | deepseek | openrouter | ollama | vllm | offline | your own
  --model NAME                   model id for the provider
  --fallback-model NAME          the model to switch to once retries on an overloaded or failing server run out
  --effort LEVEL                 low | medium | high | xhigh | max: thinking budget or reasoning effort
  --list-providers               show the providers found and which one is used

Sessions:
  -c, --continue                 resume the newest session of this workspace
  --resume [ID]                  resume a session by its id, its /save name or an id prefix (none: pick one)
  --fork-session                 with -c or --resume: continue under a new id, the old session untouched
  --session-id UUID              the new session's id
  -n, --name NAME                name the session (as /rename NAME does)
  -w, --worktree [NAME]          work in a new git worktree and branch NAME under .cairn/worktrees/ (asked on exit: keep or remove)
  --replay FILE                  re-watch a session file or a stream-json recording in the app
  --replay-speed N               replay N times faster (default 1)

  -v, --version                  print the version
  -h, --help                     this help

A list flag takes every argument after it up to the next one starting with "-", as in
Claude Code: put the prompt before it or after "--", or use the one-value form --allowed-tools=RULES:
  cairn -p "fix the test" --allowed-tools "Bash(npm test:*)" Edit
  cairn -p --disallowed-tools "Bash(rm:*)" "Bash(curl:*)" -- "tidy the repo"

Not supported, on purpose: --ide, --chrome, --remote, --teleport, --permission-prompt-tool
(cairn says why when one is given).

Environment: ANTHROPIC_API_KEY, OPENAI_API_KEY, DEEPSEEK_API_KEY, ANTHROPIC_BASE_URL, OPENAI_BASE_URL,
CAIRN_PROVIDER, CAIRN_MODEL, CAIRN_HOME (default ~/.cairn).
`;

// Flags that take a list: like Claude Code's variadic options, each takes the arguments after it
// up to the next one starting with "-"; `--flag=value` takes exactly one.
const LIST_FLAGS = new Set(['--allowed-tools', '--allowedTools', '--disallowed-tools', '--disallowedTools', '--mcp-config', '--mcpConfig', '--add-dir', '--tools']);

/**
 * Rewrites argv into the one-value forms parseArgs understands: `--allowed-tools A B` becomes
 * `--allowed-tools=A --allowed-tools=B`, and a bare `--resume` (optional id) becomes `--resume=`.
 * Nothing after `--` is touched: that is where a prompt goes when it follows a list flag.
 */
function expandArgs(argv: readonly string[]): string[] {
  const out: string[] = [];
  const isValue = (arg: string | undefined): arg is string => arg !== undefined && !arg.startsWith('-');
  for (let i = 0; i < argv.length; i++) {
    const arg = itemAt(argv, i, 'command-line argument');
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const flag = arg.split('=')[0] ?? arg;
    const unsupported = UNSUPPORTED_FLAGS[flag];
    if (unsupported !== undefined) throw new UsageError(`${flag} is not supported: ${unsupported}`);
    if (arg === '--resume' && !isValue(argv[i + 1])) {
      out.push('--resume=');
    } else if ((arg === '--worktree' || arg === '-w') && !isValue(argv[i + 1])) {
      out.push('--worktree=');
    } else if (LIST_FLAGS.has(arg) && isValue(argv[i + 1])) {
      for (let value = argv[i + 1]; isValue(value); value = argv[i + 1]) {
        out.push(`${arg}=${value}`);
        i++;
      }
    } else {
      // A list flag with no value is left for parseArgs to report.
      out.push(arg);
    }
  }
  return out;
}

export function parseCliArgs(argv: readonly string[]): CliArgs {
  const args = expandArgs(argv);
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        print: { type: 'boolean', short: 'p' },
        'output-format': { type: 'string' },
        'input-format': { type: 'string' },
        'max-turns': { type: 'string' },
        'permission-mode': { type: 'string' },
        'allowed-tools': { type: 'string', multiple: true },
        allowedTools: { type: 'string', multiple: true },
        'disallowed-tools': { type: 'string', multiple: true },
        disallowedTools: { type: 'string', multiple: true },
        provider: { type: 'string' },
        model: { type: 'string' },
        'list-providers': { type: 'boolean' },
        replay: { type: 'string' },
        'replay-speed': { type: 'string' },
        continue: { type: 'boolean', short: 'c' },
        'show-system': { type: 'boolean' },
        'mcp-config': { type: 'string', multiple: true },
        mcpConfig: { type: 'string', multiple: true },
        sandbox: { type: 'boolean' },
        'no-sandbox': { type: 'boolean' },
        resume: { type: 'string' },
        worktree: { type: 'string', short: 'w' },
        version: { type: 'boolean', short: 'v' },
        help: { type: 'boolean', short: 'h' },
        verbose: { type: 'boolean' },
        'include-partial-messages': { type: 'boolean' },
        'system-prompt': { type: 'string' },
        'system-prompt-file': { type: 'string' },
        'append-system-prompt': { type: 'string' },
        'append-system-prompt-file': { type: 'string' },
        'json-schema': { type: 'string' },
        'max-budget-usd': { type: 'string' },
        'add-dir': { type: 'string', multiple: true },
        'plugin-dir': { type: 'string', multiple: true },
        bare: { type: 'boolean' },
        settings: { type: 'string' },
        tools: { type: 'string', multiple: true },
        agents: { type: 'string' },
        'session-id': { type: 'string' },
        name: { type: 'string', short: 'n' },
        'fork-session': { type: 'boolean' },
        'fallback-model': { type: 'string' },
        effort: { type: 'string' },
        'dangerously-skip-permissions': { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new UsageError(errorMessage(error));
  }
  const v = parsed.values;
  const format = v['output-format'] ?? 'text';
  if (format !== 'text' && format !== 'json' && format !== 'stream-json') {
    throw new UsageError(`--output-format: expected text, json or stream-json, got "${format}"`);
  }
  const inputFormat = v['input-format'] ?? 'text';
  if (inputFormat !== 'text' && inputFormat !== 'stream-json') throw new UsageError(`--input-format: expected text or stream-json, got "${inputFormat}"`);
  if (inputFormat === 'stream-json' && format !== 'stream-json') throw new UsageError('--input-format stream-json needs --output-format stream-json');
  let maxTurns: number | undefined;
  if (v['max-turns'] !== undefined) {
    maxTurns = Number(v['max-turns']);
    if (!Number.isInteger(maxTurns) || maxTurns < 1) throw new UsageError(`--max-turns: expected a positive integer, got "${v['max-turns']}"`);
  }
  let permissionMode: PermissionMode | undefined;
  if (v['permission-mode'] !== undefined) {
    const mode = v['permission-mode'];
    if (!isPermissionMode(mode)) throw new UsageError(`--permission-mode: expected one of ${PERMISSION_MODES.join(', ')}, got "${mode}"`);
    permissionMode = mode;
  }
  // Claude Code's spelling of bypassPermissions.
  if (v['dangerously-skip-permissions'] === true) {
    if (permissionMode !== undefined && permissionMode !== 'bypassPermissions') throw new UsageError(`--dangerously-skip-permissions contradicts --permission-mode ${permissionMode}`);
    permissionMode = 'bypassPermissions';
  }
  let replaySpeed: number | undefined;
  if (v['replay-speed'] !== undefined) {
    replaySpeed = Number(v['replay-speed']);
    if (!(replaySpeed > 0)) throw new UsageError(`--replay-speed: expected a positive number, got "${v['replay-speed']}"`);
  }
  const prompt = parsed.positionals.length > 0 ? parsed.positionals.join(' ') : undefined;
  let session: SessionFlags;
  try {
    session = sessionFlagsFrom(v, process.cwd());
  } catch (error) {
    if (error instanceof FlagError) throw new UsageError(error.message);
    throw error;
  }
  if (session.forkSession && !v.continue && v.resume === undefined) throw new UsageError('--fork-session goes with -c or --resume: it forks the session they continue');
  if (session.sessionId !== undefined && (v.continue || v.resume !== undefined) && !session.forkSession) {
    throw new UsageError('--session-id names a new session: with -c or --resume it needs --fork-session');
  }
  return {
    ...(prompt !== undefined ? { prompt } : {}),
    print: v.print === true,
    outputFormat: format,
    inputFormat,
    ...(maxTurns !== undefined ? { maxTurns } : {}),
    ...(permissionMode ? { permissionMode } : {}),
    allowedTools: [...(v['allowed-tools'] ?? []), ...(v.allowedTools ?? [])],
    disallowedTools: [...(v['disallowed-tools'] ?? []), ...(v.disallowedTools ?? [])],
    ...(v.provider ? { provider: v.provider } : {}),
    ...(v.model ? { model: v.model } : {}),
    listProviders: v['list-providers'] === true,
    ...(v.replay ? { replay: v.replay } : {}),
    ...(replaySpeed !== undefined ? { replaySpeed } : {}),
    version: v.version === true,
    help: v.help === true,
    continueLatest: v.continue === true,
    showSystem: v['show-system'] === true,
    ...(v['no-sandbox'] === true ? { sandbox: false } : v.sandbox === true ? { sandbox: true } : {}),
    ...(v.resume !== undefined ? { resume: v.resume } : {}),
    ...(v.worktree !== undefined ? { worktree: v.worktree } : {}),
    mcpConfig: [...(v['mcp-config'] ?? []), ...(v.mcpConfig ?? [])],
    session,
  };
}
