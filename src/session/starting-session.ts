import { AgentSession } from './agent-session.js';
import type { AgentSessionOptions } from './agent-session-options.js';

/**
 * A session the TUI can show before start-up has finished: the first frame does not wait for what
 * it does not show (the tools, the agent definitions, SessionStart hooks: bootstrap's
 * finishStartup), but a turn does. A prompt sent meanwhile is shown and recorded at once, and its
 * turn starts once start-up is done; later ones queue behind it. If start-up fails, the turn ends with that error.
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

  /** A turn's prompt is told and recorded at once; the turn itself waits for start-up. */
  protected override ready(): Promise<void> | undefined {
    return this.done ? undefined : this.finishStartup();
  }
}
