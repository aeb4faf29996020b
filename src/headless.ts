import type { AgentEvent, EventOf } from './events.js';
import type { Runtime } from './bootstrap.js';
import { costOf, priceFor, type TokenCounts } from './pricing.js';
import type { Usage } from './usage.js';
import { usageIn } from './usage-events.js';
import { initLine, mcpServerLines, ResultTracker } from './headless-result.js';
import { stripTerminalControls } from './util/terminal-text.js';
import { hookLine } from './runtime/hook-wiring.js';
import { PartialMessageLines } from './headless-partial.js';
import { checkStructuredOutput, structuredRetryPrompt } from './headless-structured.js';
import type { ZodType } from 'zod';
import type { StreamJsonInput, UserMessage } from './headless-input.js';
import { answerQuestionsFrom } from './headless-questions.js';
import { readyHeadlessPrompt } from './headless-attachments.js';

export type OutputFormat = 'text' | 'json' | 'stream-json';

/** Claude Code's options for what a headless run prints. */
export interface HeadlessOptions {
  /** --json-schema: the final answer must be JSON matching this (checked; one retry). */
  structured?: ZodType;
  /** --include-partial-messages: stream-json carries `stream_event` lines with the raw deltas. */
  partialMessages?: boolean;
  /** --input-format stream-json: the client answers the model's questions (headless-questions.ts). */
  input?: StreamJsonInput;
}

export interface HeadlessIO {
  /** A terminal gets model text with control sequences removed; a pipe or file gets it exact. */
  stdout: { write(s: string): unknown; isTTY?: boolean };
  stderr: { write(s: string): unknown; isTTY?: boolean };
}

/** What goes to a terminal is shown, never obeyed: the model's text may carry escapes. */
function forStream(stream: HeadlessIO['stdout'], text: string): string {
  return stream.isTTY ? stripTerminalControls(text) : text;
}

