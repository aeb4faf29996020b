import path from 'node:path';
import type { PermissionMode } from '../events.js';
import { readGitInfo, type GitInfo } from './git-info.js';
import { memoryPath, readMemory } from './long-term-memory.js';
import { personaPaths } from './persona-files.js';
import { loadInstructionFiles, type InstructionFile } from './instruction-files.js';
import { createNestedInstructions, type NestedInstructions } from './nested-instructions.js';
import { readClaudeMdExcludes, type ClaudeMdExcludes } from './claude-md-excludes.js';
import { assembleSystemPrompt, type CustomPrompt, type PromptSection } from './system-prompt.js';
import { errorMessage } from '../util/error-message.js';
import { createProblemReporter, type ReportProblem } from '../util/problem-reporter.js';

export interface SystemPromptSource {
  /** Assembled fresh each turn: memory files and mode changes apply on the next model call. */
  build(ctx: { mode: PermissionMode; model: string }): Promise<{ text: string; sections: PromptSection[] }>;
  /** A subfolder's instruction files and path-scoped rules for the paths a tool just read (see NestedInstructions). */
  forPaths(paths: readonly string[], why: string): Promise<string | undefined>;
  /**
   * Every instruction and memory file in the context: those the next prompt is built from (read
   * again now, so an edit or a new import shows), then those loaded for paths.
   */
  loadedFiles(): Promise<InstructionFile[]>;
  /** Each distinct problem met reading instruction and memory files so far (also reported through onProblem). */
  problems(): readonly string[];
  /** --bare: no instruction, persona or memory file is read this session. */
  readonly bare: boolean;
}

