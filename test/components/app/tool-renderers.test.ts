import { describe, expect, it } from 'vitest';
import { toolRenderer } from '../../../components/app/tool-renderers.js';
import type { ToolItem } from '../../../components/store/types.js';

const card = (display: Record<string, unknown>): ToolItem => ({ display }) as unknown as ToolItem;

describe('write_file and edit_file summaries', () => {
  it('count lines in the singular and the plural', () => {
    const summary = toolRenderer('write_file').summary!;
    expect(summary(card({ created: true, lines: 1 }))).toBe('created, 1 line');
    expect(summary(card({ created: false, lines: 0 }))).toBe('wrote, 0 lines');
    expect(summary(card({ created: true, lines: 12 }))).toBe('created, 12 lines');
    expect(toolRenderer('edit_file').summary!(card({ replacements: 1 }))).toBe('1 replacement');
  });
});