/** Runs one prompt to completion without a screen. Returns the process exit code. */
export async function runHeadless(
  runtime: Runtime,
  first: string | UserMessage,
  format: OutputFormat,
  io: HeadlessIO,
  /** `--input-format stream-json`: the next user message, or undefined when the input has ended. */
  nextPrompt?: () => Promise<UserMessage | undefined>,
  options: HeadlessOptions = {},
): Promise<number> {
  const { session } = runtime;
  const usage: Usage = { input_tokens: 0, output_tokens: 0 };
  const byModel = new Map<string, TokenCounts>();
  const started = Date.now();
  const tracker = new ResultTracker();
  let turnStarted = started;
  const partial = format === 'stream-json' && options.partialMessages ? new PartialMessageLines(runtime.sessionId) : undefined;
  // --json-schema: the checked answer, or why the last one could not be used.
  let structured: { value: unknown } | { problem: string } | undefined;
  const resultOf = (terminal: EventOf<'terminal'>): Record<string, unknown> => {
    const result = tracker.result({ terminal, sessionId: runtime.sessionId, durationMs: Date.now() - turnStarted, usage, costUsd: estimatedCost(runtime, byModel), turns: terminal.turns });
    if (structured && 'value' in structured) return { ...result, structured_output: structured.value };
    if (structured) return { ...result, subtype: 'error_max_structured_output_retries', is_error: true, errors: [`--json-schema: ${structured.problem}`] };
    return result;
  };
  const onEvent = (event: AgentEvent): void => {
    tracker.observe(event);
    for (const u of usageIn(event)) {
      usage.input_tokens += u.usage.input_tokens;
      usage.output_tokens += u.usage.output_tokens;
      usage.cache_read_input_tokens = (usage.cache_read_input_tokens ?? 0) + (u.usage.cache_read_input_tokens ?? 0);
      usage.cache_creation_input_tokens = (usage.cache_creation_input_tokens ?? 0) + (u.usage.cache_creation_input_tokens ?? 0);
      const model = u.model ?? session.model;
      const was = byModel.get(model) ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
      byModel.set(model, {
        input: was.input + u.usage.input_tokens,
        output: was.output + u.usage.output_tokens,
        cacheRead: was.cacheRead + (u.usage.cache_read_input_tokens ?? 0),
        cacheWrite: was.cacheWrite + (u.usage.cache_creation_input_tokens ?? 0),
      });
    }
    for (const line of partial?.linesFor(event) ?? []) io.stdout.write(`${JSON.stringify(line)}\n`);
    if (format === 'stream-json') io.stdout.write(`${JSON.stringify(event)}\n`);
    else if (event.type === 'notice' && event.level !== 'info') io.stderr.write(forStream(io.stderr, `cairn: ${event.level}: ${event.message}\n`));
    // A hook that failed decided nothing, so the call it guarded went ahead: never silently.
    else if (event.type === 'hook' && event.outcome === 'error') io.stderr.write(`cairn: ${hookLine(event)}\n`);
  };
  const unsubscribe = session.subscribe(onEvent);
  const stopQuestions = options.input && format === 'stream-json' ? answerQuestionsFrom(options.input, session, (line) => io.stdout.write(`${JSON.stringify(line)}\n`)) : undefined;
  const start = session.sessionStart();
  // Claude Code's init line first, so its scripts find session_id, model, tools and permissionMode there.
  if (format === 'stream-json') io.stdout.write(`${JSON.stringify(initLine(start, runtime.sessionId, mcpServerLines(runtime.mcp?.statuses() ?? [])))}\n${JSON.stringify(start)}\n`);
  if (start.offline && format !== 'stream-json') {
    io.stderr.write('cairn: no provider configured, using the offline scripted model (set ANTHROPIC_API_KEY or OPENAI_API_KEY, or see --list-providers)\n');
  }

  const onSigint = (): void => {
    session.abort();
  };
  process.on('SIGINT', onSigint);
  let terminal: EventOf<'terminal'> | undefined;
  let refused = false;
  let message: UserMessage = typeof first === 'string' ? { text: first, media: [] } : first;
  try {
    // One turn per user message: the prompt, then (stream-json input) each line that follows.
    for (;;) {
      // Images and PDFs it names or carries go with it; one that cannot go stops the run before anything is sent.
      const ready = await readyHeadlessPrompt(runtime, message.text, message.media);
      if ('problems' in ready) {
        for (const problem of ready.problems) io.stderr.write(forStream(io.stderr, `cairn: not sent: ${problem}\n`));
        refused = true;
        break;
      }
      const prompt = ready.text;
      // `/name args` naming a skill or custom command becomes its prompt (the TUI does the same).
      session.noteUserPrompt(prompt);
      const prepared = await runtime.skills.prepare(prompt);
      if (prepared?.blocked !== undefined) {
        io.stderr.write(forStream(io.stderr, `cairn: not sent: ${prepared.blocked}\n`));
        refused = true;
        break;
      }
      terminal = await session.run(prepared?.prompt ?? prompt, ready.attachments);
      if (options.structured && terminal.reason === 'completed') {
        let check = checkStructuredOutput(terminal.result ?? '', options.structured);
        // One retry with what was wrong, as Claude Code gives; then the run ends in an error result.
        if (!check.ok) {
          terminal = await session.run(structuredRetryPrompt(check.problem));
          if (terminal.reason === 'completed') check = checkStructuredOutput(terminal.result ?? '', options.structured);
        }
        structured = terminal.reason !== 'completed' ? undefined : check.ok ? { value: check.value } : { problem: check.problem };
      }
      if (format === 'stream-json') io.stdout.write(`${JSON.stringify(resultOf(terminal))}\n`);
      const next = terminal.reason === 'completed' && nextPrompt ? await nextPrompt() : undefined;
      if (next === undefined) break;
      message = next;
      turnStarted = Date.now();
    }
  } finally {
    process.off('SIGINT', onSigint);
    // The result line stays the last of stream-json's output.
    unsubscribe();
    stopQuestions?.();
    // The answer is final: teammates still working are stopped, and their last events (each one's
    // 'stopped') are recorded before the session file closes. Waiting for them instead could last for
    // ever, and what they did after the answer would reach no one.
    const stopped = await runtime.team.stopAll();
    if (stopped.length > 0) io.stderr.write(`cairn: stopped teammate${stopped.length === 1 ? '' : 's'} ${stopped.join(', ')}: still working when the answer ended (a -p run ends with its answer)\n`);
  }
  // Nothing bash started outlives the run: background shells, and what left their groups (setsid).
  const left = runtime.background.shells.killAll();
  if (left.ended > 0) io.stderr.write(`cairn: ended ${left.ended} process${left.ended === 1 ? '' : 'es'} that bash commands left running\n`);
  if (left.survivors.length > 0) io.stderr.write(`cairn: warning: could not end ${left.survivors.map((t) => (t < 0 ? `process group ${-t}` : `process ${t}`)).join(', ')}, left running by bash commands\n`);

  if (refused || terminal === undefined) return 1;
  // Every format says which session this was, so a script can continue it with --resume.
  if (format === 'text') {
    const answer = structured && 'value' in structured ? JSON.stringify(structured.value) : terminal.result;
    const text = answer ? forStream(io.stdout, answer) : '';
    if (text) io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    io.stderr.write(`cairn: session ${runtime.sessionId} (continue it with: cairn --resume ${runtime.sessionId})\n`);
  } else if (format === 'json') {
    io.stdout.write(`${JSON.stringify(resultOf(terminal))}\n`);
  }
  if (structured && 'problem' in structured) {
    io.stderr.write(forStream(io.stderr, `cairn: --json-schema: ${structured.problem} (after one retry)\n`));
    return 1;
  }
  if (terminal.reason === 'completed') return 0;
  const why = terminal.error ?? (terminal.reason === 'aborted' ? 'interrupted' : terminal.reason);
  io.stderr.write(forStream(io.stderr, `cairn: ${terminal.reason}: ${why}\n`));
  return terminal.reason === 'aborted' ? 130 : 1;
}

/** Dollars at the price table's rates; null when a model used has no price. */
function estimatedCost(runtime: Runtime, byModel: ReadonlyMap<string, TokenCounts>): number | null {
  let total = 0;
  for (const [model, tokens] of byModel) {
    const price = priceFor(runtime.pricing, model);
    if (!price) return null;
    total += costOf(tokens, price);
  }
  return Math.round(total * 1e6) / 1e6;
}