export function createSystemPromptSource(opts: {
  cwd: string;
  cairnHome: string;
  /** `~/.claude` (claudeHomeFrom): Claude Code's user CLAUDE.md and rules. */
  claudeHome: string;
  /** For `@~/` imports; default the OS home. */
  home?: string;
  /** Files a Read deny rule covers are never put in the prompt. */
  isReadDenied?: () => Promise<(absPath: string) => boolean>;
  toolNames: () => readonly string[];
  now: () => Date;
  /** The skills section, listed within its budget (src/skills/skill-listing.ts). */
  skillListing?: () => string;
  /** An instruction file that cannot be read; each distinct problem is reported once. */
  onProblem?: ReportProblem;
  /** --system-prompt / --append-system-prompt. */
  custom?: CustomPrompt;
  /** Told once per instruction file taken into the context, with why (InstructionsLoaded hooks). */
  onInstructionsLoaded?: (file: string, reason: 'session_start' | 'nested_traversal' | 'path_glob_match' | 'include') => void;
  /** --bare: no instruction, persona or memory file is read (--append-system-prompt still adds its text). */
  bare?: boolean;
}): SystemPromptSource {
  const report = createProblemReporter(opts.onProblem);
  const bare = opts.bare === true;
  // Git is read once per session so the prompt stays byte-stable between turns.
  let git: Promise<GitInfo | undefined> | undefined;
  // Files are read again for every prompt (edits apply next turn); the folders found later keep
  // the first reader, which knows what the prompt already holds.
  let nested: Promise<NestedInstructions> | undefined;
  const scopes = { cairnHome: opts.cairnHome, cwd: opts.cwd };
  // The settings files are read once per session, like the rest of the settings.
  let excludes: Promise<ClaudeMdExcludes> | undefined;
  const claudeMdExcludes = (): Promise<ClaudeMdExcludes> =>
    (excludes ??= readClaudeMdExcludes({ workspace: opts.cwd, cairnHome: opts.cairnHome, claudeHome: opts.claudeHome }).then((e) => {
      for (const problem of e.problems) report(problem);
      return e;
    }));
  const load = async () => {
    const isReadDenied = await opts.isReadDenied?.();
    const { excluded } = await claudeMdExcludes();
    return loadInstructionFiles({
      cairnHome: opts.cairnHome,
      claudeHome: opts.claudeHome,
      cwd: opts.cwd,
      onProblem: report,
      isExcluded: excluded,
      ...(opts.home ? { home: opts.home } : {}),
      ...(isReadDenied ? { isReadDenied } : {}),
    });
  };
  // SOUL.md and USER.md, the user's and the project's; a project's file is the repository's text, kept out as its CLAUDE.md would be.
  const readPersona = async (): Promise<{ soul: InstructionFile[]; user: InstructionFile[] }> => {
    const isReadDenied = await opts.isReadDenied?.();
    const { excluded } = await claudeMdExcludes();
    const read = (files: readonly string[]) =>
      Promise.all(files.filter((f) => !isReadDenied?.(f) && !excluded(f)).map(async (f) => ({ path: f, content: await readMemoryOrReport(f, report) })));
    const [soul, user] = await Promise.all([read(personaPaths('soul', scopes)), read(personaPaths('user', scopes))]);
    return { soul, user };
  };
  // Files are read again every turn: each is told once, the first time it is in the context.
  const told = new Set<string>();
  const tell = (files: readonly InstructionFile[], lazy: boolean): void => {
    for (const f of files) {
      if (told.has(f.path) || !opts.onInstructionsLoaded) continue;
      told.add(f.path);
      const rules = f.path.includes(`${path.sep}.claude${path.sep}rules${path.sep}`);
      opts.onInstructionsLoaded(f.path, f.importedBy !== undefined ? 'include' : !lazy ? 'session_start' : rules ? 'path_glob_match' : 'nested_traversal');
    }
  };
  const nestedInstructions = () =>
    (nested ??= load().then(({ reader, conditional }) => createNestedInstructions({ cwd: opts.cwd, reader, conditional })));
  return {
    bare,
    problems: () => report.seen,
    forPaths: async (paths, why) => {
      if (bare) return undefined;
      const nestedNow = await nestedInstructions();
      const text = await nestedNow.forPaths(paths, why);
      tell(nestedNow.loaded(), true);
      return text;
    },
    async loadedFiles() {
      if (bare) return [];
      const memory = await Promise.all((['user', 'project'] as const).map(async (scope) => ({ path: memoryPath(scope, scopes), content: await readMemoryOrReport(memoryPath(scope, scopes), report) })));
      const [{ files }, persona] = await Promise.all([load(), readPersona()]);
      const filled = (list: readonly InstructionFile[]) => list.filter((m) => m.content.trim() !== '');
      return [...filled(persona.soul), ...files, ...(nested ? (await nested).loaded() : []), ...filled(memory), ...filled(persona.user)];
    },
    async build({ mode, model }) {
      git ??= readGitInfo(opts.cwd);
      const [gitInfo, { files: instructionFiles }, user, project] = await Promise.all([
        git,
        bare ? { files: [] } : load(),
        bare ? '' : readMemoryOrReport(memoryPath('user', scopes), report),
        bare ? '' : readMemoryOrReport(memoryPath('project', scopes), report),
      ]);
      tell(instructionFiles, false);
      const persona = bare ? { soul: [], user: [] } : await readPersona();
      const longTermMemory: InstructionFile[] = [
        { path: memoryPath('user', scopes), content: user },
        { path: memoryPath('project', scopes), content: project },
      ];
      return assembleSystemPrompt({
        cwd: opts.cwd,
        model,
        mode,
        date: opts.now(),
        toolNames: opts.toolNames(),
        ...(gitInfo ? { git: gitInfo } : {}),
        instructionFiles,
        longTermMemory,
        soul: persona.soul,
        userProfile: persona.user,
        ...(opts.skillListing ? { skillListing: opts.skillListing() } : {}),
        ...(opts.custom ? { custom: opts.custom } : {}),
      });
    },
  };
}

/** A memory file that cannot be read is left out of this prompt and reported, naming it. */
async function readMemoryOrReport(file: string, report: ReportProblem): Promise<string> {
  try {
    return await readMemory(file);
  } catch (error) {
    report(`Memory ${errorMessage(error)}; it is left out of the system prompt`);
    return '';
  }
}
