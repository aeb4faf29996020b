import { describe, expect, it } from 'vitest';
import { toolRenderer } from '../../../components/transcript/tool-renderers.js';
import type { ToolItem } from '../../../components/store/types.js';
import type { ToolDisplay } from '../../../src/tools/display.js';

const card = (display: Partial<ToolDisplay>): ToolItem => ({ display: { path: 'a.txt', diff: '', ...display } }) as unknown as ToolItem;

describe('write_file and edit_file summaries', () => {
  it('count lines in the singular and the plural', () => {
    const summary = toolRenderer('write_file').summary!;
    expect(summary(card({ kind: 'write_file', created: true, lines: 1 }))).toBe('created, 1 line');
    expect(summary(card({ kind: 'write_file', created: false, lines: 0 }))).toBe('wrote, 0 lines');
    expect(summary(card({ kind: 'write_file', created: true, lines: 12 }))).toBe('created, 12 lines');
    expect(toolRenderer('edit_file').summary!(card({ kind: 'edit_file', replacements: 1 }))).toBe('1 replacement');
  });
});
