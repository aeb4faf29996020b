import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anthropicReply, startAnthropicServer, type AnthropicRequestBody } from '../helpers/anthropic-server.js';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// /init: the shipped init skill (skills/init/SKILL.md) writes the project's instruction file from
// what its manifests say. The offline model follows the skill's steps deterministically.

const NODE_FIXTURE = {
  'package.json': JSON.stringify({ name: 'tiny-lib', scripts: { build: 'tsc -p tsconfig.build.json', test: 'vitest run --reporter=dot', lint: 'eslint src' } }, null, 2),
  Makefile: 'CC := gcc\n.PHONY: release\nrelease:\n\tnpm run build && npm pack\n',
  'README.md': '# tiny-lib\n\nA tiny library.\n',
  'src/index.ts': 'export const one = 1;\n',
};

const home = (ws: { home: string }) => ({ HOME: ws.home, CLAUDE_CONFIG_DIR: path.join(ws.home, 'no-claude') });

describe('/init on the offline model', () => {
  it("writes AGENTS.md naming the fixture's own build, test and lint commands (package.json scripts, Makefile targets)", async () => {
    const ws = await tempWorkspace(NODE_FIXTURE);
    const run = await runCairn(['-p', '/init', '--permission-mode', 'acceptEdits', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home, env: home(ws), timeoutMs: 40_000 });
    expect(run.code).toBe(0);
    const prompt = run.events.find((e) => e.type === 'user_prompt');
    expect(prompt?.type === 'user_prompt' && prompt.text).toContain('Run the "init" skill');
    const agents = readFileSync(path.join(ws.dir, 'AGENTS.md'), 'utf8');
    expect(agents).toMatch(/^# tiny-lib/);
    expect(agents).toContain('`npm run build`: build: `tsc -p tsconfig.build.json`');
    expect(agents).toContain('`npm test`: run the tests: `vitest run --reporter=dot`');
    expect(agents).toContain('`npm run lint`');
    expect(agents).toContain('`make release`');
    // A variable assignment and .PHONY are not targets.
    expect(agents).not.toContain('make CC');
    expect(agents).not.toContain('.PHONY');
    expect(agents).toContain('`src/`');
  }, 60_000);

  it('improves an existing CLAUDE.md (the project uses that): what the user wrote stays, the pyproject commands are added', async () => {
    const ws = await tempWorkspace({
      'CLAUDE.md': '# Notes\n\nAlways use British spelling.\n',
      'pyproject.toml': '[project]\nname = "pyfx"\n\n[build-system]\nrequires = ["hatchling"]\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n\n[tool.ruff]\nline-length = 100\n',
    });
    const run = await runCairn(['-p', '/init', '--permission-mode', 'acceptEdits'], { cwd: ws.dir, home: ws.home, env: home(ws), timeoutMs: 40_000 });
    expect(run.code).toBe(0);
    expect(existsSync(path.join(ws.dir, 'AGENTS.md'))).toBe(false);
    const claude = readFileSync(path.join(ws.dir, 'CLAUDE.md'), 'utf8');
    expect(claude).toMatch(/^# Notes\n\nAlways use British spelling\.\n/);
    expect(claude).toContain('`pytest`');
    expect(claude).toContain('`ruff check .`');
    expect(claude).toContain('`python -m build`');
  }, 60_000);
});

describe('/init in a real terminal', () => {
  const { start } = cairnTerminals();
  it.skipIf(!TmuxTerminal.available())('asks to write the file with its diff shown, and writes it on y', async () => {
    const { term, ws } = await start({ files: NODE_FIXTURE, args: '--no-sandbox', env: { CLAUDE_CONFIG_DIR: '/nonexistent-claude' }, columns: 120, rows: 40 });
    term.type('/init');
    term.keys('Enter');
    const asked = await term.waitForText('AGENTS.md', 30_000);
    await term.waitForScreen((s) => /\+.*npm test/.test(s) && /Yes/.test(s), 'the write approval with the new lines of AGENTS.md', 30_000);
    expect(existsSync(path.join(ws.dir, 'AGENTS.md'))).toBe(false);
    expect(asked).toContain('write_file');
    // Keys typed just as an approval appears go to the draft (the type-ahead guard): wait it out.
    await term.pauseBeforeAnswering();
    term.type('y');
    await term.waitForScreen(() => existsSync(path.join(ws.dir, 'AGENTS.md')), 'AGENTS.md written', 30_000);
    expect(readFileSync(path.join(ws.dir, 'AGENTS.md'), 'utf8')).toContain('`make release`');
  }, 120_000);
});

describe('/init against a loopback Anthropic server', () => {
  it('sends the skill, and the model reads the manifest and writes AGENTS.md with the commands it found', async () => {
    const ws = await tempWorkspace(NODE_FIXTURE);
    const server = await startAnthropicServer((request, index) => {
      const body: AnthropicRequestBody = request.body;
      if (index === 0) return anthropicReply([{ type: 'tool_use', id: 'toolu_read', name: 'read_file', input: { path: 'package.json' } }]);
      if (index === 1) {
        // The model side: the commands come from the tool result it was sent, as a real model's would.
        const last = JSON.stringify(body.messages.at(-1));
        const test = /\\"test\\": \\"([^"\\]+)\\"/.exec(last)?.[1] ?? 'none found';
        return anthropicReply([{ type: 'tool_use', id: 'toolu_write', name: 'write_file', input: { path: 'AGENTS.md', content: `# tiny-lib\n\n## Commands\n\n- \`npm test\`: ${test}\n` } }]);
      }
      return anthropicReply([{ type: 'text', text: 'Wrote AGENTS.md.' }]);
    });
    try {
      const run = await runCairn(['-p', '/init', '--provider', 'anthropic', '--permission-mode', 'acceptEdits'], {
        cwd: ws.dir,
        home: ws.home,
        env: { ...home(ws), ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: server.url },
        timeoutMs: 40_000,
      });
      expect(run.code).toBe(0);
      const first = JSON.stringify(server.requests[0]?.body.messages[0]);
      expect(first).toContain('Run the \\"init\\" skill');
      expect(first).toContain('Improve `AGENTS.md` when it exists');
      expect(readFileSync(path.join(ws.dir, 'AGENTS.md'), 'utf8')).toContain('- `npm test`: vitest run --reporter=dot');
      expect(server.requests).toHaveLength(3);
    } finally {
      await server.close();
    }
  }, 60_000);
});
