import { errorMessage } from '../util/error-message.js';
import { errnoCode } from '../util/errno.js';
import type { ToolResult } from './tool.js';

export function errorResult(content: string): ToolResult {
  return { content, isError: true };
}

function messageOf(err: unknown): string {
  return errorMessage(err);
}

/** Turns an fs error into a sentence naming the path, so the model can correct itself. */
export function fsErrorMessage(err: unknown, shownPath: string): string {
  switch (errnoCode(err)) {
    case 'ENOENT':
      return `No such file or directory: ${shownPath}`;
    case 'EACCES':
    case 'EPERM':
      return `Permission denied: ${shownPath}`;
    case 'EISDIR':
      return `${shownPath} is a directory, not a file`;
    case 'ENOTDIR':
      return `A component of ${shownPath} is not a directory`;
    case 'EROFS':
      return `Read-only file system: ${shownPath}`;
    case 'ENOSPC':
      return `No space left on device while writing ${shownPath}`;
    case 'ELOOP':
      return `Too many symbolic links while resolving ${shownPath}`;
    case 'ENAMETOOLONG':
      return `Path too long: ${shownPath}`;
    default:
      return `Error accessing ${shownPath}: ${messageOf(err)}`;
  }
}

export { isErrno } from '../util/errno.js';

/** The tool contract says call() never throws; this is the last line of defence for unexpected failures. */
export async function guard(
  shownPath: string | undefined,
  body: () => Promise<ToolResult>,
): Promise<ToolResult> {
  try {
    return await body();
  } catch (err) {
    if (shownPath !== undefined && errnoCode(err) !== undefined) return errorResult(fsErrorMessage(err, shownPath));
    return errorResult(`Error: ${messageOf(err)}`);
  }
}
