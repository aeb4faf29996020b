import fs from 'node:fs/promises';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { isInside } from '../permissions/paths.js';
import { HttpError } from './http-error.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

/**
 * Serves a file from `root` for a URL path. Anything that would leave the folder (.., encoded
 * slashes or dots, a NUL, a symlink pointing out) is a 404, the same as a missing file.
 */
export async function serveStatic(root: string, urlPath: string, res: ServerResponse, extra: Record<string, string> = {}): Promise<void> {
  let rel: string;
  try {
    rel = decodeURIComponent(urlPath);
  } catch {
    throw new HttpError(400, 'malformed path');
  }
  if (rel.includes('\0') || rel.includes('\\')) throw new HttpError(404, 'not found');
  const file = path.resolve(root, `.${path.posix.normalize(`/${rel}`)}`);
  if (!isInside(root, file)) throw new HttpError(404, 'not found');
  let real: string;
  try {
    real = await fs.realpath(file);
  } catch {
    throw new HttpError(404, 'not found');
  }
  if (!isInside(await fs.realpath(root), real)) throw new HttpError(404, 'not found');
  const stat = await fs.stat(real);
  if (!stat.isFile()) throw new HttpError(404, 'not found');
  const body = await fs.readFile(real);
  res.writeHead(200, {
    'content-type': TYPES[path.extname(real)] ?? 'application/octet-stream',
    'content-length': body.length,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    ...extra,
  });
  res.end(body);
}
