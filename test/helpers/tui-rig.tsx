import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { render } from 'ink-testing-library';
import { App } from '../../components/app/App.js';
import { createItemLines } from '../../components/transcript/item-lines.js';
import { createMarkdownLines } from '../../components/transcript/markdown-lines.js';
import { builtinCommands } from '../../components/commands/builtin.js';
import { createCommandRegistry } from '../../components/commands/registry.js';
import { APPROVAL_GUARD_MS, TYPING_IDLE_MS } from '../../components/keys/approval-guard.js';
import { createAppContext } from '../../components/actions/app-context.js';
import { loadMarkdown } from '../../components/markdown/render-markdown.js';
import { createStore } from '../../components/store/create-store.js';
import { stripAnsi, textWidth } from '../../components/theme/ansi.js';
import type { PermissionMode } from '../../src/events.js';
import type { PermissionChecker } from '../../src/permissions/types.js';
import { createOfflineProvider } from '../../src/providers/offline.js';
import type { ModelProvider } from '../../src/providers/provider.js';
import type { ProviderFor } from '../../src/runtime/provider-setup.js';
import { AgentSession } from '../../src/session/agent-session.js';
import { createDecisionLog } from '../../src/session/decision-log.js';
import type { AnyTool } from '../../src/tools/tool.js';
import { createBuiltinTools } from '../../src/tools/builtin.js';
import { realPermissions } from './real-permissions.js';
import { testSandbox } from './sandbox.js';
import { waitFor } from './wait-for.js';

export const KEYS = {
  enter: '\r',
  esc: '\x1b',
  up: '\x1b[A',
  down: '\x1b[B',
  shiftUp: '\x1b[1;2A',
  shiftDown: '\x1b[1;2B',
  pageUp: '\x1b[5~',
  pageDown: '\x1b[6~',
  home: '\x1b[H',
  end: '\x1b[F',
  tab: '\t',
  shiftTab: '\x1b[Z',
  ctrlC: '\x03',
  ctrlD: '\x04',
  ctrlO: '\x0f',
  backspace: '\x7f',
  wheelUp: '\x1b[<64;5;5M',
  wheelDown: '\x1b[<65;5;5M',
} as const;

export interface RigOptions {
  columns?: number;
  rows?: number;
  /** An existing workspace to start in (a later session in the same project); default: a new temp folder. */
  workspace?: string;
  /** Files of the workspace, by relative path (folders are made): `.cairn/settings.json` is the project's settings. */
  files?: Record<string, string>;
  /** The starting mode, as `--permission-mode` gives it (over the settings' defaultMode). */
  mode?: PermissionMode;
  /** The workspace's `.cairn/settings.json` (written before start): its rules are in force, as a trusted project's are. */
  settings?: Record<string, unknown>;
  /** Runs bash in the OS sandbox (bubblewrap), as cairn does by default; off unless asked for. */
  sandbox?: boolean;
  deltaDelayMs?: number;
  /** Tools beyond the built-in ones, each made with the rig's permissions. */
  extraTools?: (permissions: PermissionChecker) => AnyTool[];
  /** Keep a permission decision log (in memory, or in this file), as the app does. */
  decisions?: { file?: string };
  /** The session's model (default: the offline one) and how it makes others (/model), as start-up sets them up. */
  provider?: ModelProvider;
  providerFor?: ProviderFor;
}

