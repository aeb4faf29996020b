import type { AgentEvent, EventOf, PermissionMode } from '../events.js';
import { notice } from '../events.js';
import type { Message } from '../messages.js';
import { userPrompt, type AttachmentBlock } from '../messages.js';
import type { QueuedPrompt } from './queued-prompt.js';
import type { AgentSessionOptions } from './agent-session-options.js';
import { DEFAULT_MAX_TOKENS, query, runCompaction, type CompactionSettings } from '../loop/query.js';
import type { AskPermission, PermissionAsk, PermissionChecker, PermissionDecision } from '../permissions/types.js';
import type { ModelProvider } from '../providers/provider.js';
import type { ModelChoice } from '../providers/effort.js';
import { usageIn } from '../usage-events.js';
import type { AnyTool } from '../tools/tool.js';
import { IDLE_MESSAGE, notifyHooks, PERMISSION_MESSAGE } from '../hooks/notify.js';
import { errorMessage } from '../util/error-message.js';
import { shellCommandMessage, shellCommandTurn } from './user-shell.js';
import type { CheckpointRecorder } from './checkpoint-tools.js';
import { promptBlocked } from './prompt-blocked.js';
import { rewindConversation, type PromptMark } from './rewind.js';
import { createFileReadState } from '../tools/read-state.js';
import type { DecisionLog } from './decision-log.js';
import { askSideQuestion, type SideAnswer } from './side-question.js';
import { PendingAnswers } from './pending-answers.js';
import { toolSpec } from '../loop/tool-specs.js';
import type { SpendCap } from './spend-cap.js';
import { createActionClassifier, type ActionClassifier } from '../permissions/auto/classifier.js';

type Listener = (event: AgentEvent) => void;

/**
 * One conversation: its history, the running turn, the queue of prompts typed meanwhile and
 * pending permission asks. The UI drives it through a few actions and hears only events.
 */
export class AgentSession {
  private history: Message[];
  private readonly listeners = new Set<Listener>();
  private readonly interruptListeners = new Set<() => void>();
  /** Approvals and questions waiting for the user. */
  private readonly answers: PendingAnswers;
  /** Waiting input in order: prompts, and `!` commands typed while a turn ran (`shell`). */
  private readonly queue: Array<QueuedPrompt & { shell?: string }> = [];
  private controller: AbortController | undefined;
  private running: Promise<EventOf<'terminal'>> | undefined;
  private readonly denials = { consecutive: 0 };
  private provider_: ModelProvider;
  private choice_: ModelChoice = {};
  /** Bumped by /clear: a run started before it no longer speaks for this conversation. */
  private generation = 0;
  /** The prompts in the history since the last /clear or compaction: the points rewind can go back to. */
  private marks: PromptMark[];
  /** How many prompts the session has had (its file holds), /clear and rewinds included: the next prompt's id. */
  private promptCount: number;
  /** The files the model has read, across prompts: edit_file and write_file change only those, unchanged since. */
  private readonly readState = createFileReadState();
  /** What the user typed (noteUserPrompt), since the start or the last /clear: auto mode's classifier sees only this as intent. */
  private readonly userPrompts: string[] = [];
  private readonly classifier: ActionClassifier;
  /** The spending cap's check before each model call (turns, the classifier, /btw); absent without a cap. */
  private readonly spendCapCheck: { refuseModelCall?: SpendCap['refusal'] };

  constructor(private readonly options: AgentSessionOptions) {
    this.history = [...(options.history ?? [])];
    this.marks = [...(options.prompts?.marks ?? [])];
    this.promptCount = options.prompts?.count ?? 0;
    this.provider_ = options.provider;
    this.spendCapCheck = options.spendCap ? { refuseModelCall: options.spendCap.refusal.bind(options.spendCap) } : {};
    this.answers = new PendingAnswers({
      ...(options.now ? { now: options.now } : {}),
      onPrompt: (request) => void notifyHooks(options.hooks, 'permission_prompt', PERMISSION_MESSAGE(request.name), (e) => this.emit(e)),
      emit: (event) => this.emit(event),
    });
    // Changes made before the first prompt (a teammate, a cron run) belong to the next prompt.
    options.checkpoints?.startPrompt({ turn: this.history.length, id: this.promptCount });
    this.classifier = createActionClassifier({
      provider: () => this.classifierProvider(),
      userPrompts: () => this.userPrompts,
      ...this.spendCapCheck,
    });
  }

