import { spawn, type ChildProcess } from 'node:child_process';
import { systemClock, type Clock } from '../clock.js';
import type { EventOf } from '../events.js';
import { HeadTailBuffer } from '../tools/output-buffer.js';
import { commandEnv } from './command-env.js';
import { launchStdio, type LaunchDescriptors } from './launch-stdio.js';
import { endSessionProcesses, type EndReport } from './session-processes.js';

// Commands the model started with bash run_in_background: each in its own process group, output
// kept (head and tail within a budget) until the model reads it with bash_output.

export type ShellStatus = 'running' | 'completed' | 'failed' | 'killed';
export type BackgroundShellEvent = EventOf<'background_shell'>;

/** Output kept between two reads, like bash's cap for one call. */
export const SHELL_OUTPUT_CHARS = 30_000;
/** After SIGTERM, how long a group gets before SIGKILL. */
export const SHELL_KILL_GRACE_MS = 2_000;
/** After bash exits, how long to wait for pipes a grandchild may hold open. */
const CLOSE_GRACE_MS = 200;

export interface ShellInfo {
  id: string;
  command: string;
  cwd: string;
  pid?: number;
  status: ShellStatus;
  exitCode?: number;
  signal?: string;
  startedAt: number;
  endedAt?: number;
}

export interface ShellRead {
  /** Output since the previous read (head and tail kept when over the cap). */
  newOutput: string;
  status: ShellStatus;
  exitCode?: number;
  signal?: string;
  /** Characters dropped from the middle of newOutput. */
  truncated: boolean;
}

/** The program that runs a command, and what to do once it has ended (its output given; a note comes back). */
export interface ShellLaunch extends LaunchDescriptors {
  file: string;
  args: string[];
  finish(output: string): Promise<string | undefined>;
}

export interface ShellManagerOptions {
  /** Timestamps only; processes and their kill grace run on real time. */
  clock?: Clock;
  onEvent(event: BackgroundShellEvent): void;
  maxOutputChars?: number;
  /** The environment shells run with: the session's (its settings `env` applied); default process.env. */
  env?: NodeJS.ProcessEnv;
}

export interface ShellManager {
  /**
   * Starts `bash -c command` in cwd (or `launch`, the same command wrapped in the sandbox), detached
   * in its own process group. A spawn failure shows up as a failed shell.
   */
  start(command: string, cwd: string, launch?: ShellLaunch): { id: string };
  /** undefined for an unknown id. */
  read(id: string): ShellRead | undefined;
  /** Everything the shell printed so far (head and tail over the cap), for the user: reads nothing for the model. */
  output(id: string): { text: string; truncated: boolean; info: ShellInfo } | undefined;
  /** SIGTERM to the group, SIGKILL after a grace period; resolves once it has ended. false when unknown or already ended. */
  kill(id: string): Promise<boolean>;
  list(): ShellInfo[];
  /**
   * When cairn ends: every running group, and every process bash left that carries this session's
   * marker (session-processes.ts), gets SIGTERM, then SIGKILL after a short grace; synchronously.
   */
  killAll(graceMs?: number): EndReport;
  /** One system-reminder line per shell that ended on its own since the last call (not ones killed via kill(), nor ones whose follower tells their end). */
  drainCompletions(): string[];
  /**
   * Hands on what a running shell prints from now on (stdout and stderr as they come), and its end;
   * returns the unsubscribe, or undefined for an unknown id or a shell that has already ended.
   */
  follow(id: string, follower: ShellFollower): (() => void) | undefined;
}

/** Someone watching a shell's output as it comes (shell-watches.ts). */
export interface ShellFollower {
  /** A piece of one stream's output (0 stdout, 1 stderr: each is split into lines on its own). */
  data(chunk: string, stream: 0 | 1): void;
  /** The shell ended (on its own, killed, or failed to start); called once, after its status is set. */
  end(info: ShellInfo): void;
  /** The follower tells the model of the shell's end itself (a watch's last note): no completion line of its own. */
  readonly tellsEnd?: boolean;
}

