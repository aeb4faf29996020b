import { spawn } from 'node:child_process';
import * as z from 'zod';
import type { CommandSandbox } from '../sandbox/sandbox.js';
import type { PreparedCommand } from '../sandbox/sandboxed-spawn.js';
import type { ShellManager } from '../shells/shell-manager.js';
import { commandEnv } from '../shells/command-env.js';
import { launchStdio } from '../shells/launch-stdio.js';
import { ChunkLines, ProgressBatcher } from './bash-progress.js';
import { HeadTailBuffer } from './output-buffer.js';
import { errorResult } from './result.js';
import { defineTool, UNASKED, type CallApproval, type Tool, type ToolContext, type ToolResult } from './tool.js';
import { errorMessage } from '../util/error-message.js';
import { titleLine } from './call-view.js';

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;
export const MAX_OUTPUT_CHARS = 30_000;
/** How long a process group gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2_000;
/** After bash exits, how long to wait for pipes that a backgrounded child may be holding open. */
const CLOSE_GRACE_MS = 200;

const inputSchema = z.object({
  command: z.string().describe('The bash command to run.'),
  timeout: z
    .number()
    .int()
    .min(1)
    .max(MAX_TIMEOUT_MS)
    .optional()
    .describe(`Timeout in milliseconds (default ${DEFAULT_TIMEOUT_MS}, max ${MAX_TIMEOUT_MS}).`),
  description: z
    .string()
    .optional()
    .describe('What the command does, in 5-10 words ("Run the unit tests"): the title of the card the user sees for this call.'),
});

const backgroundSchema = inputSchema.extend({
  run_in_background: z
    .boolean()
    .optional()
    .describe('Run the command in the background and return a shell id at once; read its output later with bash_output.'),
});

const unsandboxedSchema = { dangerously_disable_sandbox: z
  .boolean()
  .optional()
  .describe('Run this command outside the sandbox. Only after a sandboxed run failed because the sandbox refused a path or domain; the user is asked to approve it.') };

export type BashInput = z.infer<typeof backgroundSchema> & { dangerously_disable_sandbox?: boolean };

export interface BashToolOptions {
  /** Enables run_in_background; without it the parameter is not offered. */
  shells?: ShellManager;
  /** Runs commands inside the operating-system sandbox when it is on and available. */
  sandbox?: CommandSandbox;
  /** Output kept (head and tail), default 30,000 characters; more for a caller that saves large results to a file. */
  keepChars?: number;
  /** The environment commands run with: the session's (its settings `env` applied); default process.env. */
  env?: NodeJS.ProcessEnv;
}

const description = `Run a shell command with bash in the workspace root and return its combined stdout and stderr.
- Use for builds, tests, git, package managers and other programs. Prefer read_file, list_dir, glob, grep, edit_file and write_file over cat, ls, find, grep, sed or echo redirection.
- Each call is a fresh shell: cd and exported variables do not persist between calls; use absolute paths or chain with &&.
- No stdin: interactive commands (editors, prompts, pagers) will not work; pass flags like --yes or --no-pager.
- Timeout defaults to ${DEFAULT_TIMEOUT_MS / 1000} s (max ${MAX_TIMEOUT_MS / 1000} s); on timeout the whole process group is killed and the result says so. For servers, run them in the background with output redirected to a file.
- Output over ${MAX_OUTPUT_CHARS} characters keeps only its beginning and end; to see all of it, redirect it to a file and read that with read_file. A non-zero exit code is reported.
- The user sees a card titled by description, with the output folded to its last lines.`;

const backgroundDescription = description.replace(
  'For servers, run them in the background with output redirected to a file.',
  'For servers, watchers and other long-running commands, set run_in_background: the call returns a shell id at once (no timeout applies), bash_output reads what it printed since the last read, kill_shell stops it, and you are told when it ends.',
);

const SAVED_OUTPUT = `Output over ${MAX_OUTPUT_CHARS} characters is saved to a file: the result shows its beginning and end and the file's path; page through it with read_file or search it with grep.`;

/** The description as this session's bash behaves: with background shells or not, with large output saved to a file or cut. */
function describeBash(background: boolean, saved: boolean): string {
  const text = background ? backgroundDescription : description;
  return saved ? text.replace(/Output over .*? with read_file\./, SAVED_OUTPUT) : text;
}

