#!/usr/bin/env node
// The composition root and the `cairn` bin. It lives on the UI side of the layers so the
// engine in src/ never imports the UI. Everything heavy is imported lazily: `--version`
// and `--help` load nothing but this file.
import { readFileSync } from 'node:fs';

const argv = process.argv.slice(2);

if (argv.includes('--version') || argv.includes('-v')) {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  process.stdout.write(`${pkg.version}\n`);
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
  if (cli.listProviders) {
    const { listProviders } = await import('../src/providers/registry.js');
    const { cairnHomeFrom } = await import('../src/bootstrap.js');
    try {
      const lines = await listProviders({
        flags: { ...(cli.provider ? { provider: cli.provider } : {}), ...(cli.model ? { model: cli.model } : {}) },
        env: process.env,
        cairnHome: cairnHomeFrom(process.env),
      });
      process.stdout.write(`${lines.join('\n')}\n`);
      return 0;
    } catch (error) {
      process.stderr.write(`cairn: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
  }

  const headless = cli.print || cli.showSystem || (!process.stdout.isTTY && cli.replay === undefined);
  let prompt = cli.prompt;
  if (headless && !cli.showSystem && !process.stdin.isTTY) {
    const piped = await readStdin();
    if (piped.trim()) prompt = prompt ? `${prompt}\n\n${piped}` : piped;
  }
  if (headless && cli.resume === '') {
    process.stderr.write('cairn: --resume needs a session id with -p (run cairn --resume to pick one)\n');
    return 2;
  }
  if (headless && !prompt && !cli.showSystem) {
    process.stderr.write('cairn: -p needs a prompt (as an argument or on stdin)\n');
    return 2;
  }

  const { createRuntime } = await import('../src/bootstrap.js');
  let runtime;
  try {
    runtime = await createRuntime({
      cwd: process.cwd(),
      env: process.env,
      interactive: !headless,
      ...(cli.provider ? { provider: cli.provider } : {}),
      ...(cli.model ? { model: cli.model } : {}),
      ...(cli.permissionMode ? { permissionMode: cli.permissionMode } : {}),
      allowedTools: cli.allowedTools,
      disallowedTools: cli.disallowedTools,
      ...(cli.maxTurns !== undefined ? { maxTurns: cli.maxTurns } : {}),
      continueLatest: cli.continueLatest,
      ...(cli.resume ? { resumeId: cli.resume } : {}),
    });
  } catch (error) {
    // Settings and config errors name the file and field; refuse to start half-configured.
    process.stderr.write(`cairn: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }

  // Background shells die with cairn, whatever the exit path.
  process.once('exit', () => runtime.close());
  if (cli.showSystem) {
    process.stdout.write(await runtime.systemPrompt());
    return 0;
  }
  if (headless) {
    for (const line of runtime.startupNotices) process.stderr.write(`cairn: ${line}\n`);
    const { runHeadless } = await import('../src/headless.js');
    return runHeadless(runtime, prompt!, cli.outputFormat, { stdout: process.stdout, stderr: process.stderr });
  }
  runtime.startBackground();
  const { runTui } = await import('./app/run-tui.js');
  return runTui({
    session: runtime.session,
    cwd: runtime.cwd,
    cairnHome: runtime.cairnHome,
    systemPrompt: runtime.systemPrompt,
    ...(prompt ? { initialPrompt: prompt } : {}),
    ...(cli.replay ? { replayFile: cli.replay } : {}),
    ...(cli.replaySpeed ? { replaySpeed: cli.replaySpeed } : {}),
  });
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