  /** The classifier's model: `autoMode.model` of this provider, else the session's; none offline. */
  private classifierProvider(): ModelProvider | undefined {
    if (this.provider_.offline === true) return undefined;
    const model = this.options.classifierModel;
    return model !== undefined && model !== this.provider_.model && this.options.providerFor ? this.options.providerFor(model, this.sameProvider()) : this.provider_;
  }

  /** Whether auto mode can be used: its classifier needs a model (not the offline one). */
  get autoModeAvailable(): boolean {
    return this.provider_.offline !== true;
  }

  /**
   * Records what the user typed (the TUI's prompt, -p's prompt and input lines, the page's box), as
   * typed: the only intent auto mode's classifier sees. Prompts from elsewhere (a scheduled prompt,
   * a skill's expansion, attached files) are not recorded, so they cannot speak for the user.
   */
  noteUserPrompt(text: string): void {
    const typed = text.trim();
    if (typed === '') return;
    this.userPrompts.push(typed);
    if (this.userPrompts.length > 50) this.userPrompts.shift();
  }

  get messages(): readonly Message[] {
    return this.history;
  }
  get busy(): boolean {
    return this.running !== undefined;
  }
  get queued(): readonly string[] {
    return this.queue.map((q) => q.text);
  }
  get mode(): PermissionMode {
    return this.options.permissions.mode;
  }
  get model(): string {
    return this.provider_.model;
  }
  get provider(): ModelProvider {
    return this.provider_;
  }
  get providerName(): string {
    return this.provider_.name;
  }
  /** The context window of the model in use, in tokens (it follows /model); undefined when the provider does not say. */
  get contextWindow(): number | undefined {
    return this.provider_.contextWindow;
  }
  get permissions(): PermissionChecker {
    return this.options.permissions;
  }
  get tools(): readonly AnyTool[] {
    return this.options.tools;
  }
  get decisions(): DecisionLog | undefined {
    return this.options.decisions;
  }

  /**
   * Auto mode's judgement of an ask that comes from inside a running command rather than from a tool
   * call (a sandboxed command's new domain): the classifier's allow or block, as for web_fetch and
   * bash; 'ask' outside auto mode or without a verdict (then the user is asked, as in default mode).
   */
  async classifyRequest(request: PermissionAsk, signal: AbortSignal): Promise<'allow' | 'deny' | 'ask'> {
    if (this.mode !== 'auto') return 'ask';
    const input = typeof request.input === 'object' && request.input !== null ? Object.values(request.input).map(String).join(' ') : String(request.input);
    const outcome = await this.classifier.classify({ tool: request.name, input: `${input}\n${JSON.stringify(request.input)}`, why: request.reason }, signal);
    if (outcome.usage) this.emit({ type: 'usage', usage: outcome.usage, ...(outcome.model !== undefined ? { model: outcome.model } : {}), for: 'classifier' });
    if (outcome.decision === 'unavailable') return 'ask';
    const verdict = outcome.decision === 'allow' ? 'allow' : 'deny';
    this.emit({ type: 'permission_decision', id: request.id, name: request.name, input, verdict, by: 'classifier', reason: outcome.reason, mode: this.mode });
    return verdict;
  }

  /** The ask channel other loops of this session (teammates) share: the user's inline prompt. */
  get askChannel(): AskPermission | undefined {
    return this.options.interactive ? (request, s) => this.waitForAnswer(request, s) : undefined;
  }

  /**
   * Where the model's questions (ask_user_question) go when the call has no ask channel of its own:
   * the session's pending asks, answered by respond(), when someone can answer (the TUI, the page,
   * a stream-json client); undefined otherwise. Subagents' and teammates' questions arrive here too.
   */
  get questionChannel(): AskPermission | undefined {
    return this.options.interactive || this.options.answersQuestions === true ? (request, s) => this.waitForAnswer(request, s) : undefined;
  }