type Ending = 'timeout' | 'abort';

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  ending?: Ending;
  spawnError?: Error;
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone, which is what we wanted.
  }
}

function runProcess(launch: PreparedCommand, ctx: ToolContext, timeoutMs: number, out: HeadTailBuffer, env: NodeJS.ProcessEnv): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(launch.file, launch.args, {
      cwd: ctx.cwd,
      // Its own process group, so timeout and abort can kill everything it started.
      detached: true,
      stdio: launchStdio(launch),
      env: commandEnv(env),
    });
    launch.attach?.(child);
    let ending: Ending | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;
    let closeTimer: NodeJS.Timeout | undefined;

    const terminate = (why: Ending): void => {
      if (ending || exit) return;
      ending = why;
      killGroup(child.pid, 'SIGTERM');
      // Left running after we settle: group members that trap SIGTERM still get killed.
      setTimeout(() => killGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS).unref();
    };
    const timer = setTimeout(() => terminate('timeout'), timeoutMs);
    const onAbort = (): void => terminate('abort');
    ctx.signal.addEventListener('abort', onAbort, { once: true });

    const settle = (outcome: Outcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (closeTimer) clearTimeout(closeTimer);
      ctx.signal.removeEventListener('abort', onAbort);
      for (const s of splitters) s.flush();
      progress.flush();
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve(outcome);
    };

    // Progress is appended as it comes, whole lines each with its newline, gathered into pieces
    // (bash-progress.ts): a flood of lines is a few events a second, not one per line.
    const progress = new ProgressBatcher((text) => ctx.onProgress?.(text));
    const toProgress = (lines: string): void => progress.add(lines);
    const splitters = [new ChunkLines(toProgress), new ChunkLines(toProgress)];
    [child.stdout, child.stderr].forEach((stream, i) => {
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        out.append(chunk);
        splitters[i]?.push(chunk);
      });
    });

    child.on('error', (err) => settle({ code: null, signal: null, spawnError: err }));
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      closeTimer = setTimeout(() => settle({ code, signal, ending }), CLOSE_GRACE_MS);
    });
    child.on('close', (code, signal) => settle({ code, signal, ending }));

    if (ctx.signal.aborted) onAbort();
  });
}

function statusLine(o: Outcome, timeoutMs: number, background: boolean): string | undefined {
  if (o.ending === 'timeout') {
    const longer = timeoutMs < MAX_TIMEOUT_MS ? `pass a larger timeout (up to ${MAX_TIMEOUT_MS} ms), or ` : '';
    const how = background ? 'run it with run_in_background: true and read its output with bash_output' : 'run it in the background with its output redirected to a file (cmd > out.log 2>&1 &) and read that file';
    return `Command timed out after ${timeoutMs} ms (the limit for this call) and its process group was killed. If it needs longer, ${longer}${how}.`;
  }
  if (o.ending === 'abort') return 'Command was interrupted by the user; its process group was killed.';
  if (o.signal) return `Killed by signal ${o.signal}`;
  if (o.code !== null && o.code !== 0) return `Exit code: ${o.code}`;
  return undefined;
}

async function prepare(input: BashInput, sandbox: CommandSandbox | undefined, approval: CallApproval | undefined): Promise<PreparedCommand | { refuse: string }> {
  if (!sandbox) return { file: 'bash', args: ['-c', input.command], sandboxed: false, finish: async () => undefined };
  return sandbox.prepare(input.command, { disable: input.dangerously_disable_sandbox === true, approval: approval ?? UNASKED });
}

/** Whether the sandbox's auto-allow covers this command (sandbox.autoAllowBashIfSandboxed, and the command would run inside). */
export function sandboxAutoAllowsCommand(sandbox: CommandSandbox | undefined, command: string, disable = false): boolean {
  return (sandbox?.autoAllow() ?? false) && (sandbox?.sandboxes(command, disable) ?? false);
}

/**
 * Starts a command as a background shell, as bash run_in_background does (and monitor {command}):
 * in the sandbox unless the user let it leave, under this call's approval. The shell's id, or why
 * it did not start.
 */
export async function startBackgroundShell(
  input: { command: string; dangerously_disable_sandbox?: boolean },
  ctx: ToolContext,
  shells: ShellManager,
  sandbox: CommandSandbox | undefined,
): Promise<{ id: string } | { error: string }> {
  if (ctx.signal.aborted) return { error: 'Command was interrupted by the user before it started.' };
  const launch = await prepare(input, sandbox, ctx.approval);
  if ('refuse' in launch) return { error: `The command did not run: ${launch.refuse}.` };
  return shells.start(input.command, ctx.cwd, launch);
}

