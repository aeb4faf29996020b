import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { typeAheadKeys, watchTypeAhead } from '../../../components/prompt/type-ahead.js';

/** Reads as Ink does: every chunk available on each 'readable'. */
function inkReader(input: PassThrough): string[] {
  const reads: string[] = [];
  input.on('readable', () => {
    let chunk: string | null;
    while ((chunk = input.read() as string | null) !== null) reads.push(chunk);
  });
  return reads;
}

const settle = () => new Promise((r) => setImmediate(r));

describe('keys typed while cairn starts', () => {
  it('the first read has its newlines made Enter, every byte kept and in order; later reads are untouched', async () => {
    const input = new PassThrough({ encoding: 'utf8' });
    const dispose = watchTypeAhead(input);
    const reads = inkReader(input);
    input.write('héllo there\n');
    await settle();
    input.write('one\ntwo');
    await settle();
    dispose();
    expect(reads).toEqual(['héllo there\r', 'one\ntwo']);
  });

  it('read before Ink listens (no encoding yet): the chunk waits, converted, for Ink', async () => {
    const input = new PassThrough();
    watchTypeAhead(input);
    input.write(Buffer.from('ab\n€\n'));
    await settle();
    input.setEncoding('utf8');
    const reads = inkReader(input);
    await settle();
    expect(reads).toEqual(['ab\r€\r']);
  });

  it('maps bytes without touching multibyte characters', () => {
    expect(typeAheadKeys(Buffer.from('€\n')).toString('utf8')).toBe('€\r');
    expect(typeAheadKeys('a\nb')).toBe('a\rb');
  });
});
