import { describe, expect, it } from 'vitest';
import { KEEP_RECENT_PROMPT_ATTACHMENTS, microCompact } from '../../../src/context/micro-compact.js';
import { userPrompt, type AttachmentBlock, type Message } from '../../../src/messages.js';

const shot = (name: string): AttachmentBlock => ({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' }, name, width: 800, height: 600, bytes: 8 });
const reply = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });

describe('images the user attached to old prompts', () => {
  const history: Message[] = [];
  for (let i = 1; i <= KEEP_RECENT_PROMPT_ATTACHMENTS + 2; i++) history.push(userPrompt(`look at shot ${i}`, [shot(`shot${i}.png`)]), reply(`seen ${i}`));
  history.push(userPrompt('and now without a picture'));

  it('are named, not sent, beyond the latest prompts that carried any; the prompt text stays', () => {
    const sent = microCompact(history);
    const images = sent.flatMap((m) => m.content.filter((b) => b.type === 'image').map((b) => (b as AttachmentBlock).name));
    expect(images).toEqual(['shot3.png', 'shot4.png', 'shot5.png']);
    expect(sent[0]!.content).toEqual([
      { type: 'text', text: 'look at shot 1' },
      { type: 'text', text: '[image shot1.png attached to this prompt, dropped from the context to save space; ask the user to attach it again if you need it.]' },
    ]);
  });

  it('stay in the history itself, and the same request is built the same way twice (the cached prefix holds)', () => {
    const before = JSON.stringify(history);
    expect(microCompact(history)).toEqual(microCompact(history));
    expect(JSON.stringify(history)).toBe(before);
  });

  it('are all sent while few prompts carried any', () => {
    const short = history.slice(-2 * KEEP_RECENT_PROMPT_ATTACHMENTS - 1);
    expect(microCompact(short)).toBe(short);
  });
});
