#!/usr/bin/env -S node --max-semi-space-size=4
// (The bin's node flag: V8's young generation grows to 16 MB semi-spaces by default, which a
// streaming answer's short-lived strings fill and which never shrink back; 4 MB costs no CPU we
// can measure and takes ~30 MB off the peak RSS of a paced stream. BENCHMARKS.md has the figures;
// `npm start` passes the same flag, and the benches read it from this line.)
// The composition root and the `cairn` bin. It lives on the UI side of the layers so the
// engine in src/ never imports the UI. Everything heavy is imported lazily: `--version`
// and `--help` load nothing but this file.
import type { StartedWorktree } from '../src/worktrees/session-worktree-start.js';
import { readFileSync } from 'node:fs';
import { errorMessage } from '../src/util/error-message.js';
import type { AgentEvent } from '../src/events.js';
import type { SessionFacts } from '../src/runtime/session-facts.js';
import type { RuntimeOptions } from '../src/runtime/runtime-options.js';
import type { SessionFlags } from '../src/cli-session-flags.js';
import type { ZodType } from 'zod';
import type { StreamJsonInput, UserMessage } from '../src/headless-input.js';
import type { EarlyFrame } from './app/early-frame.js';

// Node opens its inspector on port 9229 when the process gets SIGUSR1 (anyone who can signal it
// could then run code in cairn): a listener of our own takes the signal instead, and ignores it.
process.on('SIGUSR1', () => undefined);

/** Before anything that can compile WebAssembly; not before the TUI's first frame (node:v8 costs ~3 ms to load). */
const keepWasmOnBaselineTier = async (): Promise<void> => (await import('./wasm-baseline-tier.js')).keepWasmOnBaselineTier();

const argv = process.argv.slice(2);

if (argv.includes('--version') || argv.includes('-v')) {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  process.stdout.write(`${pkg.version}\n`);
} else if (argv[0] === 'plugin' || argv[0] === 'plugins') {
  await keepWasmOnBaselineTier();
  const { runPluginCommand } = await import('../src/plugins/plugin-command.js');
  process.exitCode = await runPluginCommand(argv.slice(1), { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() });
} else if (argv[0] === 'serve') {
  await keepWasmOnBaselineTier();
  const { runServe } = await import('../src/serve/serve-command.js');
  process.exitCode = await runServe(argv.slice(1), { stdout: process.stdout, stderr: process.stderr });
} else {
  process.exitCode = await main(argv);
}

