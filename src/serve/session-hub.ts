import type { AgentEvent, PermissionMode } from '../events.js';
import { answersFor, decisionFor, type ApprovalAnswer } from '../permissions/approval-answers.js';
import { answersProblem, ASK_USER_QUESTION, questionsOf, type QuestionAnswer } from '../tools/ask-user-question-schema.js';
import type { AgentSession } from '../session/agent-session.js';
import { createCardFold } from './card-fold.js';
import { EventLog, type LoggedEvent } from './event-log.js';
import { HttpError } from './http-error.js';
import type { CallView } from '../tools/call-view.js';
import { findBlob, sessionFolderOf, withBlobsReferenced } from '../session/session-blobs.js';
import { imageLimitsFor } from '../attachments/image-limits.js';
import { PendingUploads, prepareUpload, uploadView, type UploadBody, type UploadView } from './page-uploads.js';
import type * as z from 'zod';
import type { HookRunner } from '../hooks/hook-types.js';
import { planModeNote } from '../permission-modes.js';
import { planTitle } from '../tools/exit-plan-mode.js';

/** What the server needs of a runtime (src/bootstrap.ts's Runtime has it all). */
export interface ServedRuntime {
  session: AgentSession;
  sessionId: string;
  cwd: string;
  resumed?: { events: AgentEvent[] };
  /** The session's file: its folder keeps the images and PDFs of its prompts (session-blobs.ts); absent when nothing is saved. */
  sessionFile?: string;
  /** The model's context window in tokens, for the page's context bar. */
  contextWindow?: number;
  startBackground(): void;
  /** The session's hooks (WorktreeRemove, when the page removes a worktree). */
  hooks?: { runner: HookRunner };
  /** Runs SessionEnd hooks (bounded) before the session closes. */
  endSession?(reason: 'other'): Promise<string[]>;
  close(): void;
}

export interface OpenOptions {
  cwd: string;
  resumeId?: string;
}

export type OpenRuntime = (opts: OpenOptions) => Promise<ServedRuntime>;

/** A session the server holds open, whoever is watching it. */
export interface LiveSession {
  id: string;
  cwd: string;
  runtime: ServedRuntime;
  log: EventLog;
  title: string;
  opened: number;
  /** Whether it started in bypassPermissions: only then may /mode go back to it (src/permission-modes.ts). */
  startedInBypass: boolean;
  /** Images and PDFs a page attached to the prompt it has not sent yet. */
  uploads: PendingUploads;
  /** The plan the user approved last (exit_plan_mode), until /clear: the page pins it. */
  plan?: ApprovedPlan;
}

/** An approved plan and the mode chosen to carry it out in (the plan_approved event). */
export interface ApprovedPlan {
  text: string;
  mode?: PermissionMode;
}

/** What a page needs to draw a session's controls (pushed as `state` on every change of them). */
export interface SessionState {
  id: string;
  cwd: string;
  busy: boolean;
  mode: PermissionMode;
  model: string;
  provider: string;
  queued: readonly string[];
  contextWindow?: number;
  /** The approved plan, pinned above the page's prompt (kept here, not only in the events: a long session's log may have dropped it); `title`: its first line, `note`: how it is carried out. */
  plan?: ApprovedPlan & { title: string; note?: string };
  /** expires_in_ms: how long until the request is answered no by itself (the approval timeout), as of this state; absent when it waits for ever. */
  /** request_id: the ask's own id, which an answer names (id is the tool_use id, for placing it under its card). */
  pending: { id: string; request_id: string; name: string; input: unknown; reason: string; suggestions: string[]; folder?: string[]; preview?: string; view?: CallView; answers: ApprovalAnswer[]; expires_in_ms?: number }[];
  lastEventId: number;
}

/** Something every page should hear about, whichever session it shows: a cron firing, a warning. */
export interface GlobalNotice {
  session: string;
  cwd: string;
  event: AgentEvent;
}

export interface SessionHubOptions {
  open: OpenRuntime;
  /** bypassPermissions cannot be chosen from a page (off loopback). */
  refuseBypass: boolean;
  /** What went wrong where no page is listening (a SessionEnd hook that failed at close). */
  onProblem?(message: string): void;
  /**
   * How long a page's approval waits before it is answered no (someone walked away from the tab);
   * 0 waits for ever; absent leaves the session's own setting.
   */
  approvalTimeoutMs?: number;
}

