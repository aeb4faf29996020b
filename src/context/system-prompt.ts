import os from 'node:os';
import type { PermissionMode } from '../events.js';
import type { GitInfo } from './git-info.js';
import type { InstructionFile } from './instruction-files.js';
import { episodicDir } from './episodic-notes.js';
import { personaHeading } from './persona-files.js';

export interface PromptSection {
  /** What /context calls it: 'static', 'environment', a memory file's path, ... */
  name: string;
  kind: 'static' | 'dynamic' | 'memory';
  text: string;
}

export interface SystemPromptInputs {
  cwd: string;
  model: string;
  mode: PermissionMode;
  date: Date;
  toolNames: readonly string[];
  git?: GitInfo;
  instructionFiles: readonly InstructionFile[];
  longTermMemory: readonly InstructionFile[];
  /** SOUL.md files (the user's, then the project's): a section each, before the instructions. */
  soul?: readonly InstructionFile[];
  /** USER.md files (the user's, then the project's): a section each, after long-term memory. */
  userProfile?: readonly InstructionFile[];
  /** The skills section (src/skills/skill-listing.ts): its own section, so /context shows its cost. */
  skillListing?: string;
  /** --system-prompt / --append-system-prompt: the fixed part replaced, text added at the end. */
  custom?: CustomPrompt;
}

/** The command line's system prompt text (Claude Code's --system-prompt and --append-system-prompt). */
export interface CustomPrompt {
  /** Replaces the fixed part (how cairn works); the environment, instructions and memory stay. */
  replace?: string;
  /** Added after everything else. */
  append?: string;
}

// Static first, dynamic after, memory last: a stable prefix lets provider prompt caching hit.
export const STATIC_PROMPT = `You are cairn, an AI coding agent working in the user's terminal, inside their project.

# How you work
- Read before you edit: use read_file, list_dir, glob and grep to learn the code; never guess file contents. edit_file and write_file refuse an existing file you have not read with read_file, or one that changed since you read it.
- Make the smallest change that does the job; keep the project's style.
- Prefer edit_file for changes to existing files and write_file for new files.
- Before you overwrite, move or replace something (a file, a directory, a branch), look at what is there now.
- Run commands with bash to build, test and check your work; read the output.
- Independent read-only calls can be made together in one message; they run in parallel.
- When a tool call fails or is denied, read the reason and adapt; do not repeat the same call.

# Your answers
- Answers are shown as Markdown in a terminal: short paragraphs, lists and fenced code read best.
- The user sees each tool call folded to a line or two, not its whole output. When a result matters (the failing test, the passing summary, an error), quote those lines in your answer.
- Point at code as path:line (src/app.ts:42).
- Report outcomes as they are. Say tests pass only after running them and seeing them pass; show a failure or an error as it happened; say what you did not do or could not check.
- Be concise: report what you did and what you found.

# Git
- Commit only when the user asks; never amend, rebase or force-push unless asked.
- Never commit secrets (keys, tokens, .env files): look at what is staged first.
- After a commit, show what went in: its hash, its message and the files it changed.

# Safety
- Stay inside the workspace unless the user asks otherwise.
- Anything others will see or that reaches beyond the workspace needs the user's say first: pushing, publishing, opening pull requests, sending messages, deleting outside the workspace.
- Never run destructive commands (deleting data, force-pushing, rewriting history) without being asked.
- Do not reveal secrets you come across.`;

export function assembleSystemPrompt(inputs: SystemPromptInputs): { text: string; sections: PromptSection[] } {
  const env = [
    '# Environment',
    `- Workspace: ${inputs.cwd}`,
    `- Platform: ${os.platform()} ${os.release()}`,
    `- Date: ${inputs.date.toISOString().slice(0, 10)}`,
    `- Model: ${inputs.model}`,
    `- Permission mode: ${inputs.mode}${inputs.mode === 'plan' ? ' (read-only: explore, then present your plan with exit_plan_mode; nothing that changes anything runs until the user approves it)' : ''}`,
    `- Tools: ${inputs.toolNames.join(', ')}`,
  ];
  if (inputs.git) env.push(`- Git branch: ${inputs.git.branch}`, `- Git status at session start:\n${indent(inputs.git.status)}`);
  const sections: PromptSection[] = [
    { name: 'static', kind: 'static', text: inputs.custom?.replace ?? STATIC_PROMPT },
    { name: 'environment', kind: 'dynamic', text: env.join('\n') },
    ...(inputs.skillListing ? [{ name: 'skills', kind: 'dynamic' as const, text: inputs.skillListing }] : []),
    { name: 'memory', kind: 'dynamic', text: memoryGuide(inputs.cwd) },
  ];
  for (const file of inputs.soul ?? []) {
    if (file.content.trim()) sections.push({ name: file.path, kind: 'memory', text: `${personaHeading('soul', file.path)}\n\n${file.content.trim()}` });
  }
  for (const file of inputs.instructionFiles) {
    const via = file.importedBy ? ` (imported by ${file.importedBy})` : '';
    sections.push({ name: file.path, kind: 'memory', text: `# Instructions from ${file.path}${via}\n\n${file.content}` });
  }
  for (const file of inputs.longTermMemory) {
    if (file.content.trim()) sections.push({ name: file.path, kind: 'memory', text: `# Long-term memory from ${file.path}\n\n${file.content.trim()}` });
  }
  for (const file of inputs.userProfile ?? []) {
    if (file.content.trim()) sections.push({ name: file.path, kind: 'memory', text: `${personaHeading('user', file.path)}\n\n${file.content.trim()}` });
  }
  if (inputs.custom?.append) sections.push({ name: '--append-system-prompt', kind: 'dynamic', text: inputs.custom.append });
  return { text: sections.map((s) => s.text).join('\n\n') + '\n', sections };
}

/** The memory section: where each layer lives, and how to reach the episodic notes (never put here whole). */
export function memoryGuide(cwd: string): string {
  return [
    '# Memory',
    '- Working history: this conversation; when it grows too long it is compacted into a summary.',
    `- Episodic notes: each compaction and each archived session adds a dated entry to ${episodicDir(cwd)}/YYYY-MM-DD.md. They are not in this prompt: when the user refers to earlier sessions or past work, search them with the memory tool (action "search") or grep that folder.`,
    '- Long-term memory: the MEMORY.md files (below, when not empty); save a durable fact with the memory tool.',
    "- The user's preferences are in USER.md and your persona in SOUL.md (below, when present).",
  ].join('\n');
}

function indent(text: string): string {
  return text.split('\n').map((l) => `  ${l}`).join('\n');
}
