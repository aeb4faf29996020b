import { afterEach, describe, expect, it } from 'vitest';
import { teamCommands } from '../../components/commands/team-commands.js';
import { BUILTIN_AGENTS } from '../../src/agents/agent-definition.js';
import { createOfflineProvider } from '../../src/providers/offline.js';
import { permissionsForMode } from '../../src/runtime/permissions-from-options.js';
import { createTaskStore } from '../../src/tasks/task-store.js';
import { createMessageBus } from '../../src/team/message-bus.js';
import { createTeam, LEAD } from '../../src/team/team.js';
import { createBuiltinTools } from '../../src/tools/builtin.js';
import { createRig, KEYS } from '../helpers/tui-rig.js';
import { waitFor } from '../helpers/wait-for.js';

type Rig = Awaited<ReturnType<typeof createRig>>;
let rig: Rig | undefined;
afterEach(() => rig?.cleanup());

async function teamRig() {
  rig = await createRig({ rows: 30, columns: 100, files: { 'a.txt': 'one\ntwo\n' } });
  const r = rig;
  const bus = createMessageBus(r.dir);
  const tasks = createTaskStore(r.dir);
  const team = createTeam({
    bus, definitions: () => BUILTIN_AGENTS, provider: () => createOfflineProvider(), tools: () => createBuiltinTools(),
    permissions: (mode) => permissionsForMode({ cwd: r.dir, cairnHome: r.cairnHome, permissions: r.permissions }, mode), emit: (e) => r.session.emit(e), cwd: r.dir, environment: () => '',
  });
  for (const command of teamCommands({ team, bus, tasks })) r.deps.commands.register(command);
  return { r, bus, tasks, team };
}

async function run(r: Rig, text: string): Promise<void> {
  await r.type(text);
  await r.press(KEYS.enter);
}

describe('/team, /inbox, /tasks', () => {
  it('spawns a teammate, lists it with its status, and shows its messages to the lead as notices', async () => {
    const { r, bus, team } = await teamRig();
    await run(r, '/team spawn scout explore read a.txt');
    const started = await r.waitFrame((f) => f.includes('Teammate scout started.'));
    // Said once (issue 12 item 19: the command and the team's event both said it).
    expect(started.split('Teammate scout').length - 1).toBe(1);
    await bus.send('scout', LEAD, 'a.txt has 2 lines');
    await r.waitFrame((f) => f.includes('✉ scout: a.txt has 2 lines'));
    await waitFor(() => team.list()[0]?.status === 'idle', { message: 'scout to go idle' });
    await run(r, '/team');
    await r.waitFrame((f) => /scout\s+explore\s+idle/.test(f));
    await run(r, '/inbox');
    await r.waitFrame((f) => f.includes('Inbox (1):') && f.includes('scout: a.txt has 2 lines'));
    await run(r, '/team stop scout');
    await r.waitFrame((f) => f.includes('Teammate scout stopped.'));
  });

  it("a teammate's work streams into its own card: its reads are in it, and /team says what it did last", async () => {
    const { r, team } = await teamRig();
    await run(r, '/team spawn bob explore read a.txt');
    // While it works, its read streams into its card, nested under it.
    await r.waitFrame((f) => /agent bob \(explore\): read a\.txt/.test(f) && /⎿ explore · turn 1 .*read_file a\.txt/.test(f));
    await r.waitFrame((f) => /✓ agent bob \(explore\): read a\.txt +2 turns/.test(f));
    await waitFor(() => team.list()[0]?.status === 'idle', { message: 'bob to go idle' });
    // Opened like a subagent's card: Enter shows its report and its nested call; Space unfolds it in place.
    await r.press(KEYS.tab);
    await r.press(KEYS.enter);
    await r.waitFrame((f) => f.includes('agent bob (explore): read a.txt ·') && f.includes('Read `a.txt`: 2 lines.') && f.includes('1 nested calls'));
    await r.press('q');
    await r.press(' ');
    const unfolded = await r.waitFrame((f) => /✓ read_file a\.txt +lines 1-2 of 2/.test(f));
    expect(unfolded).toMatch(/✓\s+agent\s+bob \(explore\): read a\.txt[^\n]*\n⎿ explore · turn 2 .* done, 1 tool call\n +✓ read_file a\.txt/);
    // None of it is the lead's conversation.
    expect(r.session.messages).toEqual([]);
    await run(r, '/team');
    await r.waitFrame((f) => /bob\s+explore\s+idle/.test(f) && f.includes('last call: read_file {"path":"a.txt"}') && /last reply: \S/.test(f));
  });

  it('/tasks lists shared tasks; bad subcommands say how to use them', async () => {
    const { r, tasks } = await teamRig();
    const t = await tasks.create({ subject: 'write the docs' });
    await run(r, '/tasks');
    await r.waitFrame((f) => f.includes(`${t.id} [pending] write the docs`));
    await run(r, '/team spawn');
    await r.waitFrame((f) => f.includes('Usage: /team spawn <name> <type> <instructions>'));
  });
});
