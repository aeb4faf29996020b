import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage } from '../../src/util/error-message.js';

/** OSC 52: the terminal puts base64 text on the system clipboard (`c`), over ssh and tmux too. */
export function osc52(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
}

/** The platform's clipboard command for this environment, in the order worth trying. */
export function clipboardCommands(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): { command: string; args: string[] }[] {
  if (platform === 'darwin') return [{ command: 'pbcopy', args: [] }];
  if (platform === 'win32') return [{ command: 'clip.exe', args: [] }];
  const out: { command: string; args: string[] }[] = [];
  if (env['WAYLAND_DISPLAY']) out.push({ command: 'wl-copy', args: [] });
  if (env['DISPLAY']) out.push({ command: 'xclip', args: ['-selection', 'clipboard'] }, { command: 'xsel', args: ['--clipboard', '--input'] });
  return out;
}

export interface CopyResult {
  /** What the user is told: where the text went. */
  readonly message: string;
  readonly osc52: boolean;
  readonly command?: string;
  readonly file?: string;
}

export interface ClipboardOptions {
  /** The terminal (past any output capture); absent or not a TTY: no OSC 52. */
  screen?: Pick<NodeJS.WriteStream, 'write'> & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** Where the file fallback goes ($CAIRN_HOME). */
  cairnHome: string;
  platform?: NodeJS.Platform;
  /** Runs a clipboard command with `text` on its stdin; resolves to a problem or undefined. Tests inject. */
  run?: (command: string, args: readonly string[], text: string) => Promise<string | undefined>;
}

const COMMAND_TIMEOUT_MS = 3000;

/**
 * Copies `text`: OSC 52 to the terminal, and the platform's clipboard command when there is one.
 * A terminal never says whether it honoured OSC 52, so when no command took the text it is also
 * saved to a file whose path the message names.
 */
export async function copyText(text: string, options: ClipboardOptions): Promise<CopyResult> {
  const chars = [...text].length;
  const sent = options.screen?.isTTY === true;
  if (sent) options.screen?.write(osc52(text));
  const run = options.run ?? runClipboardCommand;
  const problems: string[] = [];
  for (const { command, args } of clipboardCommands(options.platform ?? process.platform, options.env)) {
    const problem = await run(command, args, text);
    if (problem === undefined) {
      const how = sent ? `OSC 52 and ${command}` : command;
      return { message: `Copied ${chars} characters to the clipboard (${how}).`, osc52: sent, command };
    }
    problems.push(`${command}: ${problem}`);
  }
  const file = join(options.cairnHome, 'clipboard.txt');
  try {
    await mkdir(options.cairnHome, { recursive: true });
    await writeFile(file, text);
  } catch (error) {
    const why = `could not save it to ${file}: ${errorMessage(error)}`;
    return { message: sent ? `Copied ${chars} characters through OSC 52 (the terminal must allow it); ${why}.` : `Nothing copied: no terminal clipboard, ${why}.`, osc52: sent };
  }
  const tried = problems.length ? ` (${problems.join('; ')})` : '';
  const message = sent
    ? `Copied ${chars} characters through OSC 52 (if your terminal does not allow it, the text is in ${file})${tried}.`
    : `No clipboard reachable${tried}; the text is in ${file}.`;
  return { message, osc52: sent, file };
}

/** Resolves once the command has read the text and exited; xclip forks to keep the selection, so 'exit', not 'close'. */
export function runClipboardCommand(command: string, args: readonly string[], text: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (problem: string | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(problem);
    };
    const child = spawn(command, [...args], { stdio: ['pipe', 'ignore', 'ignore'] });
    const timer = setTimeout(() => {
      child.kill();
      done(`no answer in ${COMMAND_TIMEOUT_MS / 1000} s`);
    }, COMMAND_TIMEOUT_MS);
    child.on('error', (error) => done((error as NodeJS.ErrnoException).code === 'ENOENT' ? 'not installed' : errorMessage(error)));
    child.on('exit', (code, signal) => done(code === 0 ? undefined : `exited with ${signal ?? String(code)}`));
    child.stdin.on('error', (error) => done(errorMessage(error)));
    child.stdin.end(text);
  });
}