  /** Calls `listener` with each ask once it waits for an answer (after its request_id can be answered). */
  onAskWaiting(listener: (request: PermissionAsk) => void): () => void {
    return this.answers.onWaiting(listener);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: AgentEvent): void {
    for (const listener of this.listeners) listener(event);
    for (const said of this.options.spendCap?.observe(event, this.model) ?? []) this.emit(notice('warning', said, 'spend_cap'));
  }

  /** The spending cap in force, if any. */
  get spendCap(): SpendCap | undefined {
    return this.options.spendCap;
  }

  sessionStart(): EventOf<'session_start'> {
    return {
      type: 'session_start',
      provider: this.provider_.name,
      model: this.provider_.model,
      cwd: this.options.cwd,
      permission_mode: this.mode,
      tools: this.options.tools.map((t) => t.name),
      offline: this.provider_.offline === true,
      ...(this.options.sessionId !== undefined ? { session_id: this.options.sessionId } : {}),
      ...(this.options.spendCap ? { max_budget_usd: this.options.spendCap.capUsd } : {}),
      ...(this.provider_.contextWindow !== undefined ? { context_window: this.provider_.contextWindow } : {}),
    };
  }

  /** The compaction settings for a turn on `provider`: its window's threshold, when both are known. */
  private compactionFor(provider: ModelProvider): { compaction?: CompactionSettings } {
    const { compaction, compactionThreshold } = this.options;
    if (!compaction) return {};
    const window = provider.contextWindow;
    return { compaction: window !== undefined && compactionThreshold ? { ...compaction, thresholdTokens: compactionThreshold(window) } : compaction };
  }

  /**
   * /btw: asks the model with the conversation so far, alongside any running turn (its events and
   * history are untouched: a running turn's own messages join the history only when it ends, so
   * they are not in this context). Neither question nor answer is kept.
   */
  async askAside(question: string, signal: AbortSignal): Promise<SideAnswer> {
    const provider = this.provider_;
    return askSideQuestion({
      provider,
      system: await this.options.system({ mode: this.mode, model: provider.model }),
      history: this.history,
      tools: this.options.tools.map(toolSpec),
      question,
      maxTokens: this.options.maxTokens ?? DEFAULT_MAX_TOKENS,
      signal,
      ...this.spendCapCheck,
      onUsage: (usage) => this.emit({ type: 'usage', usage, model: provider.model, for: 'side_question' }),
    });
  }

  /** Starts a turn now, or queues the prompt if one is running. `attachments`: images and PDFs sent with it (attachments/attach-file.ts). */
  submit(text: string, attachments: readonly AttachmentBlock[] = []): void {
    if (this.running) {
      this.queue.push({ text, ...(attachments.length ? { attachments } : {}) });
      return;
    }
    void this.run(text, attachments);
  }

  /** Runs one prompt to its terminal event. Queued prompts follow automatically, unless interrupted. */
  run(text: string, attachments: readonly AttachmentBlock[] = []): Promise<EventOf<'terminal'>> {
    if (this.running) {
      this.queue.push({ text, ...(attachments.length ? { attachments } : {}) });
      return this.running;
    }
    const controller = new AbortController();
    this.controller = controller;
    const promise = this.drive(text, controller.signal, attachments).finally(() => {
      this.running = undefined;
      this.controller = undefined;
      if (!this.startQueued() && this.options.interactive) void notifyHooks(this.options.hooks, 'idle_prompt', IDLE_MESSAGE, (e) => this.emit(e));
    });
    this.running = promise;
    return promise;
  }