export function createSessionHub(opts: SessionHubOptions) {
  const live = new Map<string, LiveSession>();
  const globalListeners = new Set<(n: GlobalNotice) => void>();
  const stateListeners = new Map<string, Set<(s: SessionState) => void>>();
  const opening = new Map<string, Promise<LiveSession>>();

  const stateOf = (s: LiveSession): SessionState => {
    const session = s.runtime.session;
    // The model in use's window (it follows /model), else the start-up one's.
    const contextWindow = session.contextWindow ?? s.runtime.contextWindow;
    return {
      id: s.id,
      cwd: s.cwd,
      busy: session.busy,
      mode: session.mode,
      model: session.model,
      provider: session.providerName,
      queued: [...session.queued],
      ...(contextWindow !== undefined ? { contextWindow } : {}),
      ...(s.plan ? { plan: { ...s.plan, title: planTitle(s.plan.text), ...(s.plan.mode !== undefined ? { note: planModeNote(s.plan.mode) } : {}) } } : {}),
      pending: session.pendingRequests().map((r) => ({
        ...expiry(session.expiresAt(r.request_id)),
        id: r.id,
        request_id: r.request_id,
        name: r.name,
        input: r.input,
        reason: r.reason,
        suggestions: r.suggestions,
        ...(r.folder ? { folder: r.folder } : {}),
        ...(r.preview !== undefined ? { preview: r.preview } : {}),
        ...(r.view !== undefined ? { view: r.view } : {}),
        answers: answersFor(r),
      })),
      lastEventId: s.log.lastId,
    };
  };

  const pushState = (s: LiveSession): void => {
    const listeners = stateListeners.get(s.id);
    if (!listeners || listeners.size === 0) return;
    const state = stateOf(s);
    for (const l of listeners) l(state);
  };

  const adopt = (runtime: ServedRuntime): LiveSession => {
    const log = new EventLog();
    const fold = createCardFold();
    const entry: LiveSession = { id: runtime.sessionId, cwd: runtime.cwd, runtime, log, title: '', opened: Date.now(), startedInBypass: runtime.session.mode === 'bypassPermissions', uploads: new PendingUploads() };
    for (const event of runtime.resumed?.events ?? []) {
      if (event.type === 'user_prompt' && !entry.title) entry.title = event.text.slice(0, 80);
      trackPlan(entry, event);
      log.append(withBlobsReferenced(event), fold(event));
    }
    log.append(runtime.session.sessionStart());
    runtime.session.subscribe((event) => {
      if (event.type === 'user_prompt' && !entry.title) entry.title = event.text.slice(0, 80);
      trackPlan(entry, event);
      // Pages get an image's hash, not its bytes: they ask for a thumbnail when they draw it (blob()).
      log.append(withBlobsReferenced(event), fold(event));
      if (event.type === 'cron' || (event.type === 'notice' && event.level !== 'info') || event.type === 'auto_run') {
        for (const l of globalListeners) l({ session: entry.id, cwd: entry.cwd, event });
      }
      // Busy, queue, mode and the approvals waiting change with these; pages redraw their controls.
      // After the emitter has finished its step (a request is pending only once its event is out).
      if (['user_prompt', 'turn_start', 'terminal', 'permission_request', 'permission_denied', 'tool_start', 'tool_result', 'mode_change', 'clear', 'plan_approved'].includes(event.type)) {
        setImmediate(() => pushState(entry));
      }
    });
    if (opts.approvalTimeoutMs !== undefined) runtime.session.setApprovalTimeout(opts.approvalTimeoutMs);
    runtime.startBackground();
    live.set(entry.id, entry);
    return entry;
  };

  const shutDown = async (s: LiveSession): Promise<void> => {
    const session = s.runtime.session;
    if (session.busy) {
      const ended = new Promise<void>((resolve) => {
        const off = session.subscribe((e) => {
          if (e.type === 'terminal') {
            off();
            resolve();
          }
        });
      });
      session.interrupt();
      await ended;
    }
    for (const problem of (await s.runtime.endSession?.('other')) ?? []) opts.onProblem?.(`session ${s.id}: ${problem}`);
    s.runtime.close();
  };

  const get = (id: string): LiveSession => {
    const s = live.get(id);
    if (!s) throw new HttpError(404, `no open session ${id}`);
    return s;
  };

  return {
    /** Opens a new session in `cwd`, or resumes one from its file; a session already open is returned as it is. */
    async open(o: OpenOptions): Promise<LiveSession> {
      if (o.resumeId) {
        const already = [...live.values()].find((s) => s.id === o.resumeId || s.id.startsWith(o.resumeId ?? ''));
        if (already) return already;
        const key = `${o.cwd}\0${o.resumeId}`;
        const pending = opening.get(key);
        if (pending) return pending;
        const p = opts.open(o).then(adopt).finally(() => opening.delete(key));
        opening.set(key, p);
        return p;
      }
      return adopt(await opts.open(o));
    },
    get,
    live: () => [...live.values()],
    state: (id: string) => stateOf(get(id)),
    /** Sends (or queues) a prompt with the uploads it names (upload()), which are taken: each goes once. */
    prompt(id: string, text: string, attachmentIds: readonly string[] = []): SessionState {
      const s = get(id);
      const attachments = s.uploads.take(attachmentIds);
      s.runtime.session.noteUserPrompt(text);
      s.runtime.session.submit(text, attachments);
      const state = stateOf(s);
      pushState(s);
      return state;
    },
    /** An image or PDF for the next prompt, checked and scaled for this session's provider; a 400 says why it cannot go. */
    async upload(id: string, body: z.infer<typeof UploadBody>): Promise<UploadView> {
      const s = get(id);
      const block = await prepareUpload(body, imageLimitsFor(s.runtime.session.provider));
      return uploadView(s.uploads.add(block), block);
    },
    /** Drops an upload the user removed before sending. */
    removeUpload(id: string, uploadId: string): void {
      if (!get(id).uploads.remove(uploadId)) throw new HttpError(404, `attachments: ${uploadId} is not waiting here`);
    },
    /** A saved image of this session, by its hash: only from the session's own folder, and only an image. */
    image(id: string, sha256: string): { file: string; mediaType: string } {
      const s = get(id);
      const found = s.runtime.sessionFile ? findBlob(sessionFolderOf(s.runtime.sessionFile), sha256) : undefined;
      if (!found || !found.mediaType.startsWith('image/')) throw new HttpError(404, `no saved image ${sha256.slice(0, 64)} in session ${id}`);
      return found;
    },
    abort(id: string): string[] {
      const s = get(id);
      // The page takes back the text only: a queued prompt's uploads were taken when it was sent, and are not given back yet.
      const taken = s.runtime.session.interrupt().map((q) => q.text);
      pushState(s);
      return taken;
    },
    /** Answers a waiting request once: a second answer (another tab) is refused with 409. */
    answer(id: string, requestId: string, answer: ApprovalAnswer, reason = ''): void {
      const s = get(id);
      // Found by the ask's own id only: a tool_use id can name several asks (parallel subagents) or a later one.
      const request = s.runtime.session.pendingRequests().find((r) => r.request_id === requestId);
      if (!request) throw new HttpError(409, `request ${requestId} is not waiting for an answer (already answered?)`);
      if (!answersFor(request).includes(answer)) throw new HttpError(400, `answer: ${answer} is not offered for this request (offered: ${answersFor(request).join(', ')})`);
      if (!s.runtime.session.respond(requestId, decisionFor(answer, request, reason))) throw new HttpError(409, `request ${requestId} was answered already`);
      pushState(s);
    },
    /** Answers a waiting question (ask_user_question) once: its answers, checked against the options asked, or undefined to decline. */
    answerQuestion(id: string, requestId: string, answers: QuestionAnswer[] | undefined): void {
      const s = get(id);
      const request = s.runtime.session.pendingRequests().find((r) => r.request_id === requestId);
      if (!request) throw new HttpError(409, `request ${requestId} is not waiting for an answer (already answered?)`);
      const questions = request.name === ASK_USER_QUESTION ? questionsOf(request.input) : undefined;
      if (!questions) throw new HttpError(400, `request ${requestId} is not a question (answer it with /permission)`);
      const problem = answers === undefined ? undefined : answersProblem(questions, answers);
      if (problem !== undefined) throw new HttpError(400, problem);
      if (!s.runtime.session.respond(requestId, answers === undefined ? { behavior: 'deny' } : { behavior: 'allow', answers })) throw new HttpError(409, `request ${requestId} was answered already`);
      pushState(s);
    },
    setMode(id: string, mode: PermissionMode): void {
      if (mode === 'bypassPermissions' && opts.refuseBypass) throw new HttpError(403, 'bypassPermissions cannot be chosen from a page served off loopback');
      const s = get(id);
      s.runtime.session.setMode(mode);
      pushState(s);
    },
    onGlobal(listener: (n: GlobalNotice) => void): () => void {
      globalListeners.add(listener);
      return () => globalListeners.delete(listener);
    },
    onState(id: string, listener: (s: SessionState) => void): () => void {
      let set = stateListeners.get(id);
      if (!set) stateListeners.set(id, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
    subscribe(id: string, lastId: number, send: (e: LoggedEvent) => void, reset: () => void): () => void {
      const s = get(id);
      const missed = s.log.since(lastId);
      if (!missed) reset();
      for (const e of missed ?? s.log.all()) send(e);
      return s.log.subscribe(send);
    },
    /** Stops its turn, waits for the turn's last event to be written, then closes the session file. */
    async close(id: string): Promise<void> {
      const s = get(id);
      live.delete(id);
      await shutDown(s);
    },
    async closeAll(): Promise<void> {
      const all = [...live.values()];
      live.clear();
      await Promise.all(all.map(shutDown));
    },
  };
}

export type SessionHub = ReturnType<typeof createSessionHub>;

/** The approved plan as the terminal's store keeps it: set by plan_approved, dropped by /clear. */
function trackPlan(entry: LiveSession, event: AgentEvent): void {
  if (event.type === 'plan_approved') entry.plan = { text: event.plan, ...(event.mode !== undefined ? { mode: event.mode } : {}) };
  else if (event.type === 'clear') delete entry.plan;
}

/** Sent as time left, not a time of day: the page's clock need not agree with the server's. */
function expiry(at: number | undefined): { expires_in_ms?: number } {
  return at !== undefined ? { expires_in_ms: Math.max(0, at - Date.now()) } : {};
}
