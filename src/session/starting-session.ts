import type { EventOf } from '../events.js';
import { errorMessage } from '../util/error-message.js';
import { AgentSession, type AgentSessionOptions } from './agent-session.js';

/**
 * A session the TUI can show before start-up has finished: the first frame does not wait for what
 * it does not show (the tools, the agent definitions, SessionStart hooks: bootstrap's
 * finishStartup), but a turn does. A prompt sent meanwhile starts once start-up is done, in the
 * order sent; none is dropped. If start-up fails, each such turn ends with that error.
 */
export class StartingSession extends AgentSession {
  private started: Promise<void> | undefined;
  private done = false;

  /** `finish` completes start-up; it is called once, by finishStartup() or by the first turn. */
  constructor(
    options: AgentSessionOptions,
    private readonly finish: () => Promise<void>,
  ) {
    super(options);
  }

  /** Completes start-up (once; later calls get the same promise). */
  finishStartup(): Promise<void> {
    this.started ??= this.finish().then(() => {
      this.done = true;
    });
    return this.started;
  }

  /** Whether a turn would still wait for start-up. */
  get starting(): boolean {
    return !this.done;
  }

  override run(text: string): Promise<EventOf<'terminal'>> {
    if (this.done) return super.run(text);
    // Every waiting prompt hangs on the same promise, so they start in the order they were sent.
    return this.finishStartup().then(
      () => super.run(text),
      (error: unknown) => {
        const terminal: EventOf<'terminal'> = { type: 'terminal', reason: 'error', turns: 0, messages: [...this.messages], error: `cairn did not finish starting: ${errorMessage(error)}` };
        this.emit(terminal);
        return terminal;
      },
    );
  }
}
