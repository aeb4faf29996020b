import { afterEach, describe, expect, it } from 'vitest';
import type { ToolItem } from '../../components/store/types.js';
import { BUILTIN_AGENTS } from '../../src/agents/agent-definition.js';
import { createAgentTool } from '../../src/agents/agent-tool.js';
import type { Message } from '../../src/messages.js';
import { toolResultText } from '../../src/messages.js';
import type { ModelProvider } from '../../src/providers/provider.js';
import { createReadFileTool } from '../../src/tools/read-file.js';
import { assistantText, toolCall } from '../helpers/scripted-provider.js';
import { createRig, KEYS } from '../helpers/tui-rig.js';
import { waitFor } from '../helpers/wait-for.js';

// Two parallel subagents whose reads share one tool_use id, answered with the keys: each ask is
// shown in turn and gets the answer given while it was on screen (issue 32 item 4).

type Rig = Awaited<ReturnType<typeof createRig>>;
let rig: Rig | undefined;
afterEach(() => rig?.cleanup());

const textOf = (m: Message | undefined): string =>
  (m?.content ?? []).map((b) => (b.type === 'text' ? b.text : b.type === 'tool_result' ? toolResultText(b) : '')).join('');

/** Each child reads the file its task names as `toolu_same`, then reports what the read returned. */
const child: ModelProvider = {
  name: 'scripted',
  model: 'scripted-1',
  async *stream(req) {
    const last = req.messages.at(-1);
    const message = last?.content.some((b) => b.type === 'tool_result')
      ? assistantText(`child saw: ${textOf(last)}`)
      : toolCall('toolu_same', 'read_file', { path: textOf(req.messages[0]).includes('a.txt') ? 'a.txt' : 'b.txt' });
    yield { type: 'message', message, stopReason: null };
  },
};

describe('parallel subagents asking under one tool_use id', () => {
  it('y on the first ask and n on the second: each subagent gets the answer given to its own ask', async () => {
    rig = await createRig({
      rows: 40,
      columns: 100,
      files: { 'a.txt': 'alpha-secret\n', 'b.txt': 'beta-secret\n' },
      // The project's ask rule: each read is put to the user.
      settings: { permissions: { ask: ['read_file'] } },
      extraTools: (permissions) => [
        createAgentTool({
          definitions: () => BUILTIN_AGENTS,
          provider: () => child,
          tools: () => [createReadFileTool()],
          permissions: () => permissions,
          environment: () => '',
          // The rig's folder exists only once the rig does; the children start later.
          get cwd() {
            return rig?.dir ?? '';
          },
        }),
      ],
    });
    const r = rig;
    await r.type('use two subagents to read a.txt and b.txt');
    await r.press(KEYS.enter);
    await waitFor(() => r.store.getSnapshot().approvals.length === 2, { message: 'both asks queued' });
    const asks = r.store.getSnapshot().approvals;
    expect(asks.map((a) => a.id)).toEqual(['toolu_same', 'toolu_same']);
    const pathOf = (i: number): string => (asks[i]?.input as { path: string }).path;
    const [allowed, denied] = [pathOf(0), pathOf(1)];

    await r.waitFrame((f) => f.includes('Allow read_file?'));
    r.settle();
    await r.press('y');
    await waitFor(() => r.store.getSnapshot().approvals.length === 1, { message: 'the first ask answered' });
    expect(r.store.getSnapshot().approvals[0]?.request_id).toBe(asks[1]?.request_id);
    r.settle();
    await r.press('n');
    await r.waitFrame((f) => f.includes('type what to do instead'));
    await r.press(KEYS.enter);
    await r.idle();

    const reports = r.store.getSnapshot().items.filter((i): i is ToolItem => i.kind === 'tool' && i.name === 'agent');
    const reportFor = (file: string): string => String(reports.find((t) => (t.input as { task: string }).task.includes(file))?.result);
    const secret = (file: string): string => (file === 'a.txt' ? 'alpha-secret' : 'beta-secret');
    expect(reportFor(allowed)).toContain(secret(allowed));
    expect(reportFor(denied)).toMatch(/Permission denied: the user declined/);
    expect(reportFor(denied)).not.toContain(secret(denied));
  });
});
