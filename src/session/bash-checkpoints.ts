import type { AnyTool, ToolContext, ToolResult } from '../tools/tool.js';
import { errorMessage } from '../util/error-message.js';
import type { CheckpointRecorder } from './checkpoint-tools.js';

function inBackground(input: unknown): boolean {
  return typeof input === 'object' && input !== null && (input as { run_in_background?: unknown }).run_in_background === true;
}

/**
 * bash with a checkpoint of whatever the command changed in its workspace: a snapshot before it runs
 * and one after, and for each file that differs, its content before is recorded for the prompt that
 * ran it, exactly as write_file's are. A command run in the background is not covered (it is still
 * running when its call returns). A snapshot that fails never stops the command: the problem is
 * reported once, and rewind cannot restore that command's changes.
 */
export function withBashCheckpoints(tool: AnyTool, recorder: CheckpointRecorder): AnyTool {
  const snapshots = recorder.snapshots;
  if (tool.name !== 'bash' || !snapshots) return tool;
  const reported = new Set<string>();
  const report = (message: string): void => {
    if (reported.has(message)) return;
    reported.add(message);
    recorder.warn(message);
  };
  const call: AnyTool['call'] = async (input: unknown, ctx: ToolContext): Promise<ToolResult> => {
    if (inBackground(input)) return tool.call(input, ctx);
    const store = snapshots.of(ctx.cwd);
    const prompt = recorder.prompt;
    const before = await store.snapshot().catch((error: unknown) => {
      report(`Rewind will not cover bash commands' changes: the workspace snapshot failed (${errorMessage(error)}). Check that ${store.storeDir} is writable and git works.`);
      return undefined;
    });
    const result = await tool.call(input, ctx);
    if (before === undefined) return result;
    try {
      const after = await store.snapshot();
      const { files, skipped } = await store.changes(before, after);
      for (const file of files) await recorder.record(file.path, file.before, prompt);
      for (const s of skipped) report(`Rewind cannot restore ${s.path} as it was before a bash command: ${s.reason}.`);
    } catch (error) {
      report(`Rewind may not cover a bash command's changes: the snapshot after it failed (${errorMessage(error)}).`);
    }
    return result;
  };
  return Object.create(tool, { call: { value: call, enumerable: true } }) as AnyTool;
}
