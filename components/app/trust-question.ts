// The "trust this folder?" question, asked on the terminal before the full-screen app starts (as
// Claude Code's trust dialog is): only when the folder's own settings would widen something, and
// once, since a yes is remembered. Anything but "y"/"yes" is a no: nothing is widened this session.
import { createInterface } from 'node:readline/promises';
import type { AskTrust, TrustQuestion } from '../../src/runtime/workspace-settings.js';
import { stripTerminalControls } from '../../src/util/terminal-text.js';

export function trustQuestionText(q: TrustQuestion): string {
  // File names and keys come from disk: shown, never obeyed.
  const lines = q.wouldApply.map((line) => `  ${stripTerminalControls(line)}`);
  return [
    '',
    `Do you trust the files in ${stripTerminalControls(q.folder)}?`,
    '',
    'Its settings files would let cairn do more than it does by default:',
    ...lines,
    '',
    'A repository you did not write could use these to run commands without asking. Its deny and ask',
    'rules apply either way. Trusting the folder applies the rest now and in later sessions.',
    '',
    'Trust this folder? [y/N] ',
  ].join('\n');
}

export function askTrustOnTerminal(io: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream } = { input: process.stdin, output: process.stdout }): AskTrust {
  return async (question) => {
    const rl = createInterface({ input: io.input, output: io.output, terminal: false });
    try {
      const answer = await rl.question(trustQuestionText(question));
      return /^\s*y(es)?\s*$/i.test(answer);
    } finally {
      rl.close();
    }
  };
}
