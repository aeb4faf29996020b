import type { HookSet } from '../../src/hooks/hook-set.js';
import type { HookRunner } from '../../src/hooks/hook-types.js';
import { loadTextWidth } from '../theme/text-width.js';
import { hooksCommands } from '../commands/hooks-command.js';
import { render } from 'ink';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { PriceTable } from '../../src/pricing.js';
import { sessionFile } from '../../src/session/session-paths.js';
import type { AgentSession } from '../../src/session/agent-session.js';
import { builtinCommands } from '../commands/builtin.js';
import { createCommandRegistry } from '../commands/registry.js';
import { createAppContext } from '../actions/app-context.js';
import { submit } from '../actions/submit.js';
import { KEYMAP, setActiveKeymap } from '../keys/keymap.js';
import { loadKeybindings } from '../keys/user-keybindings.js';
import { loadMarkdown } from '../markdown/render-markdown.js';
import { watchPasteSilence } from '../prompt/terminal-input.js';
import { watchTypeAhead } from '../prompt/type-ahead.js';
import { appendPromptHistory, loadPromptHistory } from '../prompt/prompt-history.js';
import { createStore } from '../store/create-store.js';
import { replayEvents } from '../store/replay.js';
import { loadTuiSettings, saveTuiSettings } from '../theme/tui-settings.js';
import { App } from './App.js';
import type { BackgroundUiOptions } from './background-ui.js';
import { startBackgroundUi } from './background-ui.js';
import { teamCommands, type TeamCommandDeps } from '../commands/team-commands.js';
import { newSkillCommands, skillCommands } from '../commands/skill-commands.js';
import type { SkillRuntime } from '../../src/skills/skill-runtime.js';
import { createTurnNotifier } from './turn-notifier.js';
import { refreshesStatusLine, startStatusLine, statusLineFor, statusLineInput } from './status-line.js';
import { readStatusLineSetting } from '../../src/settings/status-line-setting.js';
import { ErrorBoundary } from './ErrorBoundary.js';
import { createItemLines } from '../transcript/item-lines.js';
import { createMarkdownLines } from '../transcript/markdown-lines.js';
import type { TuiSessionOptions } from './session-startup.js';
import { startSessionUi } from './session-startup.js';
import { PainterContext } from './painter-context.js';
import { createScreenPainter } from './screen-painter.js';
import { guardTerminal, RESTORE_TERMINAL } from './terminal-guard.js';
import { createTerminalOutput, ENTER_SCREEN, MOUSE_ON } from './terminal-output.js';
import { startInlineImages } from './inline-images.js';
import { handleJobControl } from './job-control.js';
import { createTuiLog } from './tui-log.js';
import { RedrawKey } from './RedrawKey.js';
import { createTerminalControls } from './terminal-controls.js';
import { terminalCommands } from '../commands/terminal-commands.js';
import { scrollbackText } from '../transcript/scrollback-text.js';
import { createExternalEditor, type RunExternalEditor } from './external-editor.js';
import { memoryCommand } from '../commands/memory-command.js';
import { worktreesCommand } from '../commands/worktrees-command.js';
import type { SystemPromptSource } from '../../src/context/system-prompt-source.js';
import { claudeHomeFrom } from '../../src/settings/settings-layers.js';
import { captureOutput, createStrayNotices, type OutputCapture } from './stray-output.js';
import type { McpManager } from '../../src/mcp/mcp-manager.js';
import { startMcpUi } from './mcp-ui.js';
import { createPluginActions, pluginCommand } from '../commands/plugin-command.js';
import { createModelActions } from '../commands/model-command.js';
import { workspaceTrust } from '../../src/settings/workspace-trust.js';
import { startFrameStats } from '../terminal/frame-stats.js';
import { DisposalStack } from '../../src/util/disposal-stack.js';