interface Shell {
  info: ShellInfo;
  child: ChildProcess;
  /** Unread by the model (bash_output empties it). */
  buffer: HeadTailBuffer;
  /** All of it, for /bashes <id>. */
  all: HeadTailBuffer;
  killRequested: boolean;
  ended: Promise<void>;
  followers: Set<ShellFollower>;
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/** A pipe to a child is a socket, which can stop holding the event loop open. */
function unref(stream: unknown): void {
  if (stream && typeof (stream as { unref?: unknown }).unref === 'function') (stream as { unref(): void }).unref();
}

function clip(command: string): string {
  const line = command.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

export function createShellManager(options: ShellManagerOptions): ShellManager {
  const clock = options.clock ?? systemClock;
  const cap = options.maxOutputChars ?? SHELL_OUTPUT_CHARS;
  const shells = new Map<string, Shell>();
  const completions: string[] = [];
  let seq = 0;

  const emit = (s: Shell): void => {
    const e: BackgroundShellEvent = { type: 'background_shell', id: s.info.id, command: s.info.command, status: s.info.status };
    options.onEvent(s.info.exitCode === undefined ? e : { ...e, exit_code: s.info.exitCode });
  };

  const finish = (s: Shell, code: number | null, signal: NodeJS.Signals | null, spawnError?: Error): void => {
    if (s.info.status !== 'running') return;
    s.info.endedAt = clock.now();
    if (code !== null) s.info.exitCode = code;
    if (signal) s.info.signal = signal;
    if (spawnError) {
      s.buffer.append(`\nCould not start bash: ${spawnError.message}\n`);
      s.all.append(`\nCould not start bash: ${spawnError.message}\n`);
    }
    s.info.status = s.killRequested ? 'killed' : code === 0 ? 'completed' : 'failed';
    if (!s.killRequested && ![...s.followers].some((f) => f.tellsEnd === true)) {
      const how = code !== null ? `exit code ${code}` : signal ? `signal ${signal}` : 'an error';
      const verb = s.info.status === 'completed' ? 'completed' : 'failed';
      completions.push(
        `Background shell ${s.info.id} (${clip(s.info.command)}) ${verb} with ${how}. Read its output with bash_output {"id": "${s.info.id}"}.`,
      );
    }
    emit(s);
    const followers = [...s.followers];
    s.followers.clear();
    for (const f of followers) f.end({ ...s.info });
  };

  return {
    start(command, cwd, launch) {
      const id = `bash_${++seq}`;
      const child = spawn(launch?.file ?? 'bash', launch?.args ?? ['-c', command], {
        cwd,
        detached: true,
        stdio: launchStdio(launch),
        env: commandEnv(options.env ?? process.env),
      });
      launch?.attach?.(child);
      // A shell never keeps cairn running: ending cairn ends it (killAll, from the exit path).
      child.unref();
      for (const stream of [child.stdout, child.stderr]) unref(stream);
      const info: ShellInfo = { id, command, cwd, status: 'running', startedAt: clock.now() };
      if (child.pid !== undefined) info.pid = child.pid;
      let resolveEnded!: () => void;
      const shell: Shell = {
        info,
        child,
        buffer: new HeadTailBuffer(cap),
        all: new HeadTailBuffer(cap),
        killRequested: false,
        ended: new Promise((r) => (resolveEnded = r)),
        followers: new Set(),
      };
      shells.set(id, shell);

      let settled = false;
      let closeTimer: NodeJS.Timeout | undefined;
      const settle = (code: number | null, signal: NodeJS.Signals | null, err?: Error): void => {
        if (settled) return;
        settled = true;
        if (closeTimer) clearTimeout(closeTimer);
        child.stdout?.destroy();
        child.stderr?.destroy();
        const done = (): void => {
          finish(shell, code, signal, err);
          resolveEnded();
        };
        if (!launch) return done();
        // The sandbox's note (a refused path or domain) is part of what the model reads.
        launch
          .finish(shell.all.toString())
          .then((note) => {
            if (note) {
              shell.buffer.append(`\n${note}\n`);
              shell.all.append(`\n${note}\n`);
            }
          }, (error: unknown) => shell.all.append(`\n(the sandbox did not clean up: ${String(error)})\n`))
          .finally(done);
      };
      [child.stdout, child.stderr].forEach((stream, i) => {
        stream?.setEncoding('utf8');
        stream?.on('data', (chunk: string) => {
          shell.buffer.append(chunk);
          shell.all.append(chunk);
          for (const f of shell.followers) f.data(chunk, i === 0 ? 0 : 1);
        });
      });
      child.on('error', (err) => settle(null, null, err));
      child.on('exit', (code, signal) => {
        closeTimer = setTimeout(() => settle(code, signal), CLOSE_GRACE_MS);
      });
      child.on('close', (code, signal) => settle(code, signal));
      emit(shell);
      return { id };
    },

    read(id) {
      const s = shells.get(id);
      if (!s) return undefined;
      const truncated = s.buffer.length > cap;
      const newOutput = s.buffer.toString();
      s.buffer = new HeadTailBuffer(cap);
      const r: ShellRead = { newOutput, status: s.info.status, truncated };
      if (s.info.exitCode !== undefined) r.exitCode = s.info.exitCode;
      if (s.info.signal !== undefined) r.signal = s.info.signal;
      return r;
    },

    output(id) {
      const s = shells.get(id);
      if (!s) return undefined;
      return { text: s.all.toString(), truncated: s.all.length > cap, info: { ...s.info } };
    },

    async kill(id) {
      const s = shells.get(id);
      if (!s || s.info.status !== 'running') return false;
      s.killRequested = true;
      killGroup(s.info.pid, 'SIGTERM');
      const escalate = setTimeout(() => killGroup(s.info.pid, 'SIGKILL'), SHELL_KILL_GRACE_MS);
      await s.ended;
      clearTimeout(escalate);
      // Whatever bash left behind in its group (a trapped TERM) goes too.
      killGroup(s.info.pid, 'SIGKILL');
      return true;
    },

    list: () => [...shells.values()].map((s) => ({ ...s.info })),

    killAll(graceMs) {
      const groups: number[] = [];
      for (const s of shells.values()) {
        if (s.info.status !== 'running') continue;
        s.killRequested = true;
        if (s.info.pid !== undefined) groups.push(s.info.pid);
      }
      return endSessionProcesses(groups, graceMs);
    },

    drainCompletions: () => completions.splice(0),

    follow(id, follower) {
      const s = shells.get(id);
      if (!s || s.info.status !== 'running') return undefined;
      s.followers.add(follower);
      return () => void s.followers.delete(follower);
    },
  };
}