async function main(args: string[]): Promise<number> {
  const { parseCliArgs, UsageError, HELP } = await import('../src/cli-args.js');
  let cli;
  try {
    cli = parseCliArgs(args);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`cairn: ${error.message}\nRun cairn --help for usage.\n`);
      return 2;
    }
    throw error;
  }
  if (cli.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const { readFlagAgents, FlagError } = await import('../src/cli-session-flags.js');
  try {
    const agents = await readFlagAgents(cli.session);
    if (agents) cli.session.agents = agents;
  } catch (error) {
    if (!(error instanceof FlagError)) throw error;
    process.stderr.write(`cairn: ${error.message}\nRun cairn --help for usage.\n`);
    return 2;
  }
  if (cli.listProviders) {
    const { listProviders } = await import('../src/providers/registry.js');
    const { cairnHomeFrom } = await import('../src/bootstrap.js');
    try {
      const lines = listProviders({
        flags: { ...(cli.provider ? { provider: cli.provider } : {}), ...(cli.model ? { model: cli.model } : {}) },
        env: process.env,
        cairnHome: cairnHomeFrom(process.env),
      });
      process.stdout.write(`${lines.join('\n')}\n`);
      return 0;
    } catch (error) {
      process.stderr.write(`cairn: ${errorMessage(error)}\n`);
      return 1;
    }
  }

  const headless = cli.print || cli.showSystem || (!process.stdout.isTTY && cli.replay === undefined);
  let prompt = cli.prompt;
  if (headless && !cli.showSystem && !process.stdin.isTTY && cli.inputFormat === 'text') {
    const { readPipedInput, STDIN_FIRST_BYTE_MS } = await import('../src/headless-stdin.js');
    const piped = await readPipedInput(process.stdin, prompt ? STDIN_FIRST_BYTE_MS : undefined);
    if (piped.gaveUp) {
      process.stderr.write(`cairn: nothing arrived on stdin in ${STDIN_FIRST_BYTE_MS / 1000} s; going on with the prompt alone (pass < /dev/null to skip the wait)\n`);
    }
    if (piped.text.trim()) prompt = prompt ? `${prompt}\n\n${piped.text}` : piped.text;
  }
  // --input-format stream-json: user messages as JSON lines on stdin, one turn each; the first is the prompt unless one was given.
  let nextPrompt: (() => Promise<UserMessage | undefined>) | undefined;
  let firstMessage: UserMessage | undefined;
  let inputFailed = false;
  let streamInput: StreamJsonInput | undefined;
  if (headless && !cli.showSystem && cli.inputFormat === 'stream-json') {
    const { StreamJsonInput } = await import('../src/headless-input.js');
    streamInput = new StreamJsonInput(process.stdin, (message) => {
      inputFailed = true;
      process.stderr.write(`cairn: ${message}\n`);
    });
    const read = streamInput.nextPrompt;
    nextPrompt = read;
    if (prompt === undefined) {
      const first = await read();
      // A message of images alone is a prompt too.
      if (first && (first.text !== '' || first.media.length > 0)) {
        firstMessage = first;
        prompt = first.text;
      }
    }
  }
  if (headless && cli.resume === '') {
    process.stderr.write('cairn: --resume needs a session id with -p (run cairn --resume to pick one)\n');
    return 2;
  }
  if (headless && !prompt && !firstMessage && !cli.showSystem) {
    process.stderr.write('cairn: -p needs a prompt (as an argument or on stdin)\n');
    return 2;
  }

  // --settings, --add-dir, --plugin-dir, --bare: one more settings layer, the user's own (read by every settings reader).
  const flags = cli.session;
  if (flags.settings !== undefined || flags.addDirs.length > 0 || flags.pluginDirs.length > 0 || flags.bare) {
    const { setCommandLineSettings } = await import('../src/settings/settings-layers.js');
    const { PLUGIN_DIRS_KEY } = await import('../src/plugins/active-plugins.js');
    const { BARE_KEY } = await import('../src/settings/bare-mode.js');
    try {
      await setCommandLineSettings({
        ...(flags.settings !== undefined ? { settings: flags.settings } : {}),
        cwd: process.cwd(),
        extra: {
          ...(flags.addDirs.length > 0 ? { permissions: { additionalDirectories: flags.addDirs } } : {}),
          ...(flags.pluginDirs.length > 0 ? { [PLUGIN_DIRS_KEY]: flags.pluginDirs } : {}),
          ...(flags.bare ? { [BARE_KEY]: true } : {}),
        },
      });
    } catch (error) {
      await sayOnStderr(`cairn: ${errorMessage(error)}\n`);
      return 1;
    }
  }
  let structured: ZodType | undefined;
  if (flags.jsonSchema) {
    if (!headless) {
      process.stderr.write('cairn: --json-schema is for headless runs (-p)\n');
      return 2;
    }
    const { structuredOutputSchema, structuredOutputInstruction } = await import('../src/headless-structured.js');
    try {
      structured = structuredOutputSchema(flags.jsonSchema);
    } catch (error) {
      process.stderr.write(`cairn: ${errorMessage(error)}\n`);
      return 2;
    }
    flags.appendSystemPrompt = [flags.appendSystemPrompt, structuredOutputInstruction(flags.jsonSchema)].filter(Boolean).join('\n\n');
  }

  // The TUI asks whether to trust the folder when its settings would widen something; -p never asks.
  // One "no" stands for the run: with -w the launch folder may be asked about before the worktree.
  const trustQuestion = !headless && process.stdin.isTTY ? await import('./app/trust-question.js') : undefined;
  const askTrust = trustQuestion ? trustQuestion.refuseOnceRefused(trustQuestion.askTrustOnTerminal()) : undefined;
  // -w: the session's folder is a new worktree (a WorktreeCreate hook's, or git's); everything below starts there.
  let worktree: StartedWorktree | undefined;
  if (cli.worktree !== undefined) {
    const { defaultWorktreeName } = await import('../src/worktrees/session-worktree.js');
    const { startSessionWorktree, isHookWorktree } = await import('../src/worktrees/session-worktree-start.js');
    const { cairnHomeFrom } = await import('../src/util/cairn-home.js');
    const { claudeHomeFrom } = await import('../src/settings/settings-layers.js');
    try {
      worktree = await startSessionWorktree({
        cwd: process.cwd(),
        name: cli.worktree || defaultWorktreeName(new Date()),
        env: process.env,
        cairnHome: cairnHomeFrom(process.env),
        claudeHome: claudeHomeFrom(process.env),
        ...(askTrust ? { askTrust } : {}),
        ...(flags.sessionId ? { sessionId: flags.sessionId } : {}),
        say: (line) => process.stderr.write(`cairn: ${line}\n`),
      });
    } catch (error) {
      await sayOnStderr(`cairn: ${errorMessage(error)}\n`);
      return 1;
    }
    process.chdir(worktree.dir);
    if (isHookWorktree(worktree)) {
      process.stderr.write(`cairn: working in ${worktree.dir}, made by the WorktreeCreate hook (${worktree.byHook})${worktree.branch ? ` on the branch ${worktree.branch}` : ''}\n`);
    } else {
      const copied = worktree.copied.length > 0 ? `; copied ${worktree.copied.join(', ')}` : '';
      process.stderr.write(`cairn: working in ${worktree.dir} on the new branch ${worktree.branch}${copied}\n`);
    }
  }

  // The folder, its settings and the provider are settled first (a trust question may be asked):
  // the TUI's first frame shows them while the engine's modules load.
  const { settleSessionFacts } = await import('../src/runtime/session-facts.js');
  // ...and, in a trusted folder, about each new server of its own .mcp.json (once; remembered).
  // --bare reads no .mcp.json, so there is nothing to ask about.
  const askMcpServer = askTrust && !flags.bare ? (await import('./app/mcp-server-question.js')).askMcpServerOnTerminal() : undefined;
  let facts: SessionFacts;
  try {
    facts = await settleSessionFacts({
      cwd: process.cwd(),
      env: process.env,
      ...(cli.provider ? { provider: cli.provider } : {}),
      ...(cli.model ? { model: cli.model } : {}),
      ...(cli.permissionMode ? { permissionMode: cli.permissionMode } : {}),
      ...(flags.maxBudgetUsd !== undefined ? { maxBudgetUsd: flags.maxBudgetUsd } : {}),
      ...(askTrust ? { askTrust } : {}),
      ...(askMcpServer ? { askMcpServer } : {}),
      ...(cli.mcpConfig.length > 0 ? { mcpConfig: cli.mcpConfig } : {}),
    });
  } catch (error) {
    // Settings and config errors name the file and field; refuse to start half-configured.
    await sayOnStderr(`cairn: ${errorMessage(error)}\n`);
    return 1;
  }
  // Picking another session (/resume) ends this TUI; it opens again on that session.
  let pickOnStart = cli.resume === '';
  let initialPrompt = prompt;
  // The header, prompt box and status row go on screen before the engine and the UI's modules
  // load, where the app's first frame would show nothing else (components/app/early-frame.ts).
  // A resumed session's frame shows its last turns, read from the end of its file.
  const earlyWanted = !headless && !pickOnStart && !initialPrompt && !cli.replay && process.stdout.isTTY && process.env['CAIRN_FRAME_WRITER'] !== '0';
  const resuming = cli.continueLatest || cli.resume !== undefined;
  let early: EarlyFrame | undefined;
  if (earlyWanted) early = resuming ? await drawEarlyResumed(facts, { continueLatest: cli.continueLatest, ...(cli.resume ? { resumeId: cli.resume } : {}) }) : await drawEarly(facts);
  // Nothing above fetches or parses bash; the engine below may.
  await keepWasmOnBaselineTier();

  const { createRuntime } = await import('../src/bootstrap.js');
  type Runtime = Awaited<ReturnType<typeof createRuntime>>;
  const start = async (resume: { continueLatest: boolean; resumeId?: string; fork?: boolean }, settled?: SessionFacts): Promise<Runtime | undefined> => {
    try {
      return await createRuntime({
        cwd: process.cwd(),
        env: process.env,
        interactive: !headless,
        // A stream-json client answers the model's questions (control_request / control_response).
        ...(streamInput ? { answersQuestions: true } : {}),
        ...(settled ? { facts: settled } : {}),
        ...(askTrust ? { askTrust } : {}),
        ...(askMcpServer ? { askMcpServer } : {}),
        ...(cli.provider ? { provider: cli.provider } : {}),
        ...(cli.model ? { model: cli.model } : {}),
        ...(cli.permissionMode ? { permissionMode: cli.permissionMode } : {}),
        allowedTools: cli.allowedTools,
        disallowedTools: cli.disallowedTools,
        ...(cli.sandbox !== undefined ? { sandbox: cli.sandbox } : {}),
        ...(cli.mcpConfig.length > 0 ? { mcpConfig: cli.mcpConfig } : {}),
        ...(cli.maxTurns !== undefined ? { maxTurns: cli.maxTurns } : {}),
        ...runtimeFlags(flags),
        // /fork: a new id (never --session-id's, which the first session took) starting from the old history.
        ...(resume.fork ? { forkSession: true, sessionId: (await import('node:crypto')).randomUUID() } : {}),
        continueLatest: resume.continueLatest,
        ...(resume.resumeId ? { resumeId: resume.resumeId } : {}),
        // The TUI draws its first frame before the tools, agents and hooks are set up (a turn waits for them).
        deferStartup: !headless,
      });
    } catch (error) {
      // The message must not go to the early frame's screen, which is about to be left.
      early?.abandon();
      early = undefined;
      await sayOnStderr(`cairn: ${errorMessage(error)}\n`);
      return undefined;
    }
  };
  let runtime = await start({ continueLatest: cli.continueLatest, ...(cli.resume ? { resumeId: cli.resume } : {}) }, facts);
  if (!runtime) return 1;
  // SessionEnd hooks are awaited (1.5 s at most) so leaving does not cut them off.
  const endSession = async (rt: Runtime, reason: Parameters<Runtime['endSession']>[0]): Promise<void> => {
    for (const line of await rt.endSession(reason)) await sayOnStderr(`cairn: ${line}\n`);
  };

  // Background shells die with cairn, whatever the exit path.
  process.once('exit', () => runtime?.close());
  if (flags.name) {
    const { nameSession } = await import('../src/session/session-names.js');
    const named = await nameSession(runtime.cairnHome, runtime.cwd, runtime.sessionId, flags.name);
    if ('problem' in named) await sayOnStderr(`cairn: --name: ${named.problem}\n`);
  }
  if (cli.showSystem) {
    process.stdout.write(await runtime.systemPrompt());
    return 0;
  }
  if (headless) {
    for (const line of runtime.startupNotices) await sayOnStderr(`cairn: ${line}\n`);
    const { runHeadless } = await import('../src/headless.js');
    // Checked above: a headless run without a prompt has already exited with a message.
    if (prompt === undefined) throw new Error('a headless run reached the model without a prompt');
    const code = await runHeadless(runtime, firstMessage ?? prompt, cli.outputFormat, { stdout: process.stdout, stderr: process.stderr }, nextPrompt, {
      ...(structured ? { structured } : {}),
      partialMessages: flags.includePartialMessages,
      ...(streamInput ? { input: streamInput } : {}),
    });
    await endSession(runtime, 'other');
    if (worktree) await (await import('./app/worktree-exit.js')).tellKeptWorktree(worktree, process.stderr);
    return inputFailed && code === 0 ? 1 : code;
  }
  // The file's end was no picture of it (one turn longer than the tail): drawn now it is read.
  if (earlyWanted && resuming && !early && runtime.resumed) {
    early = await drawEarly(facts, {
      events: runtime.resumed.events,
      messageCount: runtime.session.messages.length,
      sessionId: runtime.sessionId,
      notices: runtime.startupNotices,
    });
  }
  const { runTui } = await importProductionReact(() => withoutFetch(() => import('./app/run-tui.js')));
  const { isSignalExitCode } = await import('./app/exit-signals.js');
  for (;;) {
    const current = runtime;
    const picked: { id?: string; fork?: boolean } = {};
    const earlyFrame = early?.frame;
    early?.handOver();
    early = undefined;
    const code = await runTui({
      ...(earlyFrame !== undefined ? { earlyFrame } : {}),
      session: current.session,
      cwd: current.cwd,
      cairnHome: current.cairnHome,
      systemPrompt: current.systemPrompt,
      ...(initialPrompt && !pickOnStart ? { initialPrompt } : {}),
      ...(cli.replay ? { replayFile: cli.replay } : {}),
      ...(cli.replaySpeed ? { replaySpeed: cli.replaySpeed } : {}),
      background: {
        background: current.background,
        todos: current.todos,
        startBackground: () => current.startBackground(),
        sandbox: current.sandbox,
        // Read when /agents runs: the runtime's list once start-up has loaded it.
        get agents() {
          return current.agentTypes;
        },
      },
      instructions: current.instructions,
      team: { team: current.team, bus: current.bus, tasks: current.tasks },
      hooks: current.hooks.set,
      hookRunner: current.hooks.runner,
      pricing: current.pricing,
      skills: current.skillsLoaded,
      ...(current.mcp ? { mcp: current.mcp } : {}),
      sessions: {
        sessionId: current.sessionId,
        contextWindow: current.contextWindow,
        startupNotices: current.startupNotices,
        ...(current.resumed ? { resumedEvents: current.resumed.events } : {}),
        ...(current.forkedFrom !== undefined ? { forkedFrom: current.forkedFrom } : {}),
        sections: current.systemPromptSections,
        pickOnStart,
        onSwitch: (id, how) => {
          picked.id = id;
          picked.fork = how?.fork === true;
        },
      },
      afterFirstFrame: () => {
        current.finishStartup().catch((error: unknown) => {
          const event: AgentEvent = { type: 'notice', level: 'error', message: `cairn did not finish starting: ${errorMessage(error)}` };
          current.session.emit(event);
        });
      },
    });
    // A signal ended the app and the terminal is restored: end the process now, even if a
    // background shell or a timer would keep it alive (the exit hook stops them).
    await endSession(current, isSignalExitCode(code) ? 'other' : picked.id === undefined ? 'prompt_input_exit' : 'resume');
    if (isSignalExitCode(code)) process.exit(code);
    // Closed before leaving too: a connected MCP server (a child process) would keep cairn alive.
    current.close();
    if (picked.id === undefined) {
      if (worktree) await (await import('./app/worktree-exit.js')).askAboutWorktree(worktree, process.stdin, process.stderr, current.hooks.runner);
      return code;
    }
    // A prompt given with a bare --resume waits for the session picked; otherwise it was sent.
    if (!pickOnStart) initialPrompt = undefined;
    pickOnStart = false;
    const next = await start({ continueLatest: false, resumeId: picked.id, ...(picked.fork ? { fork: true } : {}) }, facts);
    if (!next) return 1;
    runtime = next;
  }
}

