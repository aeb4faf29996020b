import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createBuiltinTools } from '../../../src/tools/builtin.js';

describe('createBuiltinTools', () => {
  it('returns the built-in tools in order', () => {
    expect(createBuiltinTools().map((t) => t.name)).toEqual([
      'read_file',
      'write_file',
      'edit_file',
      'list_dir',
      'glob',
      'grep',
      'bash',
    ]);
  });

  it('gives every tool a JSON-Schema-expressible input with described fields', () => {
    for (const tool of createBuiltinTools()) {
      const schema = z.toJSONSchema(tool.inputSchema) as { type: string; properties: Record<string, { description?: string }> };
      expect(schema.type, tool.name).toBe('object');
      for (const [field, prop] of Object.entries(schema.properties)) {
        expect(prop.description, `${tool.name}.${field}`).toBeTruthy();
      }
      expect(tool.description.length, tool.name).toBeGreaterThan(50);
    }
  });
});
