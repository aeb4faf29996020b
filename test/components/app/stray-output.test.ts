import { EventEmitter } from 'node:events';
import { Console } from 'node:console';
import { describe, expect, it } from 'vitest';
import { captureOutput, createStrayNotices, type StrayOutput } from '../../../components/app/stray-output.js';
import { FakeStdout } from '../../helpers/fake-tty.js';

function rig() {
  const stdout = new FakeStdout(80, 24);
  const stderr = new FakeStdout(80, 24);
  const cons = new Console({ stdout: stdout as unknown as NodeJS.WriteStream, stderr: stderr as unknown as NodeJS.WriteStream });
  const proc = new EventEmitter();
  const nodeDefault = (): void => void stderr.write('(node) default warning printer\n');
  proc.on('warning', nodeDefault);
  const seen: StrayOutput[] = [];
  const capture = captureOutput({
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stderr as unknown as NodeJS.WriteStream,
    console: cons,
    process: proc,
    onOutput: (o) => seen.push(o),
  });
  return { stdout, stderr, cons, proc, nodeDefault, seen, capture };
}

describe('captureOutput', () => {
  it('keeps console output, warnings and stray writes off the terminal while the app draws through screen', () => {
    const t = rig();
    t.cons.warn("The model '%s' is deprecated", 'claude-sonnet-4-5');
    t.cons.log('hello');
    t.proc.emit('warning', Object.assign(new Error('Buffer() is deprecated'), { name: 'DeprecationWarning', code: 'DEP0005' }));
    (t.stdout as unknown as NodeJS.WriteStream).write('stray stdout');
    (t.stderr as unknown as NodeJS.WriteStream).write(Buffer.from('stray stderr'));
    t.capture.screen.write('FRAME');

    expect(t.stdout.out).toBe('FRAME');
    expect(t.stderr.out).toBe('');
    expect(t.seen).toEqual([
      { source: 'console.warn', text: "The model 'claude-sonnet-4-5' is deprecated" },
      { source: 'console.log', text: 'hello' },
      { source: 'warning', text: 'DeprecationWarning [DEP0005]: Buffer() is deprecated' },
      { source: 'stdout', text: 'stray stdout' },
      { source: 'stderr', text: 'stray stderr' },
    ]);
    // The screen is the stream itself for everything but write.
    expect(t.capture.screen.columns).toBe(80);
    let resized = false;
    t.capture.screen.on('resize', () => (resized = true));
    t.stdout.emit('resize');
    expect(resized).toBe(true);
  });

  it('puts everything back on restore', () => {
    const t = rig();
    t.capture.restore();
    t.cons.warn('after');
    (t.stdout as unknown as NodeJS.WriteStream).write('out');
    t.proc.emit('warning', new Error('w'));
    expect(t.seen).toEqual([]);
    expect(t.stderr.out).toBe('after\n(node) default warning printer\n');
    expect(t.stdout.out).toBe('out');
    expect(t.proc.listeners('warning')).toEqual([t.nodeDefault]);
    expect(Object.getOwnPropertyNames(t.stdout)).not.toContain('write');
  });

  it('calls a write callback as a stream would', async () => {
    const t = rig();
    await new Promise<void>((resolve) => (t.stdout as unknown as NodeJS.WriteStream).write('x', () => resolve()));
    await new Promise<void>((resolve) => (t.stdout as unknown as NodeJS.WriteStream).write('y', 'utf8', () => resolve()));
    expect(t.seen.map((o) => o.text)).toEqual(['x', 'y']);
  });
});

describe('createStrayNotices', () => {
  it('logs every piece, shows each distinct one once, and stops after a few with a pointer to the log', () => {
    const logged: string[] = [];
    const shown: string[] = [];
    const stray = createStrayNotices({ log: (l) => logged.push(l), notify: (m) => shown.push(m), logPath: '/h/logs/tui.log', maxNotices: 2 });
    stray({ source: 'console.warn', text: '\x1b[33mdeprecated model\x1b[0m\n' });
    stray({ source: 'console.warn', text: 'deprecated model' });
    stray({ source: 'stdout', text: '\r\n' });
    stray({ source: 'stderr', text: 'two' });
    stray({ source: 'stderr', text: 'three' });
    stray({ source: 'stderr', text: 'four' });
    expect(logged).toEqual(['console.warn: deprecated model', 'console.warn: deprecated model', 'stderr: two', 'stderr: three', 'stderr: four']);
    expect(shown).toEqual([
      'console.warn (kept off the screen, also in /h/logs/tui.log):\ndeprecated model',
      'stderr (kept off the screen, also in /h/logs/tui.log):\ntwo',
      'More output from libraries was kept off the screen; it is in /h/logs/tui.log',
    ]);
  });
});