/** The session flags createRuntime takes (the spending cap and the settings layer are settled before it). */
function runtimeFlags(flags: SessionFlags): Partial<RuntimeOptions> {
  const systemPrompt = { ...(flags.systemPrompt !== undefined ? { replace: flags.systemPrompt } : {}), ...(flags.appendSystemPrompt ? { append: flags.appendSystemPrompt } : {}) };
  return {
    ...(Object.keys(systemPrompt).length > 0 ? { systemPrompt } : {}),
    ...(flags.tools ? { tools: flags.tools } : {}),
    ...(flags.sessionId ? { sessionId: flags.sessionId } : {}),
    ...(flags.forkSession ? { forkSession: true } : {}),
    ...(flags.fallbackModel ? { fallbackModel: flags.fallbackModel } : {}),
    ...(flags.effort ? { effort: flags.effort } : {}),
    ...(flags.agents ? { agents: flags.agents } : {}),
    ...(flags.bare ? { bare: true } : {}),
  };
}

/**
 * Draws the first frame from the settled facts (and a resumed session's events); undefined where
 * the app's own first frame would differ (a terminal too small for the header).
 */
async function drawEarly(
  facts: SessionFacts,
  resumed?: { events: readonly AgentEvent[]; messageCount?: number; sessionId: string; notices: readonly string[] },
): Promise<EarlyFrame | undefined> {
  const [{ drawEarlyFrame, earlyFrameSession }, { loadTuiSettings }] = await Promise.all([import('./app/early-frame.js'), import('./theme/tui-settings.js')]);
  const { settings } = await loadTuiSettings(facts.cairnHome);
  // A resumed transcript is shown styled from its first frame.
  if (resumed) await (await import('./markdown/render-markdown.js')).loadMarkdown();
  return await drawEarlyFrame({
    session: earlyFrameSession(facts, resumed?.messageCount),
    cwd: facts.cwd,
    themeName: settings.theme,
    pricing: facts.sessionConfig.pricing,
    contextWindow: facts.resolved.contextWindow,
    startupNotices: resumed ? resumed.notices : facts.notices,
    ...(resumed ? { resumedEvents: resumed.events, sessionId: resumed.sessionId } : {}),
    stdout: process.stdout,
    stdin: process.stdin,
  });
}

