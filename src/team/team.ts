import { createFileReadState } from '../tools/read-state.js';
import type { AgentDefinition } from '../agents/agent-definition.js';
import { agentModel } from '../agents/agent-model.js';
import { grantsTool } from '../agents/agent-tool-grants.js';
import type { AgentEvent } from '../events.js';
import { notice } from '../events.js';
import { query } from '../loop/query.js';
import { userText, type Message } from '../messages.js';
import type { AskPermission, PermissionChecker } from '../permissions/types.js';
import type { ModelProvider } from '../providers/provider.js';
import type { AnyTool } from '../tools/tool.js';
import type { MessageBus, TeamMessage } from './message-bus.js';
import { errorMessage } from '../util/error-message.js';

export type TeammateStatus = 'working' | 'idle' | 'stopped';
export const LEAD = 'lead';

// A teammate always keeps its team's channel, whatever its definition's `tools` say (as in Claude Code).
const COORDINATION = new Set(['send_message', 'read_inbox', 'task_create', 'task_list', 'task_get', 'task_update']);

/** The tools a teammate of this definition gets: `tools` and `disallowedTools` as for a subagent, plus the team's channel. */
export function teammateTools(def: AgentDefinition, all: readonly AnyTool[]): AnyTool[] {
  return all.filter((t) => COORDINATION.has(t.name) || grantsTool(def, t.name));
}

export interface TeammateInfo {
  name: string;
  type: string;
  status: TeammateStatus;
  /** Its last tool call, as called (name and input), for /team. */
  lastTool?: string;
  /** The first line of its last reply. */
  lastReply?: string;
}

const LAST_CHARS = 80;
const clip = (text: string): string => (text.length > LAST_CHARS ? `${text.slice(0, LAST_CHARS - 1)}…` : text);

export interface TeamDeps {
  bus: MessageBus;
  definitions: () => readonly AgentDefinition[];
  /** The lead's provider now; with a model (a definition's own), a provider for that model. */
  provider: (model?: string) => ModelProvider;
  /** A teammate's tools; `name` lets its messaging and task tools know who it is. */
  tools: (name: string) => AnyTool[];
  permissions: (mode: AgentDefinition['mode']) => PermissionChecker;
  ask?: AskPermission;
  emit: (event: AgentEvent) => void;
  cwd: string;
  environment: () => string;
}

/**
 * Named long-running agents in the background of this process. Each has its own history and
 * loop; it works on its instructions, then waits for messages in its inbox. A shutdown request
 * is acknowledged before the teammate stops.
 */
