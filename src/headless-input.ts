// `--input-format stream-json`: user messages as JSON lines on stdin, one turn each, as Claude
// Code reads them: {"type":"user","message":{"role":"user","content":"..."}} where content may also
// be an array of blocks (its text blocks are the prompt).
import { createInterface } from 'node:readline';

/** The prompt a stream-json input line carries; throws an Error saying what is wrong with it. */
export function promptOfLine(line: string): string {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (err) {
    throw new Error(`not JSON (${(err as Error).message})`, { cause: err });
  }
  const msg = json as { type?: unknown; message?: { role?: unknown; content?: unknown } } | null;
  if (msg?.type !== 'user') throw new Error(`expected {"type":"user",...}, got type ${JSON.stringify(msg?.type)}`);
  const content = msg.message?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const texts = content.filter((b): b is { type: 'text'; text: string } => (b as { type?: unknown })?.type === 'text' && typeof (b as { text?: unknown }).text === 'string');
    if (texts.length > 0) return texts.map((b) => b.text).join('\n');
    throw new Error('message.content has no text block (only text is read)');
  }
  throw new Error('expected message.content to be a string or an array of blocks');
}

/**
 * Reads user messages from a stream, one per call. Undefined at the end of the input, or after a
 * line that cannot be read (reported through `onError` with its line number: nothing is skipped
 * silently, and the run stops there rather than answer a different conversation).
 */
export function userMessageReader(input: NodeJS.ReadableStream, onError: (message: string) => void): () => Promise<string | undefined> {
  const lines = createInterface({ input, crlfDelay: Infinity })[Symbol.asyncIterator]();
  let lineNo = 0;
  let done = false;
  return async () => {
    while (!done) {
      const next = await lines.next();
      if (next.done === true) break;
      lineNo += 1;
      const line: string = next.value;
      if (line.trim() === '') continue;
      try {
        return promptOfLine(line);
      } catch (err) {
        onError(`--input-format stream-json: stdin line ${lineNo}: ${(err as Error).message}`);
        break;
      }
    }
    done = true;
    return undefined;
  };
}
