import { describe, expect, it } from 'vitest';
import { emptyEditor, enter, insertAttachment, insertText } from '../../../components/prompt/editor.js';
import { draftWithQueued } from '../../../components/prompt/queued-draft.js';
import type { ImageBlock } from '../../../src/messages.js';

const image = (name: string): ImageBlock => ({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' }, name, width: 10, height: 20, bytes: 8 });
const chip = (name: string): string => `[image ${name} · 10x20]`;

describe('queued prompts taken back into the draft', () => {
  it('two taken prompts with the same picture get chips told apart, and Enter sends both pictures', () => {
    const a = image('a.png');
    const draft = draftWithQueued(
      [
        { text: `${chip('a.png')} first`, attachments: [a] },
        { text: `second ${chip('a.png')} `, attachments: [a] },
      ],
      insertAttachment(insertText(emptyEditor(), 'draft '), chip('a.png'), a),
    );
    expect(draft.text).toBe('[image a.png · 10x20 #2] first\nsecond [image a.png · 10x20 #3] \ndraft [image a.png · 10x20] ');
    expect(draft.pastes.map((p) => p.placeholder)).toEqual([`${chip('a.png')} `, '[image a.png · 10x20 #2] ', '[image a.png · 10x20 #3] ']);
    expect(draft.cursor).toBe(draft.text.length);
    expect(enter(draft).attachments).toHaveLength(3);
  });

  it('an attachment whose chip is not in the text (a @mention attaches it again) is not made a chip', () => {
    const draft = draftWithQueued([{ text: 'look at @b.png', attachments: [image('b.png')] }], emptyEditor());
    expect(draft.text).toBe('look at @b.png');
    expect(draft.pastes).toEqual([]);
  });

  it('a chip at the very end (no space after it) still comes back as one unit', () => {
    const draft = draftWithQueued([{ text: `see ${chip('c.png')}`, attachments: [image('c.png')] }], emptyEditor());
    expect(draft.text).toBe(`see ${chip('c.png')} `);
    expect(draft.pastes.map((p) => p.placeholder)).toEqual([`${chip('c.png')} `]);
  });
});