  private async drive(text: string, signal: AbortSignal, attachments: readonly AttachmentBlock[]): Promise<EventOf<'terminal'>> {
    const generation = this.generation;
    const ask: AskPermission | undefined = this.options.interactive ? (request, s) => this.waitForAnswer(request, s) : undefined;
    let terminal: EventOf<'terminal'> | undefined;
    const turn = this.history.length;
    // The id the prompt takes as its user_prompt is told: a prompt a hook blocks gives it back.
    const id = this.promptCount;
    // Told (and so written to the session file) before start-up and the UserPromptSubmit hooks
    // are waited for: a prompt the user can see is never lost to a kill.
    if (text) {
      this.marks.push({ turn, id, text });
      this.promptCount = id + 1;
      this.emit({ type: 'user_prompt', text, ...(attachments.length ? { attachments: [...attachments] } : {}) });
    }
    try {
      await this.ready();
    } catch (error) {
      const failed: EventOf<'terminal'> = { type: 'terminal', reason: 'error', turns: 0, messages: [...this.history], error: `cairn did not finish starting: ${errorMessage(error)}` };
      this.emit(failed);
      return failed;
    }
    const provider = this.turnProvider(text);
    this.options.checkpoints?.startPrompt({ turn, id });
    const stream = query({
      messages: this.history,
      prompt: userPrompt(text, attachments),
      provider,
      tools: this.options.tools,
      permissions: this.options.permissions,
      ...(ask ? { ask } : {}),
      system: () => this.options.system({ mode: this.mode, model: provider.model }),
      cwd: this.options.cwd,
      signal,
      ...(this.options.maxTurns !== undefined ? { maxTurns: this.options.maxTurns } : {}),
      ...(this.options.now ? { now: this.options.now } : {}),
      denials: this.denials,
      readState: this.readState,
      ...this.compactionFor(provider),
      ...(this.options.reminders ? { reminders: this.options.reminders } : {}),
      ...(this.options.maxTokens !== undefined ? { maxTokens: this.options.maxTokens } : {}),
      ...(this.options.continueOnMaxTokens ? { continueOnMaxTokens: true } : {}),
      ...(this.options.hooks ? { hooks: this.options.hooks } : {}),
      ...this.spendCapCheck,
      classifier: this.classifier,
      promptTold: true,
    });
    try {
      for await (const event of stream) {
        const current = generation === this.generation;
        if (current && promptBlocked(event) && this.marks.at(-1)?.id === id) {
          this.marks.pop();
          this.promptCount = id;
        }
        if (current && event.type === 'compact') this.marks = [];
        if (event.type === 'terminal') {
          terminal = event;
          if (current) this.history = event.messages;
        }
        // After /clear the old turn's last words (its interruption, its results) are not part of
        // the new conversation; the tokens it used were still spent, so usage is still told.
        if (current || usageIn(event).length > 0) this.emit(event);
      }
    } catch (error) {
      // query() must not throw; if it does, the session still ends the turn visibly.
      const message = errorMessage(error);
      terminal = { type: 'terminal', reason: 'error', turns: 0, messages: this.history, error: `internal error: ${message}` };
      this.emit(terminal);
    }
    return terminal ?? { type: 'terminal', reason: 'error', turns: 0, messages: this.history, error: 'the loop ended without a result' };
  }

  /** What a turn waits for after its prompt is told and before it runs (start-up, in StartingSession). */
  protected ready(): Promise<void> | undefined {
    return undefined;
  }

  /** The session's provider, or for a prompt that names its own model, that model for this turn only. */
  private turnProvider(text: string): ModelProvider {
    const model = this.options.modelForPrompt?.(text);
    if (model === undefined || !this.options.providerFor) return this.provider_;
    let provider: ModelProvider;
    try {
      provider = this.options.providerFor(model, this.sameProvider());
    } catch (error) {
      this.emit(notice('warning', `This turn stays on ${this.provider_.model}: cannot use the model ${model}: ${errorMessage(error)}`));
      return this.provider_;
    }
    if (provider.model !== this.provider_.model) this.emit(notice('info', `This turn runs on ${provider.model}; the session stays on ${this.provider_.model}.`));
    return provider;
  }

  private waitForAnswer(request: PermissionAsk, signal: AbortSignal): Promise<PermissionDecision> {
    return this.answers.wait(request, signal);
  }

  /** Answers each later approval no once it has waited this long (ms); undefined waits for ever (the TUI's default). */
  setApprovalTimeout(ms: number | undefined): void {
    this.answers.setTimeout(ms);
  }