export interface RunTuiOptions {
  session: AgentSession;
  cwd: string;
  cairnHome: string;
  initialPrompt?: string;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
  /** A recorded stream-json file to play into the transcript (`cairn --replay`). */
  replayFile?: string;
  replaySpeed?: number;
  /** The assembled system prompt, for /prompt. */
  systemPrompt?: () => Promise<string>;
  env?: NodeJS.ProcessEnv;
  /** Fixed size instead of the terminal's (tests). */
  size?: { columns: number; rows: number };
  /**
   * Signal and uncaught-error handlers, the terminal watchdog, and taking console output, process
   * warnings and stray writes to stdout/stderr off the screen; off in tests that share the process.
   * Default true.
   */
  handleProcessEvents?: boolean;
  /** Resumed transcript, startup notices, the context window, switching sessions. */
  sessions?: TuiSessionOptions;
  /** Cron tasks, background shells and the todo list (status bar counts, notices, /cron, /bashes). */
  background?: BackgroundUiOptions;
  /** Teammates, the lead's inbox and shared tasks (/team, /inbox, /tasks). */
  team?: TeamCommandDeps;
  /** The hooks in force (/hooks). */
  hooks?: HookSet;
  /** The session's hook runner (WorktreeRemove for /worktrees remove). */
  hookRunner?: HookRunner;
  /** The instruction files in the context (/memory). */
  instructions?: Pick<SystemPromptSource, 'loadedFiles' | 'problems' | 'bare'>;
  /** Prices for the cost estimate in /usage and the status bar (built-in when absent). */
  pricing?: PriceTable;
  /** Skills and custom commands: /skills, and a /name for each after the built-ins (once loaded, when a promise). */
  skills?: SkillRuntime | Promise<SkillRuntime>;
  /** The early first frame already on screen (components/app/early-frame.ts): the app diffs against it. */
  earlyFrame?: string;
  /** The MCP servers: /mcp, /mcp__<server>__<prompt>, a warning when one fails. */
  mcp?: McpManager;
  /** Called once, just after the first frame is on the screen: start-up's deferred half (main.ts). */
  afterFirstFrame?: () => void;
}

