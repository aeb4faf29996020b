// The real-terminal suites skip when tmux is missing; under CI that must fail instead, or a CI
// image without tmux would report them green without running one.
import { describe, expect, it } from 'vitest';
import { TmuxTerminal } from './tmux.js';

// A PATH with no tmux on it: the probe runs the real lookup and finds nothing.
const noTmux = { PATH: '/nonexistent-cairn-test-bin' };

describe('TmuxTerminal.available', () => {
  it('is false where tmux is missing outside CI, so a developer without it skips the suites', () => {
    expect(TmuxTerminal.available(noTmux)).toBe(false);
  });

  it('throws where tmux is missing under CI, naming what to install', () => {
    expect(() => TmuxTerminal.available({ ...noTmux, CI: 'true' })).toThrow('tmux is not installed: under CI the real-terminal tests must run');
  });

  it('is true where tmux is installed', () => {
    expect(TmuxTerminal.available({ PATH: process.env['PATH'] ?? '' })).toBe(true);
  });
});