async function runBash(input: BashInput, ctx: ToolContext, sandbox: CommandSandbox | undefined, keepChars = MAX_OUTPUT_CHARS, env: NodeJS.ProcessEnv = process.env, background = false): Promise<ToolResult> {
  if (ctx.signal.aborted) return errorResult('Command was interrupted by the user before it started.');
  const timeoutMs = Math.min(Math.max(1, input.timeout ?? DEFAULT_TIMEOUT_MS), MAX_TIMEOUT_MS);
  const out = new HeadTailBuffer(keepChars);
  const launch = await prepare(input, sandbox, ctx.approval);
  if ('refuse' in launch) return errorResult(`The command did not run: ${launch.refuse}.`);
  const outcome = await runProcess(launch, ctx, timeoutMs, out, env);
  const note = await launch.finish(out.toString());
  const refused = launch.refusals?.();
  if (outcome.spawnError) return errorResult(`Could not start ${launch.sandboxed ? 'the sandbox (bwrap)' : 'bash'}: ${outcome.spawnError.message}`);

  const text = out.toString().replace(/\n+$/, '');
  const status = statusLine(outcome, timeoutMs, background);
  const parts = [text === '' ? '(no output)' : text];
  if (status) parts.push(status);
  if (note) parts.push(note);
  return {
    content: parts.join('\n\n'),
    isError: status !== undefined,
    display: {
      kind: 'bash',
      command: input.command,
      description: input.description,
      exitCode: outcome.code,
      signal: outcome.signal,
      timedOut: outcome.ending === 'timeout',
      interrupted: outcome.ending === 'abort',
      truncated: out.length > keepChars,
      ...(refused ? { sandboxRefused: { domains: refused.domains, paths: refused.paths } } : {}),
    },
  };
}

async function startBackground(input: BashInput, ctx: ToolContext, shells: ShellManager, sandbox: CommandSandbox | undefined): Promise<ToolResult> {
  const started = await startBackgroundShell(input, ctx, shells, sandbox);
  if ('error' in started) return errorResult(started.error);
  const { id } = started;
  return {
    content: `Started background shell ${id}. Read its output with bash_output {"id": "${id}"}; stop it with kill_shell {"id": "${id}"}. You will be told when it ends.`,
    display: { kind: 'bash', command: input.command, description: input.description, background: true, shellId: id },
  };
}

export function createBashTool(options: BashToolOptions = {}): Tool<BashInput> {
  const { shells, sandbox } = options;
  const base = shells ? backgroundSchema : inputSchema;
  return defineTool<BashInput>({
    name: 'bash',
    description: describeBash(shells !== undefined, (options.keepChars ?? MAX_OUTPUT_CHARS) > MAX_OUTPUT_CHARS),
    // Without a shell manager the model is not offered run_in_background (zod strips it if sent);
    // without a sandbox that may be left, not dangerously_disable_sandbox either.
    inputSchema: sandbox?.allowUnsandboxed ? base.extend(unsandboxedSchema) : base,
    describe: (input) => ({ title: titleLine(input.description ?? '') || titleLine(input.command), subject: { kind: 'command', command: input.command } }),
    kind: 'execute',
    effects: () => 'world',
    isConcurrencySafe: () => false,
    command: (input) => input.command,
    // Leaving the sandbox is the user's call every time, whatever a rule, a mode or the analysis says.
    alwaysAsks: (input) => (input.dangerously_disable_sandbox === true ? 'the command asks to run outside the sandbox (dangerously_disable_sandbox)' : undefined),
    // ... or, in auto mode, its classifier's (which sees the user's prompts and this command, never tool output).
    classifierMayAnswer: true,
    sandboxAutoAllows: (input) => sandboxAutoAllowsCommand(sandbox, input.command, input.dangerously_disable_sandbox === true),
    async call(input, ctx) {
      try {
        if (input.run_in_background && shells) return await startBackground(input, ctx, shells, sandbox);
        return await runBash(input, ctx, sandbox, options.keepChars, options.env, shells !== undefined);
      } catch (err) {
        return errorResult(`bash failed: ${errorMessage(err)}`);
      }
    },
  });
}
