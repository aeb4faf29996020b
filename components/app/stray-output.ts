// While the full-screen app owns the terminal, anything else written to it lands in the middle of
// a frame: a library's console.warn, a process warning, a stray process.stdout.write. The frame
// writer believes the screen still holds its last frame, so the damage stays until a full redraw.
// This module takes those writes off the terminal for the life of the app and hands them over as
// text (to the log file, and once each as a notice); the app's own drawing goes through `screen`.
import { format } from 'node:util';
import { stripTerminalControls } from '../../src/util/terminal-text.js';

export type StraySource = 'console.log' | 'console.info' | 'console.debug' | 'console.warn' | 'console.error' | 'console.trace' | 'warning' | 'stdout' | 'stderr';

export interface StrayOutput {
  source: StraySource;
  text: string;
}

export interface OutputCaptureOptions {
  /** The process's streams (process.stdout, process.stderr in the app). */
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  console?: Console;
  /** Whose 'warning' events to take over (process.emitWarning). */
  process?: NodeJS.EventEmitter;
  onOutput(output: StrayOutput): void;
}

export interface OutputCapture {
  /** `stdout` with its original write: the app's own frames and control sequences go here. */
  readonly screen: NodeJS.WriteStream;
  /** Puts every stream, console method and warning listener back as it was. */
  restore(): void;
}

type Write = NodeJS.WriteStream['write'];
const CONSOLE_METHODS = ['log', 'info', 'debug', 'warn', 'error', 'trace'] as const;

export function captureOutput(options: OutputCaptureOptions): OutputCapture {
  const { onOutput } = options;
  const undo: Array<() => void> = [];
  const screenWrite = patchWrite(options.stdout, 'stdout', onOutput, undo);
  patchWrite(options.stderr, 'stderr', onOutput, undo);

  const target = options.console;
  if (target) {
    for (const name of CONSOLE_METHODS) {
      const own = Object.getOwnPropertyDescriptor(target, name);
      const replacement = (...args: unknown[]): void => onOutput({ source: `console.${name}`, text: format(...args) });
      Object.defineProperty(target, name, { value: replacement, configurable: true, writable: true, enumerable: own?.enumerable ?? true });
      undo.push(() => restoreProperty(target, name, own));
    }
  }

  const proc = options.process;
  if (proc) {
    // Node's own listener prints warnings to stderr; ours takes its place until restore.
    const previous = proc.listeners('warning') as Array<(...args: unknown[]) => void>;
    const onWarning = (warning: Error & { code?: string }): void => {
      const code = warning.code ? ` [${warning.code}]` : '';
      onOutput({ source: 'warning', text: `${warning.name}${code}: ${warning.message}` });
    };
    proc.removeAllListeners('warning');
    proc.on('warning', onWarning);
    undo.push(() => {
      proc.off('warning', onWarning);
      for (const listener of previous) proc.on('warning', listener);
    });
  }

  const real = options.stdout;
  const screen = new Proxy(real, {
    get(stream, prop) {
      if (prop === 'write') return screenWrite;
      const value: unknown = Reflect.get(stream, prop, stream);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(stream) : value;
    },
  });
  let restored = false;
  return {
    screen,
    restore() {
      if (restored) return;
      restored = true;
      for (const step of undo.reverse()) step();
    },
  };
}

/** Replaces `stream.write`; returns the original, bound to the stream. */
function patchWrite(stream: NodeJS.WriteStream, source: 'stdout' | 'stderr', onOutput: (o: StrayOutput) => void, undo: Array<() => void>): Write {
  const own = Object.getOwnPropertyDescriptor(stream, 'write');
  const original: Write = stream.write.bind(stream);
  const captured = (chunk: unknown, encoding?: unknown, callback?: unknown): boolean => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString(typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    onOutput({ source, text });
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') process.nextTick(done);
    return true;
  };
  Object.defineProperty(stream, 'write', { value: captured, configurable: true, writable: true });
  undo.push(() => restoreProperty(stream, 'write', own));
  return original;
}

function restoreProperty(target: object, name: string, own: PropertyDescriptor | undefined): void {
  if (own) Object.defineProperty(target, name, own);
  else delete (target as Record<string, unknown>)[name];
}

export interface StrayNoticeOptions {
  /** Every piece of output, in full. */
  log(line: string): void;
  /** A short notice for the user. */
  notify(message: string): void;
  logPath: string;
  /** Distinct notices before one last "more in the log" (a chatty library must not flood the transcript). */
  maxNotices?: number;
}

const NOTICE_CHARS = 400;

/**
 * Logs every piece of stray output and shows each distinct one once. Pieces are compared after
 * control sequences and surrounding blank space are dropped; empty pieces are ignored.
 */
export function createStrayNotices(options: StrayNoticeOptions): (output: StrayOutput) => void {
  const max = options.maxNotices ?? 8;
  const seen = new Set<string>();
  let notices = 0;
  return ({ source, text }) => {
    const clean = stripTerminalControls(text).trim();
    if (clean === '') return;
    options.log(`${source}: ${clean}`);
    const key = `${source}\0${clean}`;
    if (seen.has(key)) return;
    seen.add(key);
    notices += 1;
    if (notices > max + 1) return;
    if (notices === max + 1) {
      options.notify(`More output from libraries was kept off the screen; it is in ${options.logPath}`);
      return;
    }
    const shown = clean.length > NOTICE_CHARS ? `${clean.slice(0, NOTICE_CHARS)}…` : clean;
    options.notify(`${source} (kept off the screen, also in ${options.logPath}):\n${shown}`);
  };
}
