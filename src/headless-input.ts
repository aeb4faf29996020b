// `--input-format stream-json`: user messages as JSON lines on stdin, one turn each, as Claude
// Code reads them: {"type":"user","message":{"role":"user","content":"..."}} where content may also
// be an array of blocks: its text blocks are the prompt, its `image` and `document` blocks
// ({type, source: {type: 'base64', media_type, data}}) go with it as attachments.
import { createInterface } from 'node:readline';
import { inputMediaName, isAttachableType, type InputMedia } from './attachments/input-media.js';

/** One user message of the input: its text and the images and PDFs it carries (not yet checked or scaled). */
export interface UserMessage {
  text: string;
  media: InputMedia[];
}

/** An image or document content block's bytes; throws an Error naming the block and what is wrong. */
function mediaOfBlock(block: { type: string; source?: unknown }, index: number): InputMedia {
  const where = `message.content[${index}] (${block.type})`;
  const source = block.source as { type?: unknown; media_type?: unknown; data?: unknown } | undefined;
  if (source?.type !== 'base64') throw new Error(`${where}: only source.type "base64" is read, got ${JSON.stringify(source?.type)}`);
  const mediaType = source.media_type;
  const allowed = block.type === 'document' ? mediaType === 'application/pdf' : isAttachableType(mediaType) && mediaType !== 'application/pdf';
  if (!allowed || !isAttachableType(mediaType)) {
    throw new Error(`${where}: media_type ${JSON.stringify(mediaType)} is not one cairn sends (${block.type === 'document' ? 'application/pdf' : 'image/png, image/jpeg, image/gif, image/webp'})`);
  }
  if (typeof source.data !== 'string' || source.data === '' || !/^[A-Za-z0-9+/\r\n]*={0,2}\s*$/.test(source.data)) throw new Error(`${where}: source.data is not base64`);
  return { mediaType, data: Buffer.from(source.data, 'base64'), name: inputMediaName(mediaType, index + 1) };
}

/** The user message a stream-json input line carries; throws an Error saying what is wrong with it. */
export function messageOfLine(line: string): UserMessage {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (err) {
    throw new Error(`not JSON (${(err as Error).message})`, { cause: err });
  }
  const msg = json as { type?: unknown; message?: { role?: unknown; content?: unknown } } | null;
  if (msg?.type !== 'user') throw new Error(`expected {"type":"user",...}, got type ${JSON.stringify(msg?.type)}`);
  const content = msg.message?.content;
  if (typeof content === 'string') return { text: content, media: [] };
  if (Array.isArray(content)) {
    const blocks = content as { type?: unknown; text?: unknown; source?: unknown }[];
    const texts = blocks.filter((b): b is { type: 'text'; text: string } => b?.type === 'text' && typeof b.text === 'string');
    const media = blocks.flatMap((b, i) => (b?.type === 'image' || b?.type === 'document' ? [mediaOfBlock({ ...b, type: b.type }, i)] : []));
    if (texts.length > 0 || media.length > 0) return { text: texts.map((b) => b.text).join('\n'), media };
    throw new Error('message.content has no text, image or document block');
  }
  throw new Error('expected message.content to be a string or an array of blocks');
}

/**
 * Reads user messages from a stream, one per call. Undefined at the end of the input, or after a
 * line that cannot be read (reported through `onError` with its line number: nothing is skipped
 * silently, and the run stops there rather than answer a different conversation).
 */
export function userMessageReader(input: NodeJS.ReadableStream, onError: (message: string) => void): () => Promise<UserMessage | undefined> {
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
        return messageOfLine(line);
      } catch (err) {
        onError(`--input-format stream-json: stdin line ${lineNo}: ${(err as Error).message}`);
        break;
      }
    }
    done = true;
    return undefined;
  };
}
