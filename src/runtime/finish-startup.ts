// Start-up, phase 4 of 4: what the TUI's first frame does not show (the agent definitions,
// SessionStart hooks, skills and custom commands, the tools, the scheduler's link to the session,
// the model provider's SDK).
// The TUI runs it just after that frame; `cairn -p` and every other caller before the first turn.
// What it finds goes to `tell`: start-up notices before the session is shown, warnings after.
import { agentToolNotices } from '../agents/agent-tool-grants.js';
import { withFolderInstructions } from '../context/folder-instructions-tools.js';
import { unknownToolWarnings } from '../permissions/rules/unknown-tools.js';
import { loadSkillRuntime, type SkillRuntime } from '../skills/skill-runtime.js';
import { hookLine } from './hook-wiring.js';
import { loadProviderModule } from '../providers/create.js';
import type { OpenedSession } from './open-session.js';
import { connectScheduledRuns } from './session-wiring.js';
import { loadAgents } from './startup-state.js';
import type { Services } from './startup-services.js';
import type { AnyTool } from '../tools/tool.js';

export async function finishStartup(services: Services, opened: OpenedSession, tell: (line: string) => void): Promise<void> {
  const { options, cwd, cairnHome } = services;
  const found: string[] = [];
  const { agents, problems } = await loadAgents({ cwd, cairnHome, env: options.env, trusted: services.facts.trusted, bare: options.bare === true, ...(options.agents ? { agents: options.agents } : {}) }, found);
  services.agents = { list: agents, problems, loaded: true };
  for (const line of found) tell(line);
  // Their text waits for the first prompt (hook-wiring).
  await services.hooks.start(services.start.resumed ? 'resume' : 'startup', (event) => tell(hookLine(event)));
  // Skills and custom commands (frontmatter in YAML: ~20 ms to read the shipped ones cold).
  const skills = await loadSkillRuntime({ cwd, cairnHome, env: options.env, permissions: services.permissions, trusted: services.facts.trusted, sandbox: services.sandbox, bare: options.bare === true, hooks: { runner: services.hooks.runner, emit: (event) => opened.session.emit(event) } });
  for (const line of skills.problems) tell(line);
  services.skills.current = skills;
  services.skills.found(skills);
  skills.follow(opened.session);
  await setUpTools(services, opened, skills, tell);
  for (const line of agentToolNotices(agents, services.tools.map((t) => t.name))) tell(line);
  connectScheduledRuns(opened.session, services.background, services.tools.find((t) => t.name === 'agent'), cwd);
  // The model's SDK, while the user types the first prompt. A failure is the first call's to report.
  loadProviderModule(services.modelProvider().api).catch(() => undefined);
}

/** `--tools`: only the named built-in tools (MCP servers' tools are not affected); a name no tool has is told. */
function offeredByFlag(tools: AnyTool[], names: readonly string[] | undefined, tell: (line: string) => void): AnyTool[] {
  if (names === undefined) return tools;
  const unknown = names.filter((name) => !tools.some((t) => t.name === name));
  if (unknown.length > 0) tell(`--tools: no built-in tool is called ${unknown.join(', ')}; the tools are ${tools.map((t) => t.name).join(', ')}`);
  return tools.filter((t) => names.includes(t.name));
}

/** The built-in tools and load_skill, first in the session's tool list (MCP tools join after). */
async function setUpTools(services: Services, opened: OpenedSession, skills: SkillRuntime, tell: (line: string) => void): Promise<void> {
  const { options, cwd, cairnHome, now, permissions, start } = services;
  // The tool implementations (most of the engine's code) load here: after the TUI's first frame.
  const [{ createToolPool }, { setUpLargeOutput }] = await Promise.all([import('./tool-pool.js'), import('./large-output-setup.js')]);
  const pool = createToolPool({
    cwd,
    cairnHome,
    now,
    shells: services.background.shells,
    watches: services.background.watches,
    sandbox: services.sandbox,
    cron: services.background.cron,
    todos: start.todos,
    permissions,
    agents: () => services.agents.list,
    provider: services.modelProvider,
    environment: services.environment,
    env: options.env,
    largeOutput: setUpLargeOutput({ cwd, cairnHome, env: options.env, sessionId: start.sessionId, permissions, now, onProblem: services.reportProblem }),
    subagentTools: [skills.subagentLoadSkillTool],
    ...(services.checkpoints ? { checkpoints: services.checkpoints } : {}),
    tasks: services.tasks,
    bus: services.bus,
    team: () => opened.team,
    questions: () => opened.session.questionChannel,
    // Background agents need a session that outlives the turn (the TUI, the page); cairn -p ends with it.
    ...(options.interactive ? { backgroundAgents: services.background.agents } : { headless: true }),
  });
  services.teammateTools = pool.teammateTools;
  // Reads and edits in a subfolder bring its CLAUDE.md/AGENTS.md (and matching .claude/rules) into the context.
  const builtins = offeredByFlag([...pool.tools, skills.loadSkillTool], options.tools, tell);
  services.tools.unshift(...withFolderInstructions(builtins, services.promptSource.forPaths));
  // Teammates and subagents use a subset of these names, so this list is the whole vocabulary.
  for (const line of unknownToolWarnings(services.origins, services.tools.map((t) => t.name))) tell(line);
}
