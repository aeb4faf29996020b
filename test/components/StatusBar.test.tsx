import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { StatusBar } from '../../components/StatusBar.js';
import { createStore } from '../../components/store/create-store.js';
import { createTheme } from '../../components/theme/theme.js';
import { clipLine, paint, stripAnsi, textWidth, wrapText } from '../../components/theme/ansi.js';
import { waitFor } from '../helpers/wait-for.js';

function setup(now: () => number) {
  const store = createStore(undefined, { now, frameMs: 1 });
  const app = render(<StatusBar store={store} width={100} />);
  const frame = (): string => app.lastFrame() ?? '';
  return { store, app, frame };
}

describe('StatusBar', () => {
  it('shows what the agent is doing: thinking, running tools, waiting for approval', async () => {
    const t0 = Date.now();
    const { store, frame, app } = setup(() => t0 - 3200);
    store.enqueue({ type: 'user_prompt', text: 'go' });
    store.flushNow();
    // The phase began 3.2 s before the store's clock started; the bar counts from there on the real clock,
    // so on a slow machine it may already read more by the time the frame is looked at.
    await waitFor(() => {
      const shown = /thinking (\d+(?:\.\d)?)s/.exec(stripAnsi(frame()))?.[1];
      return shown !== undefined && Number(shown) >= 3.2 && Number(shown) < 60;
    });
    store.enqueue({ type: 'tool_start', id: 'a', name: 'bash', input: {}, parallel: true, batch: 1 });
    store.enqueue({ type: 'tool_start', id: 'b', name: 'bash', input: {}, parallel: true, batch: 1 });
    store.flushNow();
    await waitFor(() => stripAnsi(frame()).includes('running 2 tools'));
    store.enqueue({ type: 'permission_request', id: 'a', name: 'bash', input: {}, reason: 'r', suggestions: [] });
    store.flushNow();
    await waitFor(() => stripAnsi(frame()).includes('waiting for approval'));
    app.unmount();
  });

  it('while the model\'s question is open it says it waits for an answer, not for an approval', async () => {
    const { store, frame, app } = setup(Date.now);
    store.enqueue({ type: 'user_prompt', text: 'go' });
    store.enqueue({ type: 'tool_start', id: 'q', name: 'ask_user_question', input: {}, parallel: false, batch: 1 });
    const questions = [{ question: 'Which database?', header: 'DB', multiSelect: false, options: [{ label: 'Postgres', description: 'p' }, { label: 'SQLite', description: 's' }] }];
    store.enqueue({ type: 'permission_request', id: 'q', request_id: 'ask_1', name: 'ask_user_question', input: { questions }, reason: '', suggestions: [] });
    store.flushNow();
    await waitFor(() => stripAnsi(frame()).includes('waiting for your answer'));
    expect(stripAnsi(frame())).not.toContain('approval');
    app.unmount();
  });

  it('colours the context bar green, yellow, red at 50% and 80%, and totals tokens', async () => {
    const { store, frame, app } = setup(Date.now);
    const use = (input: number): void => {
      store.enqueue({ type: 'usage', usage: { input_tokens: input, output_tokens: 1000 } });
      store.flushNow();
    };
    use(40_000);
    await waitFor(() => stripAnsi(frame()).includes('41.0k/200k'));
    expect(frame()).toContain('\x1b[32m▰▰');
    use(120_000);
    await waitFor(() => stripAnsi(frame()).includes('121k/200k'));
    expect(frame()).toContain('\x1b[33m▰');
    use(170_000);
    await waitFor(() => frame().includes('\x1b[31m▰'));
    expect(stripAnsi(frame())).toContain('↑330k ↓3.0k');
    app.unmount();
  });
});

describe('the context bar\'s limit', () => {
  it('is written as model pages write a window: 1M, 40k, 32.8k (not 1000k or 40.0k)', async () => {
    const { store, frame, app } = setup(Date.now);
    const start = (window: number): void => {
      store.enqueue({ type: 'session_start', provider: 'anthropic', model: 'm', cwd: '/w', permission_mode: 'default', tools: [], offline: false, context_window: window });
      store.flushNow();
    };
    start(1_000_000);
    await waitFor(() => stripAnsi(frame()).includes('0/1M'));
    start(40_000);
    await waitFor(() => stripAnsi(frame()).includes('0/40k'));
    start(32_768);
    await waitFor(() => stripAnsi(frame()).includes('0/32.8k'));
    app.unmount();
  });
});

describe('theme and line helpers', () => {
  it('NO_COLOR removes every colour code', () => {
    const plain = createTheme('dark', { NO_COLOR: '1' });
    expect(paint(plain, 'error', 'x')).toBe('x');
    expect(paint(createTheme('dark', {}), 'error', 'x')).toBe('\x1b[31mx\x1b[0m');
    expect(createTheme('light', {}).colors.diffAdd).not.toBe(createTheme('dark', {}).colors.diffAdd);
  });

  it('clips and wraps by display width, wide characters and escape codes included', () => {
    expect(clipLine('\x1b[31mhello world\x1b[0m', 5)).toBe('\x1b[31mhello\x1b[0m');
    expect(textWidth(clipLine('日本語テキスト', 5))).toBe(4);
    expect(wrapText('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrapText('日本語テ', 4)).toEqual(['日本', '語テ']);
  });
});