  /** When a waiting request will be answered no by itself (epoch ms), or undefined when it waits for ever. */
  expiresAt(requestId: string): number | undefined {
    return this.answers.expiresAt(requestId);
  }

  /** Answers a pending permission request by its request_id (never its tool_use id). Returns false if none is pending. */
  respond(requestId: string, decision: PermissionDecision): boolean {
    return this.answers.respond(requestId, decision);
  }

  pendingRequests(): PermissionAsk[] {
    return this.answers.requests();
  }

  /** Interrupts the running turn: the model request and the tools. Queued prompts are kept. */
  abort(): boolean {
    if (!this.controller) return false;
    this.controller.abort();
    return true;
  }

  /**
   * What Esc does: stops the turn, and nothing runs by itself after it. Returns the prompts that
   * were waiting, in order, so the user can decide what to do with them.
   */
  interrupt(): QueuedPrompt[] {
    const waiting = this.clearQueue();
    this.abort();
    for (const listener of this.interruptListeners) listener();
    return waiting;
  }

  /** Work started for this session outside a turn (a cron auto run) that Esc stops as well. */
  onInterrupt(listener: () => void): () => void {
    this.interruptListeners.add(listener);
    return () => this.interruptListeners.delete(listener);
  }

  /** Takes the last queued prompt back (to edit or drop it) before it runs. */
  unqueueLast(): QueuedPrompt | undefined {
    const last = this.queue.pop();
    return last && takenBack(last);
  }

  setMode(mode: PermissionMode): void {
    if (mode === this.mode) return;
    if (mode === 'auto' && !this.autoModeAvailable) {
      this.emit(notice('warning', 'Auto mode needs a model for its classifier; with the offline model cairn stays in the current mode.'));
      return;
    }
    this.options.permissions.setMode(mode);
    this.emit({ type: 'mode_change', mode });
  }

  setProvider(provider: ModelProvider): void {
    this.provider_ = provider;
    this.emit(this.sessionStart());
    this.emit(notice('info', `Model set to ${provider.model} (${provider.name}); it applies from the next turn.`));
  }

  /**
   * Switches to another model (of the current provider, or with `choice.provider` of another
   * configured one; `choice.effort` its thinking effort). False when this session cannot; throws
   * when the provider cannot be made (a ConfigError naming the missing key).
   */
  switchModel(model: string, choice?: ModelChoice): boolean {
    if (!this.options.providerFor) return false;
    // `/model NAME` alone stays with the provider in use (one the picker chose, say).
    const next = choice ?? this.sameProvider();
    this.setProvider(this.options.providerFor(model, next));
    this.choice_ = next;
    return true;
  }

  /** The provider in use, as a choice: another model of it is made by it, not by the start-up's. */
  private sameProvider(): ModelChoice {
    return this.choice_.provider !== undefined ? { provider: this.choice_.provider } : {};
  }

  /** The provider and effort last chosen with /model's picker (empty: as started). */
  get modelChoice(): ModelChoice {
    return this.choice_;
  }

  /** Starts the first waiting prompt or `!` command; false when nothing waits. */
  private startQueued(): boolean {
    const next = this.queue.shift();
    if (next === undefined) return false;
    if (next.shell !== undefined) void this.runShell(next.shell, next.text);
    else void this.run(next.text, next.attachments);
    return true;
  }

  /** Runs work that is not a model turn (a `!` command, /compact) as the running turn: Esc stops it, prompts wait for it. */
  private occupy(work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    const running = work(controller.signal)
      .then((): EventOf<'terminal'> => ({ type: 'terminal', reason: 'completed', turns: 0, messages: this.history }))
      .finally(() => {
        this.running = undefined;
        this.controller = undefined;
        this.startQueued();
      });
    this.running = running;
    return running.then(() => undefined);
  }

