import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Message, ToolUseBlock } from '../../../src/messages.js';
import { createOfflineProvider } from '../../../src/providers/offline.js';
import { addedLines, offlineFindings } from '../../../src/providers/offline-review-checks.js';
import { diffInPrompt, isReviewPrompt, untrackedInPrompt } from '../../../src/providers/offline-review.js';
import { reviewDiffText } from '../../../src/review/review-diff.js';
import { git } from '../../helpers/test-git.js';

const made: string[] = [];
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});

/** A fresh temporary folder, removed after the file's tests. */
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cairn-offline-review-'));
  made.push(dir);
  return dir;
}


const BEFORE = ['export function total(items) {', '  let sum = 0;', '  for (const i of items) sum += i.price;', '  return sum;', '}', '', 'export const a = 1;', 'export const b = 2;', 'export const c = 3;', 'export const d = 4;', 'export const e = 5;', 'export const f = 6;', 'export const g = 7;', 'export const h = 8;', 'export const i = 9;', ''].join('\n');

/** A repository with src/cart.js committed, then changed in two hunks (uncommitted), and an untracked config.py. */
async function repo(): Promise<string> {
  const dir = await tempDir();
  await mkdir(path.join(dir, 'src'));
  await writeFile(path.join(dir, 'src', 'cart.js'), BEFORE);
  await writeFile(path.join(dir, 'gone.js'), 'console.log("deleted lines are not findings");\n');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'cart');
  const after = BEFORE.replace('  let sum = 0;\n', '  let sum = 0;\n  console.log("items", items);\n  // TODO: discounts\n')
    .replace('export const c = 3;\n', '')
    .replace('export const h = 8;\n', 'export const h = 8;\nconst password = "hunter22";\ndebugger;\n');
  await writeFile(path.join(dir, 'src', 'cart.js'), after);
  git(dir, 'rm', '-q', 'gone.js');
  await writeFile(path.join(dir, 'config.py'), 'import os\nprint("loaded")\nKEY = "AKIAIOSFODNN7EXAMPLE"\n');
  return dir;
}

/** The prompt /review becomes: the skill line and the diff cairn read (the same framing slash-prompts.ts uses). */
async function reviewPrompt(dir: string, skill = 'review'): Promise<string> {
  return `/${skill}\n\nRun the "${skill}" skill (skills/${skill}/SKILL.md):\n\n${await reviewDiffText(dir, '')}\n\n1. Read the diff above.`;
}

describe('the offline model\'s diff-to-findings step', () => {
  it('numbers added lines from the hunk headers of a real git diff; deleted lines and files add nothing', async () => {
    const dir = await repo();
    const lines = addedLines(diffInPrompt(await reviewPrompt(dir)));
    expect(lines).toEqual([
      { file: 'src/cart.js', line: 3, text: '  console.log("items", items);' },
      { file: 'src/cart.js', line: 4, text: '  // TODO: discounts' },
      { file: 'src/cart.js', line: 16, text: 'const password = "hunter22";' },
      { file: 'src/cart.js', line: 17, text: 'debugger;' },
    ]);
  });

  it('reports debug statements, TODOs and secret-looking values, most severe first, each at its file:line', async () => {
    const dir = await repo();
    const findings = offlineFindings(addedLines(diffInPrompt(await reviewPrompt(dir))));
    expect(findings.map((f) => `${f.severity} ${f.file}:${f.line} ${f.title}`)).toEqual([
      'critical src/cart.js:16 Secret-looking value in the code: a hard-coded password or key',
      'low src/cart.js:3 Debug statement left in: console.log',
      'low src/cart.js:4 TODO added: discounts',
      'low src/cart.js:17 Debug statement left in: debugger',
    ]);
    // The secret itself is not repeated on the card.
    expect(JSON.stringify(findings)).not.toContain('hunter22');
  });

  it('checks lines one at a time: print( only in Python, an AWS key id anywhere, nothing on clean lines', () => {
    const at = (file: string, text: string) => offlineFindings([{ file, line: 1, text }]).map((f) => f.title);
    expect(at('a.py', '    print("x")')).toEqual(['Debug statement left in: print']);
    expect(at('a.js', 'print("x")')).toEqual([]);
    expect(at('a.ts', 'const id = "AKIAIOSFODNN7EXAMPLE";')).toEqual(['Secret-looking value in the code: an AWS access key id']);
    expect(at('a.ts', 'const password = process.env.PASSWORD;')).toEqual([]);
    expect(at('a.ts', 'logger.info("console.logs are gone"); // no todo here')).toEqual([]);
    expect(at('a.md', '- FIXME: the title')).toEqual(['FIXME added: the title']);
  });

  it('no change: zero findings', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'a.js'), 'console.log("committed, not in the diff");\n');
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'one');
    const prompt = await reviewPrompt(dir);
    expect(prompt).toContain('(no changes in tracked files)');
    expect(offlineFindings(addedLines(diffInPrompt(prompt)))).toEqual([]);
  });
});

