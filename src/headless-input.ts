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

/** What a control_response line carries for one request. */
export type ControlResponse = { subtype: 'success'; response: unknown } | { subtype: 'error'; error: string };

export type InputLine = { type: 'user'; message: UserMessage } | { type: 'control_response'; requestId: string; response: ControlResponse };

function controlResponseOf(msg: { response?: unknown }): InputLine {
  const r = msg.response as { subtype?: unknown; request_id?: unknown; response?: unknown; error?: unknown } | null | undefined;
  if (typeof r !== 'object' || r === null) throw new Error('control_response: expected "response" to be an object');
  if (typeof r.request_id !== 'string') throw new Error('control_response: expected response.request_id to be a string');
  if (r.subtype === 'success') return { type: 'control_response', requestId: r.request_id, response: { subtype: 'success', response: r.response } };
  if (r.subtype === 'error') return { type: 'control_response', requestId: r.request_id, response: { subtype: 'error', error: typeof r.error === 'string' ? r.error : 'the client answered with an error' } };
  throw new Error(`control_response: expected response.subtype "success" or "error", got ${JSON.stringify(r.subtype)}`);
}

/** What a stream-json input line is: a user message or a control_response; throws an Error saying what is wrong with it. */
export function parseInputLine(line: string): InputLine {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (err) {
    throw new Error(`not JSON (${(err as Error).message})`, { cause: err });
  }
  if ((json as { type?: unknown } | null)?.type === 'control_response') return controlResponseOf(json as { response?: unknown });
  return { type: 'user', message: messageOfLine(line) };
}

type ResponseListener = (requestId: string, response: ControlResponse, lineNo: number) => void;

/**
 * Reads stdin's lines as they come, during a turn too: user messages wait their turn (nextPrompt),
 * control responses go to the listener at once. The input ends at its end, or at a line that cannot
 * be read (reported through `onError` with its line number: nothing is skipped silently, and the run
 * stops there rather than answer a different conversation).
 */
export class StreamJsonInput {
  private readonly prompts: UserMessage[] = [];
  private wanting: ((message: UserMessage | undefined) => void) | undefined;
  private readonly responseListeners = new Set<ResponseListener>();
  private readonly endListeners = new Set<() => void>();
  private ended_ = false;

  constructor(input: NodeJS.ReadableStream, private readonly onError: (message: string) => void) {
    void this.pump(input);
  }

  get ended(): boolean {
    return this.ended_;
  }

  /** The next user message, or undefined once the input has ended. */
  readonly nextPrompt = (): Promise<UserMessage | undefined> => {
    const next = this.prompts.shift();
    if (next !== undefined || this.ended_) return Promise.resolve(next);
    return new Promise((resolve) => (this.wanting = resolve));
  };

  onControlResponse(listener: ResponseListener): () => void {
    this.responseListeners.add(listener);
    return () => this.responseListeners.delete(listener);
  }

  onEnd(listener: () => void): () => void {
    this.endListeners.add(listener);
    return () => this.endListeners.delete(listener);
  }

  private async pump(input: NodeJS.ReadableStream): Promise<void> {
    let lineNo = 0;
    try {
      for await (const line of createInterface({ input, crlfDelay: Infinity })) {
        lineNo += 1;
        if (line.trim() === '') continue;
        let parsed: InputLine;
        try {
          parsed = parseInputLine(line);
        } catch (err) {
          this.onError(`--input-format stream-json: stdin line ${lineNo}: ${(err as Error).message}`);
          break;
        }
        if (parsed.type === 'user') this.givePrompt(parsed.message);
        else if (this.responseListeners.size === 0) this.onError(`--input-format stream-json: stdin line ${lineNo}: control_response for ${JSON.stringify(parsed.requestId)}: no question is waiting for an answer`);
        else for (const listener of this.responseListeners) listener(parsed.requestId, parsed.response, lineNo);
      }
    } catch (err) {
      this.onError(`--input-format stream-json: reading stdin failed: ${(err as Error).message}`);
    }
    this.ended_ = true;
    this.wanting?.(this.prompts.shift());
    this.wanting = undefined;
    for (const listener of this.endListeners) listener();
  }

  private givePrompt(prompt: UserMessage): void {
    const wanting = this.wanting;
    this.wanting = undefined;
    if (wanting) wanting(prompt);
    else this.prompts.push(prompt);
  }
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
