import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadInstructionFiles } from '../../../src/context/instruction-files.js';
import { createSystemPromptSource } from '../../../src/context/system-prompt-source.js';

const CLAUDE_MD = [
  '# Project',
  '<!-- MAINTAINER-ONLY: rotate the keys in May -->',
  'Use tabs.',
  '',
  '<!--',
  'MULTI-LINE-NOTE for humans',
  '-->',
  '',
  '```html',
  '<!-- KEPT-IN-FENCE -->',
  '```',
  'Write `<!-- KEPT-IN-SPAN -->` to hide a note.',
  '<!-- @docs/hidden.md -->',
].join('\n');

async function workspace(files: Record<string, string>) {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-comments-')));
  const ws = path.join(base, 'ws');
  for (const [rel, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(ws, rel)), { recursive: true });
    await fs.writeFile(path.join(ws, rel), text);
  }
  return { base, ws, claudeHome: path.join(base, '.claude'), cairnHome: path.join(base, 'cairn') };
}

describe('HTML comments in CLAUDE.md', () => {
  it('block comments are left out of what the model sees; one in a code block or span stays; none imports', async () => {
    const w = await workspace({ 'CLAUDE.md': CLAUDE_MD, 'docs/hidden.md': 'HIDDEN-IMPORT' });
    const problems: string[] = [];
    const { files } = await loadInstructionFiles({ cwd: w.ws, cairnHome: w.cairnHome, claudeHome: w.claudeHome, home: w.base, onProblem: (m) => problems.push(m) });
    expect(files.map((f) => f.path)).toEqual([path.join(w.ws, 'CLAUDE.md')]);
    const text = files[0]?.content ?? '';
    expect(text).toContain('Use tabs.');
    expect(text).not.toContain('MAINTAINER-ONLY');
    expect(text).not.toContain('MULTI-LINE-NOTE');
    expect(text).toContain('<!-- KEPT-IN-FENCE -->');
    expect(text).toContain('`<!-- KEPT-IN-SPAN -->`');
    expect(problems).toEqual([]);
  });

  it('the system prompt has no comment text, and a file that is only a comment adds nothing', async () => {
    const w = await workspace({ 'CLAUDE.md': CLAUDE_MD, 'CLAUDE.local.md': '<!-- ONLY-A-COMMENT -->\n' });
    const source = createSystemPromptSource({ cwd: w.ws, cairnHome: w.cairnHome, claudeHome: w.claudeHome, home: w.base, now: () => new Date(0), toolNames: () => [] });
    const { text } = await source.build({ mode: 'default', model: 'm' });
    expect(text).toContain('Use tabs.');
    expect(text).not.toContain('MAINTAINER-ONLY');
    expect(text).not.toContain('ONLY-A-COMMENT');
    expect(text).not.toContain(path.join(w.ws, 'CLAUDE.local.md'));
  });
});
