import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../../components/store/types.js';
import { answerAt, codeBlocks, recentCodeBlocks } from '../../../components/transcript/copy-text.js';
import { scrollbackText } from '../../../components/transcript/scrollback-text.js';

const items: TranscriptItem[] = [
  { kind: 'user', id: 'u1', text: 'hi' },
  { kind: 'assistant', id: 'a1', text: 'one\n```js\nx()\n```', streaming: false },
  { kind: 'user', id: 'u2', text: 'again\nand more' },
  { kind: 'assistant', id: 'a2', text: '\x1b]52;c;ZXZpbA==\x07two ~~~\n~~~~ py\nprint(1)\n~~~~\n````\nunclosed', streaming: false },
];

describe('copy text', () => {
  it('answers newest first; code blocks of ``` and ~~~ fences, an unclosed one to the end', () => {
    expect(answerAt(items, 2)).toBe('one\n```js\nx()\n```');
    expect(answerAt(items, 3)).toBeUndefined();
    expect(codeBlocks('```\na\n```')).toEqual([{ lang: '', text: 'a' }]);
    expect(recentCodeBlocks(items)).toEqual([
      { lang: 'py', text: 'print(1)' },
      { lang: '', text: 'unclosed' },
      { lang: 'js', text: 'x()' },
    ]);
  });

  it('scrollback: prompts and answers as plain text, escape sequences from the model removed', () => {
    const text = scrollbackText(items, 'full');
    expect(text).toBe('> hi\n\none\n```js\nx()\n```\n\n> again\n  and more\n\ntwo ~~~\n~~~~ py\nprint(1)\n~~~~\n````\nunclosed\n\n');
    expect(scrollbackText(items, 'last-answer')).toMatch(/^two ~~~/);
    expect(scrollbackText(items, 'none')).toBe('');
  });
});
