import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';

// Ink styles through chalk, which sees no TTY here; force colour so the cursor's inverse shows.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});
import stringWidth from 'string-width';
import { PromptBox, promptBoxHeight } from '../../../components/prompt/PromptBox.js';
import type { EditorState } from '../../../components/prompt/editor.js';
import { CARET_MARK } from '../../../components/terminal/caret.js';

const strip = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, '');
const at = (text: string, cursor = text.length): EditorState => ({ text, cursor, pastes: [] });

function frame(el: React.ReactElement): string {
  const app = render(el);
  const out = app.lastFrame() ?? '';
  app.unmount();
  return out;
}

describe('PromptBox', () => {
  it('draws a round bordered box with the prompt and text', () => {
    const out = strip(frame(<PromptBox state={at('hello')} width={30} focused={false} />));
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^╭─+╮$/);
    expect(lines[1]).toMatch(/^│ > hello +│$/);
    expect(lines[2]).toMatch(/^╰─+╯$/);
    expect(lines.every((l) => stringWidth(l) === 30)).toBe(true);
  });

  it('shows the cursor as an inverse cell only when focused', () => {
    const focused = frame(<PromptBox state={at('abc', 1)} width={30} focused />);
    // The caret cell carries the mark the frame writer puts the hardware cursor at.
    expect(focused).toContain(`a\x1b[7m${CARET_MARK}b\x1b[27mc`);
    const blurred = frame(<PromptBox state={at('abc', 1)} width={30} focused={false} />);
    expect(blurred).not.toContain('\x1b[7m');
    const atEnd = frame(<PromptBox state={at('abc')} width={30} focused />);
    expect(atEnd).toContain(`abc\x1b[7m${CARET_MARK} `);
  });

  it('wraps long text at words and counts wide characters as two columns', () => {
    const text = '漢字漢字漢字漢字漢字 more words here';
    const out = strip(frame(<PromptBox state={at(text)} width={20} focused={false} />));
    const lines = out.split('\n');
    expect(lines.every((l) => stringWidth(l) === 20)).toBe(true);
    expect(lines[1]).toBe('│ > 漢字漢字漢字漢 │');
    expect(lines.slice(1, -1).map((l) => l.slice(4, -1).trim()).join('|')).toBe('漢字漢字漢字漢|字漢字 more|words here');
    expect(promptBoxHeight(at(text), 20, 10)).toBe(lines.length);
  });

  it('renders newlines as rows and keeps the view on the cursor within maxLines', () => {
    const text = Array.from({ length: 8 }, (_, i) => `line ${i}`).join('\n');
    const end = strip(frame(<PromptBox state={at(text)} width={30} focused maxLines={3} />));
    expect(end).toContain('line 7');
    expect(end).not.toContain('line 4');
    expect(end.split('\n')).toHaveLength(5);
    const top = strip(frame(<PromptBox state={at(text, 0)} width={30} focused maxLines={3} />));
    expect(top).toContain('> line 0');
    expect(top).not.toContain('line 3');
    expect(promptBoxHeight(at(text), 30, 3)).toBe(5);
  });

  it('a cursor after a full row gets a row of its own', () => {
    const text = 'x'.repeat(24); // text width is 30 - 6 = 24
    expect(promptBoxHeight(at(text), 30, 10)).toBe(4);
    expect(promptBoxHeight(at(text, 3), 30, 10)).toBe(3);
  });

  it('shows the placeholder dimmed when empty', () => {
    const out = frame(<PromptBox state={at('')} width={40} focused placeholder="Ask cairn" />);
    expect(strip(out)).toContain('> Ask cairn');
    expect(out).toContain(`\x1b[7m${CARET_MARK}A\x1b[27m`);
  });
});
