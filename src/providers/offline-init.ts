// The offline model's /init: the shipped init skill's steps (skills/init/SKILL.md), deterministic.
// List the top level, read the instruction files and manifests it shows, then write the instruction
// file with the commands those manifests name: nothing is made up, so a fixture's real commands show.
import type { Message, ToolResultBlock } from '../messages.js';
import { toolResultText } from '../messages.js';
import type { PlannedCall } from './offline-plan.js';
import { projectCommands, type ProjectFacts } from './offline-init-commands.js';

/** The files step 2 of the skill reads, when the listing shows them. */
const WORTH_READING = ['AGENTS.md', 'CLAUDE.md', '.cursorrules', 'README.md', 'package.json', 'Makefile', 'pyproject.toml', 'Cargo.toml', 'go.mod', 'justfile'];

/** The prompt a `/init` line becomes (skill-commands / headless prepare it). */
export function isInitPrompt(text: string): boolean {
  return /^\/init(?:\s|$)/.test(text) && text.includes('Run the "init" skill');
}

interface Done {
  listing?: string[];
  reads: Map<string, string>;
  wrote: boolean;
}

function resultsSoFar(after: readonly Message[]): Done {
  const uses = new Map<string, { name: string; input: Record<string, unknown> }>();
  const done: Done = { reads: new Map(), wrote: false };
  for (const m of after) {
    for (const b of m.content) {
      if (b.type === 'tool_use') uses.set(b.id, { name: b.name, input: b.input as Record<string, unknown> });
      if (b.type !== 'tool_result') continue;
      const use = uses.get(b.tool_use_id);
      if (!use) continue;
      if (use.name === 'list_dir') done.listing = b.is_error ? [] : toolResultText(b).split('\n').filter(Boolean);
      else if (use.name === 'read_file' && !b.is_error) done.reads.set(String(use.input['path']), fileText(b));
      else if (use.name === 'write_file') done.wrote = true;
    }
  }
  return done;
}

/** read_file's numbered lines back to the file's text. */
function fileText(block: ToolResultBlock): string {
  return toolResultText(block)
    .split('\n')
    .filter((l) => /^\s*\d+\t/.test(l))
    .map((l) => l.replace(/^\s*\d+\t/, ''))
    .join('\n');
}

/** The next calls of /init given what came back so far; undefined once the file is written (the summary follows). */
export function nextInitCalls(after: readonly Message[]): PlannedCall[] | undefined {
  const done = resultsSoFar(after);
  if (done.wrote) return undefined;
  if (!done.listing) return [{ name: 'list_dir', input: { path: '.' } }];
  const toRead = WORTH_READING.filter((f) => done.listing?.includes(f) && !done.reads.has(f));
  const readAlready = [...done.reads.keys()].length > 0;
  if (toRead.length > 0 && !readAlready) return toRead.map((path) => ({ name: 'read_file', input: { path } }));
  const target = done.reads.has('AGENTS.md') || !done.reads.has('CLAUDE.md') ? 'AGENTS.md' : 'CLAUDE.md';
  return [{ name: 'write_file', input: { path: target, content: instructionFile({ listing: done.listing, files: done.reads }, done.reads.get(target)) } }];
}

/** The instruction file: what was there kept, then what the manifests say, each section once. */
export function instructionFile(facts: ProjectFacts, existing: string | undefined): string {
  const commands = projectCommands(facts);
  const name = facts.files.has('package.json') ? packageName(facts.files.get('package.json') ?? '') : undefined;
  const folders = facts.listing.filter((e) => e.endsWith('/') && !e.startsWith('.') && e !== 'node_modules/');
  const sections: string[] = [];
  if (!existing?.trim()) sections.push(`# ${name ?? 'This project'}\n\nInstructions for agents (and people) working in this repository.`);
  if (!/^##\s+Commands/m.test(existing ?? '')) {
    sections.push(
      commands.length > 0
        ? `## Commands\n\n${commands.map((c) => `- \`${c.command}\`: ${c.does} (from ${c.from})`).join('\n')}`
        : '## Commands\n\nNo build or test command was found in the manifests: add them here.',
    );
  }
  if (folders.length > 0 && !/^##\s+Layout/m.test(existing ?? '')) sections.push(`## Layout\n\n${folders.map((f) => `- \`${f}\``).join('\n')}`);
  const head = existing?.trim() ? `${existing.trimEnd()}\n\n` : '';
  return `${head}${sections.join('\n\n')}\n`;
}

function packageName(json: string): string | undefined {
  try {
    const name = (JSON.parse(json) as { name?: unknown }).name;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined; // a package.json that does not parse names nothing
  }
}
