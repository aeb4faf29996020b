import fs from 'node:fs/promises';
import * as z from 'zod';
import { resolveForWrite } from '../tools/paths.js';
import type { AnyTool, ToolContext, ToolResult } from '../tools/tool.js';
import { errorMessage } from '../util/error-message.js';
import { encodeContent, type CheckpointKey, type CheckpointStore } from './checkpoints.js';
import type { SessionSnapshots } from './workspace-snapshots.js';

/** The tools whose file changes are checkpointed by path (bash's are, by workspace snapshots: bash-checkpoints.ts). */
export const CHECKPOINTED_TOOLS: ReadonlySet<string> = new Set(['write_file', 'edit_file']);

/** The session's checkpoints and the prompt now running, which keys every change made meanwhile. */
export class CheckpointRecorder {
  /**
   * The prompt running, or the last one (its id and its place in the history). Before the session's
   * first prompt (a teammate or cron run started earlier) the session sets the next prompt's, so
   * rewinding to that prompt undoes them too; unset (no session), changes go to the first prompt.
   */
  prompt: CheckpointKey | undefined;

  /** `snapshots`: the workspace snapshots that let rewind cover bash commands (withBashCheckpoints); absent, it does not. */
  constructor(
    readonly store: CheckpointStore,
    readonly warn: (message: string) => void = () => {},
    readonly snapshots?: SessionSnapshots,
  ) {}

  startPrompt(prompt: CheckpointKey): void {
    this.prompt = prompt;
  }

  /** After the conversation is rewound to before `prompt`, its and the later prompts' checkpoints go with them. */
  async forgetFrom(prompt: CheckpointKey): Promise<void> {
    try {
      await this.store.forgetFrom(prompt);
    } catch (err) {
      this.warn(`Could not drop the rewound prompts' checkpoints: ${errorMessage(err)}`);
    }
  }

  /** `before`: the file's exact bytes (null: it did not exist); `prompt`: the one that made the change, default the one running. */
  async record(path: string, before: Buffer | null, prompt = this.prompt): Promise<void> {
    try {
      const { turn, id } = prompt ?? { turn: 0, id: 0 };
      await this.store.record({ turn, prompt: id, path, ...encodeContent(before) });
    } catch (err) {
      this.warn(`Could not save a checkpoint for ${path} (rewind cannot restore this change): ${errorMessage(err)}`);
    }
  }
}

const pathInput = z.object({ path: z.string() });

/** The file's bytes now, null when it does not exist, undefined when it cannot be read (the tool will report why). */
async function contentNow(abs: string): Promise<Buffer | null | undefined> {
  try {
    const stat = await fs.stat(abs);
    if (!stat.isFile()) return undefined;
    return await fs.readFile(abs);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  }
}

/**
 * write_file and edit_file with a checkpoint: the file's content before the call (resolved the way
 * the tool resolves it) is saved before the tool writes, so a crash mid-write still leaves it
 * recoverable. A call that fails leaves a checkpoint of the unchanged content, which restores nothing
 * new. Other tools pass through.
 */
export function withCheckpoints(tool: AnyTool, recorder: CheckpointRecorder): AnyTool {
  if (!CHECKPOINTED_TOOLS.has(tool.name)) return tool;
  const call: AnyTool['call'] = async (input: unknown, ctx: ToolContext): Promise<ToolResult> => {
    const parsed = pathInput.safeParse(input);
    if (parsed.success) {
      try {
        const abs = await resolveForWrite(ctx.cwd, parsed.data.path);
        const before = await contentNow(abs);
        if (before !== undefined) await recorder.record(abs, before);
      } catch {
        // Unresolvable path: the tool resolves it again and reports the error as its result.
      }
    }
    return tool.call(input, ctx);
  };
  // Built on the original as its prototype: every member is the original's but `call`.
  return Object.create(tool, { call: { value: call, enumerable: true } }) as AnyTool;
}
