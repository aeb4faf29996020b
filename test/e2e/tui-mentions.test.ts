import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { anthropicReply } from '../helpers/anthropic-server.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// `@` mentions in the built cairn, in a real terminal: fuzzy completion over the files git knows
// (ignored ones left out), the file's content attached to the request, a chip in the transcript.
const { startAnthropic } = cairnTerminals();

describe.skipIf(!TmuxTerminal.available())('@ mentions in a real terminal', () => {
  it('completes a file fuzzily, leaves ignored files out, attaches the content to the request and shows a chip', async () => {
    const { term, server } = await startAnthropic(() => anthropicReply([{ type: 'text', text: 'Read your helper.' }]), {
      files: {
        'src/app/helper-utils.ts': 'export const helper = 42;\nexport const other = 1;\n',
        'src/main.ts': 'main();\n',
        '.gitignore': 'secret-notes.txt\n',
        'secret-notes.txt': 'do not offer me\n',
      },
      prepare: ({ dir }) => {
        execFileSync('git', ['init', '-q'], { cwd: dir });
        execFileSync('git', ['add', 'src/main.ts'], { cwd: dir });
      },
    });
    term.type('explain @');
    await term.waitForText('@ file');
    term.type('secret');
    await term.waitForText('No file matches "secret"');
    for (let i = 0; i < 'secret'.length; i++) term.keys('BSpace');
    term.type('hlputl');
    await term.waitForScreen((s) => /› src\/app\/helper-utils\.ts/.test(s), 'the untracked file matched fuzzily');
    term.keys('Tab');
    await term.waitForScreen((s) => s.includes('│ > explain @src/app/helper-utils.ts'), 'the mention in the draft');
    term.type('please');
    term.keys('Enter');
    const screen = await term.waitForText('Read your helper.');
    expect(screen).toContain('explain [@src/app/helper-utils.ts · 2 lines] please');
    const sent = JSON.stringify(server.requests[0]!.body.messages);
    expect(sent).toContain('explain @src/app/helper-utils.ts please');
    expect(sent).toContain('<file path=\\"src/app/helper-utils.ts\\">\\nexport const helper = 42;\\nexport const other = 1;\\n</file>');
  });
});