/** The whole App on the offline model in a temp workspace, driven through stdin like a user. */
export async function createRig(options: RigOptions = {}) {
  await loadMarkdown();
  const dir = options.workspace ?? (await realpath(await mkdtemp(join(tmpdir(), 'cairn-tui-'))));
  for (const [name, content] of Object.entries(options.files ?? {})) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), content);
  }
  const { permissions, cairnHome, localSettings } = await realPermissions({
    workspace: dir,
    ...(options.settings ? { settings: options.settings } : {}),
    ...(options.mode ? { mode: options.mode } : {}),
  });
  const sandbox = options.sandbox ? await testSandbox(dir) : undefined;
  sandbox?.hideReadDenied(async () => (await permissions.readDeniedPlaces?.()) ?? []);
  const decisions = options.decisions ? createDecisionLog({ ...options.decisions, now: () => new Date(), onProblem: () => undefined }) : undefined;
  const session = new AgentSession({
    ...(decisions ? { decisions } : {}),
    provider: options.provider ?? createOfflineProvider(options.deltaDelayMs !== undefined ? { deltaDelayMs: options.deltaDelayMs } : {}),
    ...(options.providerFor ? { providerFor: options.providerFor } : {}),
    tools: [...createBuiltinTools(sandbox ? { sandbox } : {}), ...(options.extraTools?.(permissions) ?? [])],
    permissions,
    cwd: dir,
    system: () => 'test system prompt',
    interactive: true,
  });
  if (decisions) session.subscribe((event) => decisions.record(event));
  const store = createStore(session, { cwd: dir, frameMs: 5 });
  const commands = createCommandRegistry(builtinCommands());
  const exits: number[] = [];
  const history: string[] = [];
  // The clock runs, and tests move it on past the approval guard instead of sleeping. A test of the
  // guard's timing holds it, so a slow machine cannot make keys look further apart than they were.
  let skipped = 0;
  let heldAt: number | undefined;
  const now = (): number => (heldAt ?? Date.now()) + skipped;
  // The app's own wiring of keys and commands (run-tui builds its deps the same way).
  const deps = createAppContext({
    store,
    session,
    commands,
    systemPrompt: async () => 'SYSTEM PROMPT TEXT',
    setTheme: async (name) => store.dispatch({ type: 'theme', name }),
    exit: (code) => exits.push(code),
    history: () => history,
    onPrompt: (t) => history.push(t),
    now,
  });
  const { guard } = deps;
  const columns = options.columns ?? 80;
  const rows = options.rows ?? 24;
  const app = render(<App deps={deps} itemLines={createItemLines(createMarkdownLines())} size={{ columns, rows }} />);
  const frame = (): string => stripAnsi(app.lastFrame() ?? '');
  await waitFor(() => frame().length > 0, { message: 'first frame' });
  const rig = {
    dir,
    /** The workspace's settings file "always in this project" answers are saved to. */
    localSettings,
    /** The rig's CAIRN_HOME (its user settings file is read, and empty). */
    cairnHome,
    session,
    store,
    permissions,
    deps,
    exits,
    app,
    frame,
    /** Writes keys one event at a time, letting Ink process each. */
    async press(...keys: string[]) {
      for (const k of keys) {
        app.stdin.write(k);
        await new Promise((resolve) => setImmediate(resolve));
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
    async type(text: string) {
      await rig.press(text);
    },
    /** Moves the clock past the approval guard and the typing pause: the next key answers a waiting approval. */
    settle() {
      store.flushNow();
      skipped += APPROVAL_GUARD_MS + TYPING_IDLE_MS;
    },
    /** Stops real time from moving the clock: from now on only later() and settle() do. */
    holdClock() {
      heldAt ??= Date.now();
    },
    /** Moves the clock on. */
    later(ms: number) {
      skipped += ms;
    },
    async waitFrame(predicate: (frame: string) => boolean, message?: string) {
      return waitFor(() => {
        store.flushNow();
        const f = frame();
        if (!predicate(f)) throw new Error(`frame did not match:\n${f}`);
        return f;
      }, message ? { message } : {});
    },
    async idle() {
      await waitFor(
        () => {
          store.flushNow();
          return !session.busy && !store.getSnapshot().busy;
        },
        { message: 'session idle' },
      );
    },
    widest(): number {
      return Math.max(...(app.lastFrame() ?? '').split('\n').map((l) => textWidth(l)));
    },
    cleanup() {
      guard.dispose();
      session.abort();
      app.unmount();
      store.dispose();
      sandbox?.close();
    },
  };
  return rig;
}