/** One turn of the offline model: its tool calls and text. */
async function turn(messages: Message[]): Promise<{ calls: ToolUseBlock[]; text: string }> {
  const provider = createOfflineProvider();
  for await (const e of provider.stream({ messages, system: 'system', tools: [], signal: new AbortController().signal } as unknown as Parameters<typeof provider.stream>[0])) {
    if (e.type === 'message') {
      return {
        calls: e.message.content.filter((b): b is ToolUseBlock => b.type === 'tool_use'),
        text: e.message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(''),
      };
    }
  }
  throw new Error('the offline model sent no message');
}

describe('the offline model follows /review: read untracked files, report_findings, closing words', () => {
  it('reads the untracked file the prompt names, then reports what the diff and that file add', async () => {
    const dir = await repo();
    const prompt = await reviewPrompt(dir);
    expect(isReviewPrompt(prompt)).toBe(true);
    expect(isReviewPrompt(await reviewPrompt(dir, 'security-review'))).toBe(true);
    expect(isReviewPrompt('/review is what I want, please')).toBe(false);
    expect(untrackedInPrompt(prompt)).toEqual(['config.py']);

    const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: prompt }] }];
    const first = await turn(messages);
    expect(first.calls.map((c) => [c.name, c.input])).toEqual([['read_file', { path: 'config.py' }]]);
    messages.push({ role: 'assistant', content: first.calls });
    const readId = first.calls[0]?.id ?? '';
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: readId, content: '     1\timport os\n     2\tprint("loaded")\n     3\tKEY = "AKIAIOSFODNN7EXAMPLE"' }] });

    const second = await turn(messages);
    expect(second.calls.map((c) => c.name)).toEqual(['report_findings']);
    const input = second.calls[0]?.input as { findings: { file: string; line: number; severity: string }[]; summary: string };
    expect(input.findings.map((f) => `${f.severity} ${f.file}:${f.line}`)).toEqual([
      'critical src/cart.js:16',
      'critical config.py:3',
      'low src/cart.js:3',
      'low src/cart.js:4',
      'low src/cart.js:17',
      'low config.py:2',
    ]);
    messages.push({ role: 'assistant', content: second.calls });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: second.calls[0]?.id ?? '', content: 'Reported 6 findings' }] });

    const last = await turn(messages);
    expect(last.calls).toEqual([]);
    expect(last.text).toContain('Reported 6 findings as cards');
    expect(last.text).toContain("offline model's stand-in review");
  });

  it('a clean diff: report_findings with no findings, then says the diff looks clean', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'a.js'), 'export const a = 1;\n');
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'one');
    await writeFile(path.join(dir, 'a.js'), 'export const a = 2;\n');
    const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: await reviewPrompt(dir) }] }];
    const first = await turn(messages);
    expect(first.calls.map((c) => [c.name, (c.input as { findings: unknown[] }).findings])).toEqual([['report_findings', []]]);
    messages.push({ role: 'assistant', content: first.calls });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: first.calls[0]?.id ?? '', content: 'Reported no findings to the user.' }] });
    expect((await turn(messages)).text).toContain('No findings: the diff looks clean');
  });
});