export function createTeam(deps: TeamDeps) {
  const mates = new Map<string, { info: TeammateInfo; controller: AbortController; wake: () => void; done: Promise<void> }>();

  /** `run`: the stretch of work this change opens (working) or closes (idle, stopped), for its card. */
  const setStatus = (name: string, status: TeammateStatus, run?: { id: string; text?: string; failed?: boolean }): void => {
    const mate = mates.get(name);
    if (!mate || (mate.info.status === status && !run)) return;
    mate.info.status = status;
    const extra = run ? { run_id: run.id, agent_type: mate.info.type, ...(run.text !== undefined ? { text: run.text } : {}), ...(run.failed ? { failed: true } : {}) } : {};
    deps.emit({ type: 'team', kind: 'status', name, status, ...extra });
  };

  /** What /team says it did last, from its loop's events. */
  const track = (name: string, event: AgentEvent): void => {
    const info = mates.get(name)?.info;
    if (!info) return;
    if (event.type === 'tool_start') info.lastTool = clip(`${event.name} ${JSON.stringify(event.input)}`);
    if (event.type === 'terminal' && event.result) info.lastReply = clip(event.result.trim().split('\n')[0] ?? '');
  };

  deps.bus.subscribe((m) => {
    mates.get(m.to)?.wake();
    if (m.to === LEAD) deps.emit({ type: 'team', kind: 'message', name: m.from, from: m.from, to: m.to, text: m.text });
  });

  async function runMate(name: string, def: AgentDefinition, instructions: string, controller: AbortController, waitForMail: () => Promise<void>): Promise<void> {
    let history: Message[] = [];
    let prompt: string | undefined = instructions;
    let runs = 0;
    // A stretch cut off by a stop: its card closes with the teammate's stopping.
    let open: string | undefined;
    // A teammate reads for itself: what the lead has seen is not in its history.
    const readState = createFileReadState();
    // A definition's model as for a subagent: an alias becomes the lead's provider's model of that tier.
    const lead = deps.provider();
    const chosen = agentModel(def.model, lead.model);
    if (chosen.notice) deps.emit(notice('warning', `Teammate ${name} (${def.name}): ${chosen.notice}`));
    const own = chosen.model === lead.model ? undefined : deps.provider(chosen.model);
    const provider = (): ModelProvider => own ?? deps.provider(); // no model of its own: follows the lead's /model
    const system = `${def.prompt}\n\nYou are "${name}", a teammate in a team led by "${LEAD}". Talk to others with send_message and read_inbox; report results to ${LEAD}. Shared work is in the task tools.\n\n${deps.environment()}`;
    while (!controller.signal.aborted) {
      if (prompt === undefined) {
        setStatus(name, 'idle');
        await waitForMail();
        if (controller.signal.aborted) break;
        const mail: TeamMessage[] = await deps.bus.read(name);
        if (mail.length === 0) continue;
        const shutdown = mail.find((m) => m.kind === 'shutdown_request');
        if (shutdown) {
          await deps.bus.send(name, shutdown.from, `${name} acknowledges the shutdown request and stops.`, 'shutdown_ack');
          break;
        }
        prompt = mail.map((m) => `Message from ${m.from}: ${m.text}`).join('\n\n');
      }
      const runId = `team-${name}-${++runs}`;
      setStatus(name, 'working', { id: runId, text: prompt });
      // Its events go to its card (the lead's session hears them wrapped, as a subagent's); a
      // question for the user stays where the approval prompt looks for it.
      const wrap = (event: AgentEvent): AgentEvent => ({ type: 'subagent', parent_id: runId, agent_type: def.name, depth: 1, event: event.type === 'terminal' ? { ...event, messages: [] } : event });
      let ended: { text?: string; failed?: boolean; aborted: boolean } = { aborted: false };
      for await (const event of query({
        messages: history,
        prompt: userText(prompt),
        provider: provider(),
        tools: teammateTools(def, deps.tools(name)),
        permissions: deps.permissions(def.mode),
        ...(deps.ask ? { ask: deps.ask } : {}),
        system: () => system,
        cwd: deps.cwd,
        signal: controller.signal,
        maxTurns: def.maxTurns ?? 30,
        agentName: name,
        readState,
      })) {
        track(name, event);
        deps.emit(event.type === 'permission_request' ? event : wrap(event));
        if (event.type === 'terminal') {
          history = event.messages;
          if (event.reason === 'error') deps.emit(notice('warning', `Teammate ${name}: ${event.error ?? 'failed'}`));
          const failed = event.reason === 'error' || event.reason === 'max_turns';
          ended = { aborted: event.reason === 'aborted', ...(failed ? { failed } : {}), text: event.result ?? event.error ?? '' };
        }
      }
      prompt = undefined;
      if (ended.aborted) {
        open = runId;
        break;
      }
      setStatus(name, 'idle', { id: runId, ...(ended.text !== undefined ? { text: ended.text } : {}), ...(ended.failed ? { failed: true } : {}) });
    }
    setStatus(name, 'stopped', open !== undefined ? { id: open, text: 'stopped' } : undefined);
  }

  return {
    spawn(name: string, type: string, instructions: string): TeammateInfo {
      if (!/^[\w-]+$/.test(name) || name === LEAD) throw new Error(`invalid teammate name "${name}": letters, digits, - and _, not "${LEAD}"`);
      const existing = mates.get(name)?.info.status;
      if (existing && existing !== 'stopped') throw new Error(`a teammate named ${name} is already running`);
      const def = deps.definitions().find((d) => d.name === type);
      if (!def) throw new Error(`unknown agent type "${type}"; available: ${deps.definitions().map((d) => d.name).join(', ')}`);
      const controller = new AbortController();
      let pending: (() => void) | undefined;
      let mailWaiting = false;
      const wake = (): void => {
        mailWaiting = true;
        pending?.();
      };
      const waitForMail = (): Promise<void> => {
        if (mailWaiting) {
          mailWaiting = false;
          return Promise.resolve();
        }
        return new Promise<void>((resolve) => {
          pending = () => {
            pending = undefined;
            mailWaiting = false;
            resolve();
          };
          controller.signal.addEventListener('abort', () => resolve(), { once: true });
        });
      };
      const info: TeammateInfo = { name, type, status: 'working' };
      const entry = { info, controller, wake, done: Promise.resolve() };
      mates.set(name, entry);
      deps.emit({ type: 'team', kind: 'spawned', name, status: 'working' });
      entry.done = runMate(name, def, instructions, controller, waitForMail).catch((error: unknown) => {
        deps.emit(notice('error', `Teammate ${name} crashed: ${errorMessage(error)}`));
        setStatus(name, 'stopped');
      });
      return info;
    },
    list(): TeammateInfo[] {
      return [...mates.values()].map((m) => ({ ...m.info }));
    },
    /** Sends the shutdown request; the teammate acknowledges and stops after its current turn. */
    async stop(name: string): Promise<void> {
      const mate = mates.get(name);
      if (!mate || mate.info.status === 'stopped') throw new Error(`no running teammate named ${name}`);
      await deps.bus.send(LEAD, name, 'Please stop: shutdown requested.', 'shutdown_request');
    },
    async waitStopped(name: string): Promise<void> {
      await mates.get(name)?.done;
    },
    abortAll(): void {
      for (const m of mates.values()) m.controller.abort();
    },
    /**
     * Stops every teammate and waits (up to `graceMs`) until each has: the end of a `-p` run, whose
     * answer is final. Returns the names of those that were still working.
     */
    async stopAll(graceMs = 2000): Promise<string[]> {
      const working = [...mates.values()].filter((m) => m.info.status === 'working').map((m) => m.info.name);
      for (const m of mates.values()) m.controller.abort();
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([Promise.all([...mates.values()].map((m) => m.done)), grace]);
      clearTimeout(timer);
      return working;
    },
  };
}

export type Team = ReturnType<typeof createTeam>;