/**
 * The first frame of a resumed session, from the last turns at the end of its file (the engine
 * reads all of it after the frame); undefined when the session is not found here (createRuntime
 * says why) or the file's end holds no whole turn.
 */
async function drawEarlyResumed(facts: SessionFacts, which: { continueLatest: boolean; resumeId?: string }): Promise<EarlyFrame | undefined> {
  const [{ locateSessionToResume }, { readSessionTail }] = await Promise.all([import('../src/session/session-locate.js'), import('../src/session/session-tail.js')]);
  const file = await locateSessionToResume({ cairnHome: facts.cairnHome, cwd: facts.cwd, ...which });
  // An unreadable file is loadSession's to report, naming it; the frame waits for that.
  const tail = file === undefined ? undefined : await readSessionTail(file).catch(() => undefined);
  if (!tail) return undefined;
  const firstPrompt = tail.events.findIndex((e) => e.type === 'user_prompt');
  if (!tail.whole && firstPrompt === -1) return undefined;
  return drawEarly(facts, { events: tail.whole ? tail.events : tail.events.slice(firstPrompt), sessionId: tail.header.id, notices: facts.notices });
}

/** File names and rule text in start-up messages come from disk: shown, never obeyed, on a terminal. */
async function sayOnStderr(text: string): Promise<void> {
  if (!process.stderr.isTTY) {
    process.stderr.write(text);
    return;
  }
  const { stripTerminalControls } = await import('../src/util/terminal-text.js');
  process.stderr.write(stripTerminalControls(text));
}

