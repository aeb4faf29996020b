// --agents (Claude Code's flag): subagent definitions for this session as JSON,
// {"name": {"description", "prompt", "tools"?, "disallowedTools"?, "model"?, "permissionMode"?, "maxTurns"?, "isolation"?}}.
// They outrank the definition files of the same name, as in Claude Code. The command line is the
// user's own, so its permissionMode is taken as given (a project file's may not widen).
import * as z from 'zod';
import { PermissionModeSchema } from '../events.js';
import type { AgentDefinition } from './agent-definition.js';
import { agentToolNames } from './agent-definition-loader.js';

const ToolList = z.union([z.string(), z.array(z.string())]);
const FlagAgentSchema = z.object({
  description: z.string().min(1),
  prompt: z.string().min(1),
  tools: ToolList.optional(),
  disallowedTools: ToolList.optional(),
  model: z.string().min(1).optional(),
  permissionMode: PermissionModeSchema.optional(),
  maxTurns: z.number().int().positive().optional(),
  isolation: z.enum(['worktree']).optional(),
});
const NAME = /^[A-Za-z0-9][\w.-]*$/;

/** The definitions, or the first problem naming the agent and the field (thrown as an Error). */
export function agentsFromFlag(json: Record<string, unknown>): AgentDefinition[] {
  return Object.entries(json).map(([name, value]) => {
    if (!NAME.test(name)) throw new Error(`"${name}": an agent name has letters, digits, ".", "-" and "_" only`);
    const parsed = FlagAgentSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`"${name}": ${issue ? `${issue.path.join('.') || 'definition'}: ${issue.message}` : 'invalid definition'}`);
    }
    const d = parsed.data;
    const tools = agentToolNames(d.tools);
    const disallowed = agentToolNames(d.disallowedTools);
    const model = d.model?.trim();
    return {
      name,
      description: d.description,
      prompt: d.prompt,
      ...(tools ? { tools } : {}),
      ...(disallowed ? { disallowedTools: disallowed } : {}),
      ...(model && model !== 'inherit' ? { model } : {}),
      ...(d.permissionMode && d.permissionMode !== 'default' ? { mode: d.permissionMode } : {}),
      ...(d.maxTurns ? { maxTurns: d.maxTurns } : {}),
      ...(d.isolation ? { isolation: d.isolation } : {}),
      source: '--agents',
    };
  });
}

/** The loaded definitions with the flag's on top: a flag agent replaces a file's of the same name. */
export function withFlagAgents(agents: readonly AgentDefinition[], flag: readonly AgentDefinition[] | undefined): AgentDefinition[] {
  if (!flag || flag.length === 0) return [...agents];
  const byName = new Map(agents.map((a) => [a.name, a]));
  for (const a of flag) byName.set(a.name, a);
  return [...byName.values()];
}
