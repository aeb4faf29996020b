import { mkdir, mkdtemp, realpath, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createReportFindingsTool } from '../../../src/tools/report-findings.js';

const finding = (file: string, line: number) => ({ file, line, severity: 'high' as const, title: 't', why: 'w', fix: 'f' });

describe('report_findings', () => {
  it("shows the lines around each place inside the workspace, and reads nothing outside it (a path or a link that leads out)", async () => {
    const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'cairn-findings-')));
    const ws = path.join(base, 'ws');
    await mkdir(path.join(ws, 'src'), { recursive: true });
    await writeFile(path.join(ws, 'src', 'a.js'), Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
    await writeFile(path.join(base, 'secret.txt'), 'TOKEN=abc\n');
    await symlink(path.join(base, 'secret.txt'), path.join(ws, 'link.txt'));
    const tool = createReportFindingsTool();
    const input = tool.inputSchema.parse({ findings: [finding('src/a.js', 10), finding('../secret.txt', 1), finding('link.txt', 1), finding(path.join(ws, 'src', 'a.js'), 20)] });
    const result = await tool.call(input, { cwd: ws, signal: new AbortController().signal });
    expect(result.isError).toBeUndefined();
    expect(result.content).toContain('Reported 4 findings (4 high) to the user');
    const shown = result.display?.kind === 'report_findings' ? result.display.findings : [];
    expect(shown[0]?.excerpt).toEqual({ start: 4, lines: Array.from({ length: 13 }, (_, i) => `line ${i + 4}`) });
    expect(shown[1]?.excerpt).toBeUndefined();
    expect(shown[2]?.excerpt).toBeUndefined();
    expect(JSON.stringify(result)).not.toContain('TOKEN');
    // An absolute path inside the workspace is shown relative, and the excerpt stops at the file's end.
    expect(shown[3]?.file).toBe('src/a.js');
    expect(shown[3]?.excerpt?.lines.at(-1)).toBe('line 20');
  });

  it('refuses a finding without a line or with an unknown severity (the schema the model is given)', () => {
    const tool = createReportFindingsTool();
    expect(tool.inputSchema.safeParse({ findings: [{ ...finding('a', 1), severity: 'urgent' }] }).success).toBe(false);
    expect(tool.inputSchema.safeParse({ findings: [{ ...finding('a', 0) }] }).success).toBe(false);
  });
});