  /**
   * Runs a command the user typed after `!` (no model, no approval), as a turn of its own. Its command and output
   * join the history. `typed`: the prompt as the user wrote it (`!ls`), what `queued` shows while it waits for a
   * running turn.
   */
  runShell(command: string, typed = `!${command}`): Promise<void> {
    if (this.running) {
      this.queue.push({ text: typed, shell: command });
      return Promise.resolve();
    }
    const generation = this.generation;
    return this.occupy(async (signal) => {
      const done = await shellCommandTurn(command, {
        cwd: this.options.cwd,
        env: this.options.env ?? process.env,
        signal,
        now: this.options.now ?? Date.now,
        emit: (e) => this.emit(e),
      });
      if (generation !== this.generation) return;
      this.history = [...this.history, shellCommandMessage(done)];
      this.emit(done);
    });
  }

  /** Compacts now (the /compact command). Refused while a turn runs. */
  async compact(instructions?: string): Promise<void> {
    if (this.running) {
      this.emit(notice('warning', 'A turn is running; compact after it ends (or press Esc).'));
      return;
    }
    await this.occupy(async (signal) => {
      try {
        const hooks = this.options.hooks ? { hooks: this.options.hooks } : {};
        const stream = runCompaction(this.history, { provider: this.provider_, signal, ...this.compactionFor(this.provider_), ...hooks }, 'manual', instructions);
        const generation = this.generation;
        for (;;) {
          const next = await stream.next();
          if (generation !== this.generation) break;
          if (next.done) {
            if (next.value) this.history = next.value.messages;
            break;
          }
          this.emit(next.value);
        }
      } catch (error) {
        this.emit(notice('error', `Compaction failed: ${errorMessage(error)}`));
      }
    });
  }

  /**
   * Starts a fresh conversation (the /clear command): the running turn is stopped, waiting prompts
   * dropped, and the next request carries no earlier message. Listeners hear a `clear` event so
   * session-scoped state (the todo list, the transcript, the session file) resets with it.
   * `hard` (/clear hard) also forgets the approvals remembered for this session ("don't ask again
   * this session"): returns how many rules that dropped.
   */
  clear(options: { hard?: boolean } = {}): { forgottenRules: number } {
    const forgottenRules = options.hard ? (this.options.permissions.forgetSessionRules?.() ?? 0) : 0;
    this.abort();
    this.queue.length = 0;
    this.history = [];
    this.marks = [];
    this.userPrompts.length = 0; // a new conversation: what the user asked before no longer speaks for its actions
    this.denials.consecutive = 0;
    this.readState.clear();
    this.generation++;
    this.emit({ type: 'clear' });
    return { forgottenRules };
  }

  /** The checkpoints of the tools' file changes (absent when the session is not saved) and the workspace they are in. */
  get checkpoints(): { recorder: CheckpointRecorder; cwd: string } | undefined {
    return this.options.checkpoints ? { recorder: this.options.checkpoints, cwd: this.options.cwd } : undefined;
  }

  /** The earlier prompts the conversation can be rewound to, oldest first. */
  get rewindPoints(): readonly PromptMark[] {
    return this.marks;
  }

  /**
   * Rewinds the conversation to just before the prompt at `turn` (a rewindPoints entry): the history
   * is cut there and a `rewind` event tells the transcript and the session file. Refused while a turn runs.
   */
  async rewind(turn: number): Promise<boolean> {
    if (this.running) {
      this.emit(notice('warning', 'A turn is running; rewind after it ends (or press Esc).'));
      return false;
    }
    const mark = this.marks.find((m) => m.turn === turn);
    const rewound = rewindConversation(this.history, this.marks, turn);
    if (!rewound || !mark) return false;
    this.history = rewound.messages;
    this.marks = rewound.marks;
    // The reads cut from the history are no longer in the model's view.
    this.readState.clear();
    await this.options.checkpoints?.forgetFrom(mark);
    this.emit({ type: 'rewind', messages: rewound.messages, dropped_prompts: rewound.dropped });
    return true;
  }

  clearQueue(): QueuedPrompt[] {
    return this.queue.splice(0, this.queue.length).map(takenBack);
  }
}

function takenBack({ text, attachments }: QueuedPrompt): QueuedPrompt {
  return attachments?.length ? { text, attachments } : { text };
}
