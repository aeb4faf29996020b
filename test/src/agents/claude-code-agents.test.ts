import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAgentDefinitions, parseAgentFile } from '../../../src/agents/agent-definition-loader.js';
import { AGENT_LISTING_BUDGET, agentListing } from '../../../src/agents/agent-listing.js';
import { agentModel } from '../../../src/agents/agent-model.js';
import { agentToolNotices, grantsTool } from '../../../src/agents/agent-tool-grants.js';
import { createAgentTool } from '../../../src/agents/agent-tool.js';
import { BUILTIN_AGENTS } from '../../../src/agents/agent-definition.js';
import { canonicalToolName } from '../../../src/permissions/rules/parse.js';
import { allowEverything } from '../../helpers/real-permissions.js';
import { createOfflineProvider } from '../../../src/providers/offline.js';

// 158 real definitions from VoltAgent/awesome-claude-code-subagents, by category (see its README).
const FIXTURES = path.resolve('../shared/fixtures/claude-code/agents-voltagent');
const CAIRN_TOOLS = ['bash', 'read_file', 'write_file', 'edit_file', 'glob', 'grep', 'list_dir', 'agent', 'todo_write'];

async function fixtureFiles(): Promise<string[]> {
  const names = (await fs.readdir(FIXTURES, { recursive: true })).map(String);
  return names.filter((n) => n.endsWith('.md') && path.basename(n) !== 'README.md').sort().map((n) => path.join(FIXTURES, n));
}

describe('the real subagent definitions of a Claude Code project', () => {
  it('every one loads, as in Claude Code: unquoted colons with a warning, names with dots, aliases kept for the provider', async () => {
    const files = await fixtureFiles();
    expect(files.length).toBe(158);
    const results = await Promise.all(files.map(async (f) => ({ file: f, result: parseAgentFile(f, await fs.readFile(f, 'utf8')) })));
    const failed = results.filter((r) => 'problem' in r.result);
    expect(failed.map((r) => r.file)).toEqual([]);
    const agents = results.flatMap((r) => ('agent' in r.result ? [r.result.agent] : []));
    const colon = agents.filter((a) => a.warnings?.some((w) => w.startsWith('description: the value has an unquoted ": "')));
    expect(colon.map((a) => a.name).sort()).toEqual([
      'ab-test-analysis', 'assumption-mapping', 'backlog-grooming', 'cohort-analysis', 'first-principles-thinking', 'gdpr-ccpa-compliance', 'growth-loops', 'hipaa-compliance',
    ]);
    expect(colon.find((a) => a.name === 'hipaa-compliance')?.description).toMatch(/^Use when the user is building a healthcare product.*Triggers on: 'HIPAA'/);
    expect(agents.map((a) => a.name)).toEqual(expect.arrayContaining(['dotnet-framework-4.8-expert', 'powershell-5.1-expert']));
    // `inherit` is the session's model; sonnet and haiku stay aliases until the provider is known.
    const models = agents.map((a) => a.model ?? 'session');
    expect(new Set(models)).toEqual(new Set(['sonnet', 'haiku', 'session']));
    expect(models.filter((m) => m === 'sonnet')).toHaveLength(106);
    expect(agents.every((a) => a.tools?.includes('read_file'))).toBe(true);
  });

  it('tools cairn does not have are reported once per definition and kept: WebFetch and WebSearch are granted when they exist', async () => {
    const files = await fixtureFiles();
    const agents = await Promise.all(files.map(async (f) => {
      const r = parseAgentFile(f, await fs.readFile(f, 'utf8'));
      if (!('agent' in r)) throw new Error(f);
      return r.agent;
    }));
    const notices = agentToolNotices(agents, CAIRN_TOOLS);
    const [webFetch, webSearch] = [canonicalToolName('WebFetch'), canonicalToolName('WebSearch')];
    const web = agents.filter((a) => a.tools?.includes(webFetch) || a.tools?.includes(webSearch));
    expect(web.length).toBeGreaterThanOrEqual(38);
    expect(notices.length).toBeGreaterThanOrEqual(web.length);
    expect(new Set(notices.map((n) => n.split(' ')[1])).size).toBe(notices.length);
    const hipaa = notices.find((n) => n.startsWith('Agent hipaa-compliance '));
    expect(hipaa).toContain(`${webFetch}, ${webSearch} are not in cairn yet (granted when they exist)`);
    const mcp = agents.find((a) => a.tools?.includes('mcp__bgpt__search_papers'));
    expect(mcp && grantsTool(mcp, 'mcp__bgpt__search_papers')).toBe(true);
    const odd = notices.find((n) => n.includes('pied-piper'));
    expect(odd).toMatch(/pied-piper.* cairn or Claude Code has/);
    const hipaaDef = agents.find((a) => a.name === 'hipaa-compliance');
    expect(hipaaDef && grantsTool(hipaaDef, webFetch)).toBe(true);
    expect(hipaaDef && grantsTool(hipaaDef, 'bash')).toBe(false);
  });

  it('the agent tool lists all 158 within its budget (it was 34 KB); a full description is one describe call away', async () => {
    const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-voltagent-')));
    await fs.cp(FIXTURES, path.join(base, 'ws', '.claude', 'agents'), { recursive: true });
    const { agents, problems } = await loadAgentDefinitions(path.join(base, 'home'), path.join(base, 'ws'));
    expect(problems).toEqual([]);
    expect(agents).toHaveLength(158 + BUILTIN_AGENTS.length);
    const full = agents.map((d) => `- ${d.name}: ${d.description}`).join('\n');
    const listing = agentListing(agents);
    expect(full.length).toBeGreaterThan(30_000);
    expect(listing.length).toBeLessThanOrEqual(AGENT_LISTING_BUDGET);
    for (const a of agents) expect(listing).toContain(a.name);
    const open = await allowEverything(base);
    const tool = createAgentTool({ definitions: () => agents, provider: () => createOfflineProvider(), tools: () => [], permissions: () => open, environment: () => '', cwd: base });
    expect(tool.description.length).toBeLessThan(AGENT_LISTING_BUDGET + 600);
    const described = await tool.call({ type: 'rails-expert', task: '-', description: '-', describe: true }, { cwd: base, signal: new AbortController().signal });
    expect(described.content).toContain('Version-aware');
    expect(described.content).toMatch(/^Tools: \(none\)$/m);
    expect(described.content).toContain(`\nModel: ${createOfflineProvider().model}\n`);
  });
});

describe('model aliases', () => {
  it('map to the session provider’s model of that tier; inherit and unknown aliases use the session’s model', () => {
    expect(agentModel('sonnet', 'claude-opus-5-5')).toEqual({ model: 'claude-sonnet-5-5' });
    expect(agentModel('haiku', 'gpt-5.4')).toEqual({ model: 'gpt-5.4-mini' });
    expect(agentModel('opus', 'anthropic/claude-sonnet-5.5')).toEqual({ model: 'anthropic/claude-opus-5.5' });
    expect(agentModel(undefined, 'gpt-5.4')).toEqual({ model: 'gpt-5.4' });
    expect(agentModel('claude-sonnet-4-5-20250929', 'claude-opus-5-5')).toEqual({ model: 'claude-sonnet-4-5-20250929' });
    expect(agentModel('sonnet', 'qwen2.5-coder')).toMatchObject({ model: 'qwen2.5-coder', notice: expect.stringContaining('no sonnet tier') });
    expect(agentModel('speedy', 'gpt-5.4')).toMatchObject({ model: 'gpt-5.4', notice: expect.stringContaining('"speedy" is not a model alias') });
  });
});
