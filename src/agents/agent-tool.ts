import { subagentStartHooks } from './subagent-hooks.js';
import * as z from 'zod';
import type { AgentEvent, EventOf } from '../events.js';
import { notice } from '../events.js';
import { query } from '../loop/query.js';
import { userText } from '../messages.js';
import { canonicalAgentType } from '../permissions/rules/parse.js';
import type { PermissionChecker } from '../permissions/types.js';
import type { ModelProvider } from '../providers/provider.js';
import type { AnyTool, ToolContext, ToolResult } from '../tools/tool.js';
import type { HookRunner } from '../hooks/hook-types.js';
import type { BackgroundAgents } from './background-agents.js';
import { defineTool } from '../tools/tool.js';
import type { AgentDefinition } from './agent-definition.js';
import { agentListing, describeAgent } from './agent-listing.js';
import { agentModel } from './agent-model.js';
import { agentToolNotices, grantsTool } from './agent-tool-grants.js';
import { titleLine } from '../tools/call-view.js';
import { errorMessage } from '../util/error-message.js';
import { createWorktreeByHook, worktreeRemoveHooks, type HookWorktree } from '../worktrees/worktree-hooks.js';
import { agentWorktreeName, createAgentWorktree, finishAgentWorktree, worktreeReport, type AgentWorktree, type WorktreeOutcome } from '../worktrees/agent-worktree.js';

export const AGENT_TOOL_NAME = 'agent';
/** Subagents may start subagents down to this depth; below it the agent tool is removed. */
export const MAX_AGENT_DEPTH = 2;

export interface AgentToolDeps {
  definitions: () => readonly AgentDefinition[];
  /** The parent's provider now (it can change with /model); for a definition's own model, a factory. */
  provider: (model?: string) => ModelProvider;
  /** The parent's tool pool, without the agent tool (it is added back per depth). */
  tools: () => readonly AnyTool[];
  /** A definition with a fixed mode (explore: plan) gets its own checker; otherwise the parent's. */
  permissions: (mode: AgentDefinition['mode']) => PermissionChecker;
  /** Environment lines for the child's system prompt. */
  environment: () => string;
  cwd: string;
  depth?: number;
  /** Tools of the session kept from subagents (team, schedule, todos): named as such when a definition lists them. */
  withheld?: ReadonlySet<string>;
  /**
   * Where `run_in_background` calls go (the lead's session only); absent: such a call runs in the
   * foreground and says so (cairn -p, subagents' own agent tool).
   */
  background?: BackgroundAgents;
  /**
   * The tools and permission checks of an agent working in its own folder (`isolation: worktree`):
   * rooted there (paths, the workspace boundary, protected paths, the sandbox's writable root).
   * Absent: isolation is refused.
   */
  isolate?: (dir: string) => IsolatedPlace;
}

/** What an agent in its own worktree works with; close() when it is done. */
export interface IsolatedPlace {
  /** The child tools (as AgentToolDeps.tools), rooted at the folder. */
  tools: readonly AnyTool[];
  permissions: (mode: AgentDefinition['mode']) => PermissionChecker;
  close(): void;
}

const inputSchema = z.object({
  type: z.string().describe('The agent type, e.g. explore or general'),
  task: z.string().describe('The full task for the subagent: it sees nothing else of this conversation'),
  description: z.string().describe('A short (3-6 word) label for the task'),
  describe: z.boolean().optional().describe('true: return the type\'s full description (what it is for, its tools and model) instead of running it'),
  run_in_background: z
    .boolean()
    .optional()
    .describe('true: start the subagent and return at once with its id; you are told its report when it finishes (do not poll). Use it for long work you need not wait for'),
  isolation: z
    .enum(['worktree'])
    .optional()
    .describe('"worktree": the subagent works in a new git worktree on a new branch (from HEAD), so its edits do not touch this working tree or other agents\'; you get its branch and a diff summary. Use it for agents that write in parallel'),
});

/** A definition is read-only when it has a tool list and every tool in it only reads. */
export function isReadOnlyAgent(def: AgentDefinition, pool: readonly AnyTool[]): boolean {
  if (def.mode === 'plan') return true;
  if (!def.tools) return false;
  return pool.filter((t) => grantsTool(def, t.name)).every((t) => t.kind === 'read');
}

