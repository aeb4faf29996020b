import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionActions } from '../../components/commands/session-actions.js';
import { createSessionActions } from '../../components/commands/session-actions.js';
import { sessionCommands } from '../../components/commands/session-commands.js';
import { saveLoadCommands } from '../../components/commands/save-load-commands.js';
import { sectionsCommand } from '../../components/commands/sections-command.js';
import type { PromptSection } from '../../src/context/system-prompt.js';
import type { createRig } from './tui-rig.js';

type Rig = Awaited<ReturnType<typeof createRig>>;

/** Gives a rig what runTui gives the app: a CAIRN_HOME, memory, session switching and the session commands. */
export async function withSessions(rig: Rig, options: { home?: string; currentId?: string; sections?: () => Promise<PromptSection[]> } = {}) {
  const home = options.home ?? (await realpath(await mkdtemp(join(tmpdir(), 'cairn-home-'))));
  const switched: string[] = [];
  const actions: SessionActions = createSessionActions({
    cairnHome: home,
    cwd: rig.dir,
    ...(options.currentId !== undefined ? { currentId: options.currentId } : {}),
    ...(options.sections ? { sections: options.sections } : {}),
    onSwitch: (id) => switched.push(id),
  });
  rig.deps.sessions = actions;
  for (const command of [...sessionCommands(actions), sectionsCommand(actions), ...saveLoadCommands(actions)]) rig.deps.commands.register(command);
  return { home, actions, switched };
}
