import { parseArgs } from 'node:util';
import { isPermissionMode, PERMISSION_MODES, type PermissionMode } from './permission-modes.js';
import type { OutputFormat } from './headless.js';
import { errorMessage } from './util/error-message.js';
import { itemAt } from './util/invariant.js';

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
  /** --mcp-config values: JSON files or JSON strings with "mcpServers" (empty when not given). */
  mcpConfig: string[];
}

export class UsageError extends Error {}

export const HELP = `cairn: an AI coding agent for the terminal

Usage:
  cairn [prompt]                 open the full-screen app (and submit the prompt)
  cairn -p "task"                run headless, print the answer (stdin piped in becomes the prompt)
  cairn serve                    the same sessions in a browser page (cairn serve --help)

Options:
  -p, --print                    headless mode
  --output-format FORMAT         text (default) | json | stream-json (every event as a JSON line);
                                 json and stream-json carry Claude Code's init and result lines
  --input-format FORMAT          text (default) | stream-json: user messages as JSON lines on stdin,
                                 one turn each (with --output-format stream-json)
  --max-turns N                  stop after N model turns (default 50)
  --permission-mode MODE         default | acceptEdits | plan | bypassPermissions | dontAsk
  --allowed-tools RULES...       allow rules, as several arguments or one list separated by spaces
                                 or commas: "Bash(git status:*)" Read, or "Read,Edit" (also --allowedTools)
  --disallowed-tools RULES...    deny rules, same forms (also --disallowedTools)
  --provider NAME                anthropic | openai | deepseek | openrouter | ollama | vllm | offline | your own
  --model NAME                   model id for the provider
  --list-providers               show the providers found and which one is used
  --show-system                  print the assembled system prompt and exit
  --mcp-config CONFIGS...        MCP servers from JSON files or strings ({"mcpServers": {...}}), as
                                 several arguments, started without asking (also --mcpConfig)
  --sandbox, --no-sandbox        run bash commands in the bubblewrap sandbox, or not (overrides sandbox.enabled)
  --replay FILE                  re-watch a session file or a stream-json recording in the app
  --replay-speed N               replay N times faster (default 1)
  -c, --continue                 resume the newest session of this workspace
  --resume [ID]                  resume a session by its id, its /save name or an id prefix (none: pick one)
  -v, --version                  print the version
  -h, --help                     this help

A rule-list flag takes every argument after it up to the next one starting with "-", as in
Claude Code: put the prompt before it or after "--", or use the one-value form --allowed-tools=RULES:
  cairn -p "fix the test" --allowed-tools "Bash(npm test:*)" Edit
  cairn -p --disallowed-tools "Bash(rm:*)" "Bash(curl:*)" -- "tidy the repo"

Environment: ANTHROPIC_API_KEY, OPENAI_API_KEY, DEEPSEEK_API_KEY, ANTHROPIC_BASE_URL, OPENAI_BASE_URL,
CAIRN_PROVIDER, CAIRN_MODEL, CAIRN_HOME (default ~/.cairn).
`;

// Flags that take a list: like Claude Code's variadic options, each takes the arguments after it
// up to the next one starting with "-"; `--flag=value` takes exactly one.
const LIST_FLAGS = new Set(['--allowed-tools', '--allowedTools', '--disallowed-tools', '--disallowedTools', '--mcp-config', '--mcpConfig']);

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
    if (arg === '--resume' && !isValue(argv[i + 1])) {
      out.push('--resume=');
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
        version: { type: 'boolean', short: 'v' },
        help: { type: 'boolean', short: 'h' },
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
  let replaySpeed: number | undefined;
  if (v['replay-speed'] !== undefined) {
    replaySpeed = Number(v['replay-speed']);
    if (!(replaySpeed > 0)) throw new UsageError(`--replay-speed: expected a positive number, got "${v['replay-speed']}"`);
  }
  const prompt = parsed.positionals.length > 0 ? parsed.positionals.join(' ') : undefined;
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
    mcpConfig: [...(v['mcp-config'] ?? []), ...(v.mcpConfig ?? [])],
  };
}
