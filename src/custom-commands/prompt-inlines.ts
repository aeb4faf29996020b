import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { PermissionCheck } from '../permissions/types.js';
import type { CallApproval } from '../tools/tool.js';
import { errorMessage } from '../util/error-message.js';
import { FileReadError, readTextFile } from '../util/read-text-file.js';

const MAX_INLINE_BYTES = 256 * 1024;

export interface InlineDeps {
  cwd: string;
  /** The permission chain's verdict for reading this path (read deny rules apply to @ too). */
  checkRead(file: string): Promise<PermissionCheck>;
  /** The verdict for running this command, the command's allowed-tools included. */
  checkCommand(command: string): Promise<PermissionCheck>;
  /** Asks the user about a command or read the chain would ask for; absent (headless) means it does not happen. */
  ask?(what: { command: string } | { file: string }, reason: string): Promise<boolean>;
  /** Runs an allowed command; the text the model sees (output and exit status). */
  /** Runs a command the chain let through; `approval` says whether the user said yes (unasked ones run contained). */
  run(command: string, approval: CallApproval): Promise<string>;
}

/**
 * `!`cmd`` (at a line's start or after a space) runs before the prompt is sent, each through the
 * permission chain, and is replaced by its output; one that is denied (or not approved) runs nothing
 * and its line says so. Then `@path` (likewise placed) is replaced by the file's text.
 */
export async function expandInlines(text: string, deps: InlineDeps): Promise<string> {
  const withCommands = await replaceAsync(text, /(^|[ \t])!`([^`\n]+)`/gm, async (lead, command) => `${lead}${await commandOutput(command, deps)}`);
  return replaceAsync(withCommands, /(^|[ \t(])@((?:[^\s`'"()]|\\ )+)/gm, async (lead, given) => {
    const file = given.replace(/[.,;:!?]+$/, '');
    const rest = given.slice(file.length);
    const inlined = await fileText(file, deps);
    return inlined === undefined ? `${lead}@${given}` : `${lead}${inlined}${rest}`;
  });
}

async function commandOutput(command: string, deps: InlineDeps): Promise<string> {
  const verdict = await deps.checkCommand(command);
  if (verdict.behavior === 'deny') return `[!\`${command}\` was not run: ${verdict.reason}]`;
  if (verdict.behavior === 'ask') {
    const approved = deps.ask ? await deps.ask({ command }, verdict.reason) : false;
    if (!approved) return `[!\`${command}\` was not run: ${verdict.reason}${deps.ask ? '; not approved' : '; nobody to ask in this mode'}]`;
  }
  const approval: CallApproval = verdict.behavior === 'ask' ? { byUser: true, readOnly: false } : { byUser: false, readOnly: verdict.readOnly === true };
  try {
    const out = (await deps.run(command, approval)).replace(/\n+$/, '');
    return `$ ${command}\n${out}`;
  } catch (error) {
    return `[!\`${command}\` failed: ${errorMessage(error)}]`;
  }
}

/** The file's text, fenced with its path; undefined when there is no such file (an @ that is not a path). */
async function fileText(given: string, deps: InlineDeps): Promise<string | undefined> {
  const abs = path.resolve(deps.cwd, given.replace(/\\ /g, ' '));
  const verdict = await deps.checkRead(abs);
  if (verdict.behavior === 'deny') return `[@${given} was not included: ${verdict.reason}]`;
  if (!(await isFile(abs))) return undefined;
  if (verdict.behavior === 'ask' && !(deps.ask && (await deps.ask({ file: abs }, verdict.reason)))) {
    return `[@${given} was not included: ${verdict.reason}${deps.ask ? '; not approved' : '; nobody to ask in this mode'}]`;
  }
  let text: string | undefined;
  try {
    text = await readTextFile(abs, { maxBytes: MAX_INLINE_BYTES });
  } catch (error) {
    if (error instanceof FileReadError && error.notAFile) return undefined;
    return `[@${given} was not included: ${error instanceof FileReadError ? error.problem : errorMessage(error)}]`;
  }
  if (text === undefined) return undefined;
  const fence = text.includes('```') ? '````' : '```';
  return `${given}:\n${fence}\n${text.replace(/\n$/, '')}\n${fence}\n`;
}

async function replaceAsync(text: string, re: RegExp, fn: (lead: string, match: string) => Promise<string>): Promise<string> {
  let last = 0;
  // One at a time, in order: commands may depend on each other's effects, and the user answers asks in order.
  const out: string[] = [];
  for (const m of text.matchAll(re)) {
    out.push(text.slice(last, m.index));
    out.push(await fn(m[1] ?? '', m[2] ?? ''));
    last = m.index + m[0].length;
  }
  out.push(text.slice(last));
  return out.join('');
}

async function isFile(abs: string): Promise<boolean> {
  try {
    return (await stat(abs)).isFile();
  } catch {
    return false; // not a path to a file: the @ stays as typed
  }
}