export function createAgentTool(deps: AgentToolDeps) {
  const depth = deps.depth ?? 0;
  const toldMissing = new WeakSet<AgentDefinition>();
  const find = (type: string) => deps.definitions().find((d) => d.name === type);
  const readOnly = (type: string) => {
    const def = find(type);
    return def !== undefined && isReadOnlyAgent(def, deps.tools());
  };
  return defineTool({
    name: AGENT_TOOL_NAME,
    get description() {
      // Names and one-line summaries within a budget: 148 full descriptions were 34 KB on every request.
      const types = agentListing(deps.definitions());
      return (
        'Starts a subagent: a separate agent with its own history that works on one task and returns a report. ' +
        'Use it for broad searches or self-contained subtasks, to keep this conversation focused. Several read-only ' +
        `subagents in one message run in parallel. The subagent sees only \`task\`, so make it complete. ` +
        `\`describe: true\` returns a type's full description without running it.\nTypes:\n${types}`
      );
    },
    inputSchema,
    describe: (input) => ({ title: `${input.type}: ${titleLine(input.description) || titleLine(input.task)}`, subject: { kind: 'input' } }),
    kind: 'other',
    // The call itself changes nothing: every tool the child runs passes the permission chain.
    // It starts work whose own calls go through the permission chain, under the session's mode.
    effects: () => 'session',
    // `Agent(explore)` rules match the type asked for, so a scoped deny blocks that type only.
    ruleSubject: (input) => canonicalAgentType(input.type),
    // A background call only starts the agent, so it can go alongside others.
    isConcurrencySafe: (input) => readOnly(input.type) || (input.run_in_background === true && deps.background !== undefined),
    async call(input, ctx) {
      const def = find(input.type);
      if (!def) {
        return { content: `Unknown agent type "${input.type}". Available: ${deps.definitions().map((d) => d.name).join(', ')}.`, isError: true };
      }
      const childDepth = depth + 1;
      const pool = deps.tools().filter((t) => grantsTool(def, t.name));
      const canNest = childDepth < MAX_AGENT_DEPTH && grantsTool(def, AGENT_TOOL_NAME);
      const tools: AnyTool[] = canNest ? [...pool, createAgentTool({ ...withoutBackground(deps), depth: childDepth })] : pool;
      // An alias (sonnet, opus, haiku) becomes the session provider's model of that tier.
      const session = deps.provider();
      const chosen = agentModel(def.model, session.model);
      if (input.describe) return { content: describeAgent(def, { tools: tools.map((t) => t.name), model: chosen.model }) };
      if (chosen.notice) ctx.emit?.(notice('warning', `Agent ${def.name}: ${chosen.notice}`));
      // Tools the definition names that cairn lacks (WebSearch, an MCP server not connected): said once per definition.
      if (!toldMissing.has(def)) {
        toldMissing.add(def);
        for (const line of agentToolNotices([def], [...deps.tools().map((t) => t.name), AGENT_TOOL_NAME], deps.withheld)) ctx.emit?.(notice('info', line));
      }
      const provider = chosen.model === session.model ? session : deps.provider(chosen.model);
      // As in Claude Code, a parent in acceptEdits, auto or bypassPermissions keeps its mode over the definition's.
      const parentMode = deps.permissions(undefined).mode;
      const mode = def.source !== 'built-in' && (parentMode === 'acceptEdits' || parentMode === 'auto' || parentMode === 'bypassPermissions') ? undefined : def.mode;
      let place: Place = { cwd: deps.cwd, tools, permissions: deps.permissions, environment: deps.environment };
      let isolated: Isolated | undefined;
      if ((input.isolation ?? def.isolation) === 'worktree') {
        const made = await isolate(def, childDepth, canNest, ctx);
        if ('error' in made) return { content: made.error, isError: true };
        ({ place, isolated } = made);
        const wt = made.isolated.worktree;
        ctx.emit?.(notice('info', 'byHook' in wt ? `Agent ${def.name} works in ${wt.dir}, made by the WorktreeCreate hook (${wt.byHook})` : `Agent ${def.name} works in the git worktree ${wt.dir} on the new branch ${wt.branch}${wt.mainWasDirty ? ' (from HEAD: your uncommitted changes are not in it)' : ''}`));
      }
      const inPlace = place;
      const run = async (signal: AbortSignal, emit: ((event: AgentEvent) => void) | undefined, parentId: string): Promise<ToolResult> => {
        let result: ToolResult;
        try {
          result = await runChild({ def, input, ctx, provider, place: inPlace, mode, childDepth, signal, emit, parentId });
        } catch (error) {
          // A crash still leaves the worktree summed up (removed when untouched); the crash is told as before.
          if (isolated) await withWorktreeOutcome({ content: '' }, isolated, def.name, ctx.hooks, emit).catch(() => undefined);
          throw error;
        }
        return isolated ? withWorktreeOutcome(result, isolated, def.name, ctx.hooks, emit) : result;
      };
      if (input.run_in_background === true) {
        if (!deps.background) {
          const result = await run(ctx.signal, ctx.emit, ctx.toolUseId ?? 'agent');
          return { ...result, content: `(run_in_background is not available here, so the subagent ran in the foreground.)\n${result.content}` };
        }
        const id = deps.background.start({ agentType: def.name, description: input.description, task: input.task, run: (signal, emit, bgId) => run(signal, emit, bgId) });
        return {
          content: `Started the background agent ${id} (${def.name}: ${input.description}). It works on its own; its report reaches you when it finishes. Do not wait or poll for it: go on with other work, or end your turn.`,
        };
      }
      return run(ctx.signal, ctx.emit, ctx.toolUseId ?? 'agent');
    },
  });

  /**
   * Makes the agent's worktree and the tools rooted there; a subagent it starts works there too. Refused
   * (as Claude Code does) outside a git repository or without git.
   */
  async function isolate(def: AgentDefinition, childDepth: number, canNest: boolean, ctx: ToolContext): Promise<{ place: Place; isolated: Isolated } | { error: string }> {
    if (!deps.isolate) return { error: 'isolation: worktree is not available here (only the session\'s own agents can work in a worktree); run it without isolation or from the session.' };
    let worktree: AgentWorktree | HookWorktree;
    try {
      // A WorktreeCreate hook replaces git's creation; when it fails, the agent does not run (no fall back).
      const byHook = await createWorktreeByHook(ctx.hooks, agentWorktreeName(def.name), (e) => ctx.emit?.(e), deps.cwd, ctx.signal);
      if (byHook && 'error' in byHook) throw new Error(byHook.error);
      worktree = byHook ? { dir: byHook.dir, byHook: byHook.hook } : await createAgentWorktree(deps.cwd, def.name);
    } catch (error) {
      return { error: `Cannot start the ${def.name} subagent in a worktree: ${errorMessage(error)}. It did not run; run it without isolation to work in this folder.` };
    }
    const rooted = deps.isolate(worktree.dir);
    const childDeps: AgentToolDeps = { ...withoutBackground(deps), cwd: worktree.dir, tools: () => rooted.tools, permissions: rooted.permissions, environment: () => inWorktree(deps.environment(), deps.cwd, worktree) };
    const pool = rooted.tools.filter((t) => grantsTool(def, t.name));
    const tools = canNest ? [...pool, createAgentTool({ ...childDeps, depth: childDepth })] : pool;
    return { place: { cwd: worktree.dir, tools, permissions: rooted.permissions, environment: childDeps.environment }, isolated: { worktree, close: rooted.close } };
  }

  interface ChildRun {
    def: AgentDefinition;
    input: z.infer<typeof inputSchema>;
    ctx: ToolContext;
    provider: ModelProvider;
    place: Place;
    mode: AgentDefinition['mode'];
    childDepth: number;
    signal: AbortSignal;
    emit: ((event: AgentEvent) => void) | undefined;
    parentId: string;
  }

  async function runChild({ def, input, ctx, provider, place, mode, childDepth, signal, emit, parentId }: ChildRun): Promise<ToolResult> {
    const wrap = (event: AgentEvent): EventOf<'subagent'> => ({ type: 'subagent', parent_id: parentId, agent_type: def.name, depth: childDepth, event });
    let terminal: EventOf<'terminal'> | undefined;
    const started = await subagentStartHooks(ctx.hooks, def.name, parentId, signal, (e) => emit?.(e));
    for await (const event of query({
      messages: [],
      prompt: started === undefined ? userText(input.task) : userText(`${input.task}\n\n<hook-context>\n${started}\n</hook-context>`),
      provider,
      tools: place.tools,
      permissions: place.permissions(mode),
      // Asks go to the parent's channel (the user's prompt, labelled); without one they are denied.
      ...(ctx.ask ? { ask: ctx.ask } : {}),
      system: () => `${def.prompt}\n\n${place.environment()}`,
      cwd: place.cwd,
      signal,
      maxTurns: def.maxTurns ?? 30,
      agentName: `${def.name} subagent`,
      // What the parent has read, the subagent may edit while it is unchanged on disk; its own reads stay its own.
      ...(ctx.readState ? { readState: ctx.readState.clone() } : {}),
      ...(ctx.hooks ? { hooks: ctx.hooks } : {}),
      ...(ctx.refuseModelCall ? { refuseModelCall: ctx.refuseModelCall } : {}),
      ...(ctx.classifier ? { classifier: ctx.classifier } : {}),
    })) {
      if (event.type === 'terminal') terminal = event;
      emit?.(wrap(event));
    }
    if (!terminal) return { content: 'The subagent ended without a result.', isError: true };
    const display = { kind: 'agent' as const, agent: def.name, turns: terminal.turns, reason: terminal.reason };
    if (terminal.reason === 'completed') return { content: terminal.result || '(the subagent gave no report)', display };
    const why = terminal.reason === 'aborted' ? 'was interrupted' : terminal.reason === 'max_turns' ? 'ran out of turns' : terminal.reason === 'max_budget' ? `was stopped: ${terminal.error ?? 'spending cap reached'}` : `failed: ${terminal.error ?? 'unknown error'}`;
    return { content: `The ${def.name} subagent ${why}.${terminal.result ? `\nIts last words: ${terminal.result}` : ''}`, isError: true, display };
  }
}

