// Images and PDFs in session files go by reference: the bytes are written once, named by their
// SHA-256, under the session's folder (attachments/), and each record names them. Loading puts
// the bytes back into the messages, so a resumed session re-sends the same image.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Message } from '../messages.js';

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
};

/** The session's folder (beside its .jsonl, where the decision log also lives). */
export function sessionFolderOf(sessionFile: string): string {
  return sessionFile.replace(/\.jsonl$/, '');
}

export function blobFile(folder: string, sha256: string, mediaType: string): string {
  return path.join(folder, 'attachments', `${sha256}.${EXTENSIONS[mediaType] ?? 'bin'}`);
}

interface InlineSource {
  type: 'base64';
  media_type: string;
  data: string;
}

function isAttachmentWithData(value: object): value is { type: 'image' | 'document'; source: InlineSource } {
  const v = value as { type?: unknown; source?: { type?: unknown; data?: unknown; media_type?: unknown } };
  return (v.type === 'image' || v.type === 'document') && v.source?.type === 'base64' && typeof v.source.data === 'string' && typeof v.source.media_type === 'string';
}

/**
 * The record with every inline image or PDF replaced by a reference, each one's bytes written to
 * the folder first (once: the name is the content's hash). Records without any are returned as they are.
 */
export function withBlobsStored<T>(record: T, folder: string): T {
  return walk(record, (block) => {
    const bytes = Buffer.from(block.source.data, 'base64');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const file = blobFile(folder, sha256, block.source.media_type);
    if (!fs.existsSync(file)) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      // Written whole under another name, then renamed: a kill never leaves half an image under the real name.
      const partial = `${file}.${process.pid}.part`;
      fs.writeFileSync(partial, bytes);
      fs.renameSync(partial, file);
    }
    return { ...block, source: { type: 'ref', media_type: block.source.media_type, sha256 } };
  }) as T;
}

/**
 * The record with every inline image or PDF replaced by its reference, nothing written: what a web
 * page is sent (it asks for a picture by its hash, findBlob), so no event carries megabytes of base64.
 */
export function withBlobsReferenced<T>(record: T): T {
  return walk(record, (block) => ({ ...block, source: { type: 'ref', media_type: block.source.media_type, sha256: createHash('sha256').update(Buffer.from(block.source.data, 'base64')).digest('hex') } })) as T;
}

/** The saved copy of an attachment in a session's folder, by its hash alone (a name that is not a hash finds nothing). */
export function findBlob(folder: string, sha256: string): { file: string; mediaType: string } | undefined {
  if (!/^[0-9a-f]{64}$/.test(sha256)) return undefined;
  for (const mediaType of Object.keys(EXTENSIONS)) {
    const file = blobFile(folder, sha256, mediaType);
    if (fs.existsSync(file)) return { file, mediaType };
  }
  return undefined;
}

function walk(value: unknown, replace: (block: { type: 'image' | 'document'; source: InlineSource }) => object): unknown {
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const w = walk(v, replace);
      if (w !== v) changed = true;
      return w;
    });
    return changed ? out : value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (isAttachmentWithData(value)) return replace(value);
  let out: Record<string, unknown> | undefined;
  for (const [key, v] of Object.entries(value)) {
    const w = walk(v, replace);
    if (w !== v) (out ??= { ...(value as Record<string, unknown>) })[key] = w;
  }
  return out ?? value;
}

/**
 * The messages with each referenced image or PDF read back from the folder. One whose file is
 * gone becomes a text note naming it (the conversation still loads); `missing` lists them.
 */
export function withBlobsLoaded(messages: Message[], folder: string): { messages: Message[]; missing: string[] } {
  const missing: string[] = [];
  const load = <B extends { type: string; name?: string; source: { type: string; media_type: string; sha256?: string } }>(block: B): B | { type: 'text'; text: string } => {
    if (block.source.type !== 'ref' || block.source.sha256 === undefined) return block;
    const file = blobFile(folder, block.source.sha256, block.source.media_type);
    try {
      const data = fs.readFileSync(file).toString('base64');
      return { ...block, source: { type: 'base64', media_type: block.source.media_type, data } };
    } catch {
      missing.push(`${block.name ?? block.type} (${file})`);
      return { type: 'text', text: `[${block.type === 'image' ? 'image' : 'pdf'} ${block.name ?? ''}: its saved copy is missing, so it was not sent again]` };
    }
  };
  const out = messages.map((m) => {
    if (!m.content.some((b) => b.type === 'image' || b.type === 'document' || (b.type === 'tool_result' && typeof b.content !== 'string'))) return m;
    return {
      ...m,
      content: m.content.map((b) => {
        if (b.type === 'image' || b.type === 'document') return load(b);
        if (b.type === 'tool_result' && typeof b.content !== 'string') return { ...b, content: b.content.map((c) => (c.type === 'text' ? c : load(c))) };
        return b;
      }),
    };
  });
  return { messages: out, missing };
}