/**
 * React picks its build from NODE_ENV when first loaded. The development build was a third of the
 * TUI's CPU and grew memory without bound (it records a performance.measure per render), so the
 * TUI loads the production build unless NODE_ENV says otherwise. The variable is put back at once
 * so tools and shells cairn starts see the user's environment.
 */
async function importProductionReact<T>(load: () => Promise<T>): Promise<T> {
  // Named indirectly: the bundle fixes `process.env.NODE_ENV` at build time, not this variable.
  const name = 'NODE_ENV';
  if (process.env[name] !== undefined) return load();
  process.env[name] = 'production';
  try {
    return await load();
  } finally {
    delete process.env[name];
  }
}

/**
 * Ink's layout engine (yoga) is WebAssembly inlined as base64. Its loader fetches that data: URL
 * with the global fetch when there is one, and touching Node's fetch loads undici (~20 ms before
 * the first frame, for nothing); without one it decodes the base64 itself. Nothing else runs
 * while the UI's modules load, and the global is put back as it was at once.
 */
async function withoutFetch<T>(load: () => Promise<T>): Promise<T> {
  const fetchProperty = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
  if (!fetchProperty?.configurable) return load();
  Object.defineProperty(globalThis, 'fetch', { value: undefined, configurable: true, writable: true });
  try {
    return await load();
  } finally {
    Object.defineProperty(globalThis, 'fetch', fetchProperty);
  }
}
