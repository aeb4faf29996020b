import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentEventSchema } from '../../src/events.js';
import { eventCatalogue, readEvents } from './event-catalogue.js';

const root = path.resolve(import.meta.dirname, '../..');
const source = (): string => fs.readFileSync(path.join(root, 'src/events.ts'), 'utf8');

interface ZodShaped {
  shape?: Record<string, unknown>;
  def: { type: string; in?: { shape?: Record<string, unknown> } };
}

/** The union's members as zod holds them: each type with its field names (a transformed one through its input). */
function schemaEvents(): Map<string, string[]> {
  const options = (AgentEventSchema as unknown as { options: ZodShaped[] }).options;
  const out = new Map<string, string[]>();
  for (const option of options) {
    const shape = option.shape ?? option.def.in?.shape;
    if (!shape) throw new Error(`an event schema of kind ${option.def.type} has no object shape`);
    const literal = (shape['type'] as { value: string }).value;
    out.set(literal, Object.keys(shape).filter((k) => k !== 'type'));
  }
  return out;
}

describe('event catalogue (docs/events.md)', () => {
  it('is what `npm run docs:events` writes from src/events.ts today', () => {
    const committed = fs.readFileSync(path.join(root, 'docs/events.md'), 'utf8');
    // On failure: run `npm run docs:events` and commit docs/events.md.
    expect(committed).toBe(eventCatalogue(source()));
  });

  it('lists every event the schema accepts, with the fields zod declares', () => {
    const read = new Map(readEvents(source()).map((e) => [e.type, e.fields.map((f) => f.name)]));
    expect(read).toEqual(schemaEvents());
  });

  it('notices an event added to the source', () => {
    const added = source().replace(
      "z.object({ type: z.literal('clear') }),",
      "z.object({ type: z.literal('clear') }),\n  // Says hello.\n  z.object({ type: z.literal('hello'), who: z.string().optional() }),",
    );
    const events = readEvents(added);
    expect(events.find((e) => e.type === 'hello')).toEqual({
      type: 'hello',
      comment: 'Says hello.',
      fields: [{ name: 'who', type: 'string', optional: true, comment: '' }],
    });
    expect(eventCatalogue(added)).not.toBe(eventCatalogue(source()));
  });
});