/** Runs the full-screen UI until the user leaves; resolves to the process exit code. */
export async function runTui(options: RunTuiOptions): Promise<number> {
  // Every width from here on is string-width's (the early frame drew without it).
  await loadTextWidth();
  const { session, cwd, cairnHome } = options;
  const env = options.env ?? process.env;
  const realStdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const log = createTuiLog(cairnHome);
  // Each part registers its undo where it is set up; leaving undoes them in reverse.
  const disposals = new DisposalStack();
  disposals.defer('frame stats', startFrameStats(env));
  // Markdown and highlighting take ~0.4 s to import: wait for them only when the first frame has
  // markdown to show (a resumed transcript, a replay, a prompt); otherwise they load just after it.
  const markdownFirst = Boolean(options.sessions?.resumedEvents?.length || options.replayFile || options.initialPrompt);
  if (markdownFirst) await loadMarkdown();
  const { settings, problem } = await loadTuiSettings(cairnHome);
  // Kept across sessions and workspaces, one JSON line per prompt.
  const historyFile = join(cairnHome, 'history.jsonl');
  const history = await loadPromptHistory(historyFile);
  const contextWindow = options.sessions?.contextWindow;
  const store = createStore(session, { cwd, themeName: settings.theme, ...(contextWindow ? { contextLimit: contextWindow } : {}), ...(options.pricing ? { pricing: options.pricing } : {}) });
  disposals.defer('store', () => store.dispose());
  if (problem) store.dispatch({ type: 'notice', level: 'warning', message: problem });
  const keybindings = await loadKeybindings(cairnHome);
  setActiveKeymap(keybindings.keymap);
  disposals.defer('key bindings', () => setActiveKeymap(KEYMAP));
  for (const message of keybindings.problems) store.dispatch({ type: 'notice', level: 'warning', message });
  // Set when the user picks another session: the app reopens on it, so no resume line is printed.
  let switching = false;
  const sessionUi = await startSessionUi({
    store,
    session,
    cwd,
    cairnHome,
    ...(options.sessions ? { options: options.sessions } : {}),
    exit: () => {
      switching = true;
      finish(0);
    },
  });
  const backgroundUi = startBackgroundUi({ store, session, cwd, cairnHome, options: options.background ?? {} });
  disposals.defer('background UI', () => backgroundUi.dispose());
  const commands = createCommandRegistry([...builtinCommands(), ...sessionUi.commands, ...backgroundUi.commands, ...teamCommands(options.team ?? {}), ...hooksCommands(options.hooks)]);
  disposals.defer('MCP UI', startMcpUi({ store, session, commands, mcp: options.mcp }));
  commands.register(worktreesCommand(cwd, options.hookRunner));
  commands.register(memoryCommand({ ...(options.instructions ? { instructions: options.instructions } : {}), cwd, claudeHome: claudeHomeFrom(env), cairnHome, ...(env['HOME'] ? { home: env['HOME'] } : {}) }));
  const addSkills = (skills: SkillRuntime | undefined): void => {
    const custom = skillCommands(skills, (name) => commands.find(name) !== undefined);
    for (const command of custom.commands) commands.register(command);
    for (const message of custom.notices) store.dispatch({ type: 'notice', level: 'warning', message });
    // The palette reads the commands as it renders: a "/" typed before they came shows them now.
    store.dispatch({ type: 'palette' });
  };
  // main.ts loads them after the first frame: their commands join the palette then.
  if (options.skills instanceof Promise) options.skills.then(addSkills, (error: unknown) => fatal(error));
  else addSkills(options.skills);
  for (const command of terminalCommands()) commands.register(command);
  // /plugin: a plugin switched on brings its commands to the palette and its hooks at once.
  commands.register(pluginCommand());
  const plugins = createPluginActions({
    cwd,
    cairnHome,
    env,
    trusted: async () => (await workspaceTrust({ workspace: cwd, cairnHome, claudeHome: claudeHomeFrom(env) })).trusted,
    reload: async () => {
      await options.hooks?.reload();
      const skills = await options.skills;
      if (!skills) return;
      await skills.reload();
      for (const command of newSkillCommands(skills, (name) => commands.find(name) !== undefined)) commands.register(command);
      store.dispatch({ type: 'palette' });
    },
  });
  let runEditor: RunExternalEditor | undefined;

  let resolveExit: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => (resolveExit = resolve));
  let finished = false;
  let fatalError: Error | undefined;
  const finish = (code: number): void => {
    if (finished) return;
    finished = true;
    resolveExit(code);
  };
  const fatal = (error: unknown): void => {
    fatalError = error instanceof Error ? error : new Error(String(error));
    log.write(`fatal: ${fatalError.stack ?? fatalError.message}`);
    finish(1);
  };

  const deps = createAppContext({
    plugins,
    models: createModelActions({ cairnHome, env, prices: store.getSnapshot().pricing }),
    store,
    session,
    commands,
    systemPrompt: options.systemPrompt ?? (async () => '(the system prompt is not available here)'),
    async setTheme(name) {
      store.dispatch({ type: 'theme', name });
      await saveTuiSettings(cairnHome, { theme: name });
    },
    exit: finish,
    history: () => history,
    onPrompt(text) {
      history.push(text);
      appendPromptHistory(historyFile, text, cwd).catch((error: unknown) => log.write(`prompt history: ${String(error)}`));
    },
    now: Date.now,
    sessions: sessionUi.actions,
    // Bound once the screen exists (below); a command cannot run before the first frame.
    runExternalEditor: (file) => (runEditor ? runEditor(file) : Promise.resolve({ ok: false, editor: '', message: 'the screen is not ready yet' })),
  });
  disposals.defer('key guard', () => deps.guard.dispose());

  const handle = options.handleProcessEvents !== false;
  // INT, QUIT, TERM and HUP from outside end the app with the terminal restored (see terminal-guard);
  // released only after the screen is restored (undone after it).
  if (handle) {
    const guard = guardTerminal({ finish, stdout: realStdout });
    process.on('uncaughtException', fatal);
    process.on('unhandledRejection', fatal);
    disposals.defer('terminal guard', () => {
      guard.dispose();
      process.off('uncaughtException', fatal);
      process.off('unhandledRejection', fatal);
    });
  }
  // From here on the app owns the screen: a library's console.warn, a process warning or a stray
  // write would land inside a frame, so they go to the log and, once each, into a notice.
  let capture: OutputCapture | undefined;
  if (handle) {
    const stray = createStrayNotices({
      log: (line) => log.write(line),
      // Not inside whatever is printing (it may be mid-render): on the next tick.
      notify: (message) => queueMicrotask(() => store.dispatch({ type: 'notice', level: 'warning', message })),
      logPath: log.path,
    });
    const taken = captureOutput({ stdout: process.stdout, stderr: process.stderr, console, process, onOutput: stray });
    capture = taken;
    disposals.defer('output capture', () => taken.restore());
  }
  // The terminal, past the capture.
  const screen = capture && realStdout === process.stdout ? capture.screen : realStdout;

  // The user's statusLine command, in place of the built-in status row (user settings only).
  const statusSetting = await readStatusLineSetting({ workspace: cwd, cairnHome, claudeHome: claudeHomeFrom(env) });
  for (const message of statusSetting.problems) store.dispatch({ type: 'notice', level: 'warning', message });
  const sessionId = options.sessions?.sessionId;
  const statusLine = statusSetting.command
    ? startStatusLine({ store, command: statusSetting.command, cwd, env, input: () => statusLineInput(store.getSnapshot(), sessionId ? { sessionId } : {}), onProblem: (m) => log.write(m) })
    : undefined;
  if (statusLine) disposals.defer('status line', () => statusLine.dispose());
  statusLine?.refresh();
  // A bell/desktop notification when an approval waits or a long turn ends, unless the terminal says it has focus.
  const notifier = createTurnNotifier({ env, now: Date.now, afterMs: settings.notifyAfterSeconds * 1000, style: settings.notifyStyle });
  const offEvents = session.subscribe((event) => {
    if (event.type === 'notice' && event.level === 'error') log.write(`notice: ${event.message}`);
    if (refreshesStatusLine(event.type)) statusLine?.refresh();
    const bell = notifier.onEvent(event);
    if (bell) screen.write(bell);
  });
  disposals.defer('session listener', offEvents);

  // After an early frame the alternate screen is already set up (entering it again would clear it).
  if (options.earlyFrame === undefined) screen.write(ENTER_SCREEN);
  disposals.defer('screen', () => screen.write(RESTORE_TERMINAL));
  deps.terminal = createTerminalControls({
    screen,
    env,
    cairnHome,
    mouse: settings.mouse,
    onFocus: (focused) => notifier.setFocused(focused),
    saveMouse: (mouse) => void saveTuiSettings(cairnHome, { mouse }).catch((error: unknown) => log.write(`tui settings: ${String(error)}`)),
  });
  // The session's name (/rename, -n) in the terminal's title, from the start and on every rename.
  let titled: string | undefined;
  const showTitle = (): void => {
    const name = store.getSnapshot().info.name;
    if (name === undefined || name === titled) return;
    titled = name;
    deps.terminal?.setTitle(`cairn · ${name}`);
  };
  showTitle();
  disposals.defer('title', store.subscribe(showTitle));
  const output = createTerminalOutput(screen, env, options.earlyFrame);
  disposals.defer('terminal output', () => output.dispose());
  // Thumbnails are for the frame writer's screen only (its rows are text cells like any other).
  if (output.overlay) {
    const stopImages = startInlineImages({ enabled: settings.inlineImages, env, store, subscribe: (listener) => session.subscribe(listener), write: (s) => screen.write(s), columns: () => screen.columns || 80 });
    disposals.defer('inline images', stopImages);
  }
  runEditor = createExternalEditor({ stdin: options.stdin ?? process.stdin, screen, redraw: output.redraw, env });
  // kill -TSTP / -STOP from outside, then fg: the app takes input and is drawn again.
  const stopJobControl = handle
    ? handleJobControl({ stdin: options.stdin ?? process.stdin, screen, redraw: output.redraw, restoreModes: () => deps.terminal?.mouse() && screen.write(MOUSE_ON) })
    : undefined;
  if (stopJobControl) disposals.defer('job control', stopJobControl);
  log.write(`start: ${session.providerName}/${session.model} in ${cwd}`);
  const itemLines = createItemLines(createMarkdownLines());
  // With the frame writer, the transcript, prompt and status rows are painted outside React and Ink.
  const painter = output.overlay ? createScreenPainter({ store, overlay: output.overlay, itemLines, view: deps.view, statusLine: statusLineFor(store) }) : undefined;
  if (painter) disposals.defer('screen painter', () => painter.dispose());
  // Keys typed before raw mode was on (while cairn started) come in the first read with Enter as a
  // newline: made Enter there. Attached before Ink's reader, so it sees that read first.
  const input = options.stdin ?? process.stdin;
  if (input.isTTY) disposals.defer('type-ahead', watchTypeAhead(input));
  const instance = render(
    <ErrorBoundary onError={fatal}>
      <PainterContext.Provider value={painter}>
        <App deps={deps} itemLines={itemLines} {...(options.size ? { size: options.size } : {})} />
        <RedrawKey redraw={output.redraw} />
      </PainterContext.Provider>
    </ErrorBoundary>,
    {
      stdout: output.stdout,
      ...(options.stdin ? { stdin: options.stdin } : {}),
      stderr,
      exitOnCtrlC: false,
      patchConsole: false,
      // Ink now draws only layout changes (the painter draws what streams): no reason to hold a
      // frame back, and holding one would let the painter's rows sit over a stale layout.
      ...(painter ? { maxFps: 1000 } : {}),
    },
  );
  disposals.defer('Ink', () => instance.unmount());
  instance.waitUntilExit().then(() => finish(0), fatal);
  // A paste whose end marker is lost must not swallow every later key.
  disposals.defer('paste watch', watchPasteSilence(options.stdin ?? process.stdin));
  if (!markdownFirst) setTimeout(() => void loadMarkdown().catch(fatal), 0);
  // render() has drawn the first frame by the time this task ends.
  if (options.afterFirstFrame) setImmediate(options.afterFirstFrame);

  if (options.replayFile) {
    const file = options.replayFile;
    const replay = new AbortController();
    disposals.defer('replay', () => replay.abort());
    replayEvents(file, store, { ...(options.replaySpeed ? { speed: options.replaySpeed } : {}), signal: replay.signal }).catch((error: unknown) => {
      if (!replay.signal.aborted) store.dispatch({ type: 'notice', level: 'error', message: `Replay failed: ${(error as Error).message}` });
    });
  }
  // The running turn stops first.
  disposals.defer('turn', () => session.abort());
  if (options.initialPrompt) submit(options.initialPrompt, deps);

  const code = await exited;
  const finalItems = store.getSnapshot().items;
  disposals.dispose((name, error) => log.write(`${name}: ${String(error)}`));
  if (fatalError) stderr.write(`cairn: ${fatalError.stack ?? fatalError.message}\nLog: ${log.path}\n`);
  // The alternate screen leaves nothing behind: the conversation goes to the normal screen, where
  // the terminal's scrollback and search keep it (tui.json "scrollback": full, last-answer, none).
  if (!switching) realStdout.write(scrollbackText(finalItems, settings.scrollback));
  // Then how to come back to this conversation.
  const id = options.sessions?.sessionId;
  if (id !== undefined && !switching && existsSync(sessionFile(cairnHome, cwd, id))) realStdout.write(`Resume this session with: cairn --resume ${id}\n`);
  if (log.problem) stderr.write(`cairn: ${log.problem}\n`);
  log.write(`exit: ${code}`);
  return code;
}
