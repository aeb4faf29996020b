import type { IncomingMessage } from 'node:http';
import type * as z from 'zod';
import { HttpError } from './http-error.js';

export const MAX_BODY_BYTES = 1024 * 1024;

/** The request's JSON body checked against `schema`; a 400 naming the field, a 413 past the cap. */
export async function readJsonBody<T>(req: IncomingMessage, schema: z.ZodType<T>, maxBytes = MAX_BODY_BYTES): Promise<T> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) throw new HttpError(413, `request body over ${maxBytes} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new HttpError(413, `request body over ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  let data: unknown;
  try {
    data = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `invalid JSON body: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.length ? issue.path.join('.') : 'body';
    throw new HttpError(400, `${field}: ${(issue?.message ?? 'invalid').replace(/^Invalid input: /, '')}`);
  }
  return parsed.data;
}
