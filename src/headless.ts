import type { AgentEvent, EventOf } from './events.js';
import type { Runtime } from './bootstrap.js';
import type { Usage } from './usage.js';
import { usageIn } from './runtime/usage-log.js';

export type OutputFormat = 'text' | 'json' | 'stream-json';

export interface HeadlessIO {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
}

/** Runs one prompt to completion without a screen. Returns the process exit code. */
export async function runHeadless(runtime: Runtime, prompt: string, format: OutputFormat, io: HeadlessIO): Promise<number> {
  const { session } = runtime;
  const usage: Usage = { input_tokens: 0, output_tokens: 0 };
  const started = Date.now();
  const onEvent = (event: AgentEvent): void => {
    for (const u of usageIn(event)) {
      usage.input_tokens += u.usage.input_tokens;
      usage.output_tokens += u.usage.output_tokens;
    }
    if (format === 'stream-json') io.stdout.write(`${JSON.stringify(event)}\n`);
    else if (event.type === 'notice' && event.level !== 'info') io.stderr.write(`cairn: ${event.level}: ${event.message}\n`);
  };
  const unsubscribe = session.subscribe(onEvent);
  const start = session.sessionStart();
  if (format === 'stream-json') io.stdout.write(`${JSON.stringify(start)}\n`);
  if (start.offline && format !== 'stream-json') {
    io.stderr.write('cairn: no provider configured, using the offline scripted model (set ANTHROPIC_API_KEY or OPENAI_API_KEY, or see --list-providers)\n');
  }

  const onSigint = (): void => {
    session.abort();
  };
  process.on('SIGINT', onSigint);
  let terminal: EventOf<'terminal'>;
  try {
    terminal = await session.run(prompt);
  } finally {
    process.off('SIGINT', onSigint);
    unsubscribe();
  }

  if (format === 'text') {
    if (terminal.result) io.stdout.write(terminal.result.endsWith('\n') ? terminal.result : `${terminal.result}\n`);
  } else if (format === 'json') {
    io.stdout.write(
      `${JSON.stringify({
        type: 'result',
        reason: terminal.reason,
        result: terminal.result ?? '',
        turns: terminal.turns,
        duration_ms: Date.now() - started,
        usage,
        ...(terminal.error ? { error: terminal.error } : {}),
      })}\n`,
    );
  }
  if (terminal.reason === 'completed') return 0;
  const why = terminal.error ?? (terminal.reason === 'aborted' ? 'interrupted' : terminal.reason);
  io.stderr.write(`cairn: ${terminal.reason}: ${why}\n`);
  return terminal.reason === 'aborted' ? 130 : 1;
}