/** A subagent's own worktree (git's, or a WorktreeCreate hook's) and how to release the tools rooted there. */
interface Isolated {
  worktree: AgentWorktree | HookWorktree;
  close(): void;
}

/** Where a subagent works: the session's folder, or its own worktree. */
interface Place {
  cwd: string;
  tools: readonly AnyTool[];
  permissions: (mode: AgentDefinition['mode']) => PermissionChecker;
  environment: () => string;
}

/** The environment lines with the worktree as the workspace, and a line saying where the agent is. */
function inWorktree(environment: string, workspace: string, worktree: AgentWorktree | HookWorktree): string {
  if ('byHook' in worktree) return `${environment.split(workspace).join(worktree.dir)}\nYou work in a worktree of your own (${worktree.dir}): read and change files only there; the user's working tree is ${workspace} and is not yours to change.`;
  return `${environment.split(workspace).join(worktree.dir)}\nYou work in a git worktree of your own, on the branch ${worktree.branch} (made from HEAD): read and change files only there; the user's working tree is ${workspace} and is not yours to change.`;
}

/** The agent's result with what its worktree holds (or that it was removed), on the card too. */
async function withWorktreeOutcome(result: ToolResult, isolated: Isolated, agent: string, hooks: HookRunner | undefined, emit: ((event: AgentEvent) => void) | undefined): Promise<ToolResult> {
  isolated.close();
  const tell = (event: AgentEvent): void => emit?.(event);
  const wt = isolated.worktree;
  if ('byHook' in wt) {
    // cairn cannot tell what a hook's worktree holds: the WorktreeRemove hooks are told the agent is done, as Claude Code does.
    const removers = hooks?.has('WorktreeRemove') === true;
    if (removers) await worktreeRemoveHooks(hooks, wt.dir, tell);
    return { ...result, content: `${result.content}\n\nThe subagent worked in ${wt.dir}, made by the WorktreeCreate hook; ${removers ? 'the WorktreeRemove hooks were run for it' : 'no WorktreeRemove hook is configured, so it is left as it is'}.` };
  }
  let outcome: WorktreeOutcome;
  try {
    outcome = await finishAgentWorktree(wt, (dir) => worktreeRemoveHooks(hooks, dir, tell));
  } catch (error) {
    return { ...result, content: `${result.content}\n\nIts git worktree ${wt.dir} (branch ${wt.branch}) was kept; what it changed could not be read: ${errorMessage(error)}` };
  }
  const worktree = { branch: outcome.branch, path: outcome.path, kept: outcome.kept, files: outcome.files.length, added: outcome.added, removed: outcome.removed, commits: outcome.commits };
  const display = result.display?.kind === 'agent' ? { ...result.display, worktree } : { kind: 'agent' as const, agent, turns: 0, reason: result.isError ? 'error' : 'completed', worktree };
  return { ...result, content: `${result.content}\n\n${worktreeReport(outcome, wt.mainWasDirty)}`, display };
}

/** A subagent's own agent tool: its children run in the foreground (only the lead's session keeps background agents). */
function withoutBackground(deps: AgentToolDeps): AgentToolDeps {
  const { background: _background, ...rest } = deps;
  return rest;
}
