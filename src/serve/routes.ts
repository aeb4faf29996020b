import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as z from 'zod';
import { APPROVAL_ANSWERS } from '../permissions/approval-answers.js';
import { QuestionAnswerSchema } from '../tools/ask-user-question-schema.js';
import { errorMessage } from '../util/error-message.js';
import { HttpError } from './http-error.js';
import { PAGE_COMMANDS, runPageCommand } from './page-commands.js';
import { readJsonBody } from './request-body.js';
import { MAX_PENDING_UPLOADS, MAX_UPLOAD_BODY_BYTES, UploadBody } from './page-uploads.js';
import { createReadStream } from 'node:fs';
import type { SessionHub } from './session-hub.js';
import { indexSessions } from './session-index.js';
import { openSse } from './sse.js';
import { serveStatic } from './static-files.js';
import { exportServedSession, renameServedSession } from './session-manage.js';
import { listServedWorktrees, removeServedWorktree } from './served-worktrees.js';

export interface RouteContext {
  hub: SessionHub;
  cairnHome: string;
  /** Where a new session starts when the page names no folder. */
  defaultCwd: string;
  staticRoot: string;
  version: string;
  heartbeatMs?: number;
}

const CreateBody = z.strictObject({ cwd: z.string().min(1).optional(), resume: z.string().min(1).optional() });
// attachments: ids of images and PDFs uploaded for this prompt (POST .../attachments).
const PromptBody = z.strictObject({ text: z.string().min(1).max(200_000), attachments: z.array(z.string().min(1).max(100)).max(MAX_PENDING_UPLOADS).optional() });
const AnswerBody = z.strictObject({ request_id: z.string().min(1), answer: z.enum(APPROVAL_ANSWERS as [string, ...string[]]), reason: z.string().max(10_000).optional() });
// answers absent: the user declined the question.
const QuestionBody = z.strictObject({ request_id: z.string().min(1), answers: z.array(QuestionAnswerSchema.strict()).max(4).optional() });
const CommandBody = z.strictObject({ text: z.string().min(1).max(10_000) });
const RenameBody = z.strictObject({ name: z.string().max(1_000) });
// The name is checked by removeServedWorktree, which says what a worktree name is.
const RemoveWorktreeBody = z.strictObject({ name: z.string().min(1).max(1_000) });

// The page runs only its own scripts: a model's text that slipped through as markup could not run.
const PAGE_HEADERS = {
  'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

const requireFrom = createRequire(import.meta.url);
/** A browser module from a dependency (marked's ESM build), resolved as Node resolves it. */
function vendorFile(name: 'marked'): string {
  return requireFrom.resolve(name);
}

function json(res: ServerResponse, status: number, data: unknown): void {
  const body = JSON.stringify(data);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** A folder for a new session: absolute, or relative to the server's own workspace. */
function workspaceFor(ctx: RouteContext, cwd: string | undefined): string {
  return cwd ? path.resolve(ctx.defaultCwd, cwd) : ctx.defaultCwd;
}

function lastEventId(req: IncomingMessage, url: URL): number {
  const raw = req.headers['last-event-id'] ?? url.searchParams.get('after') ?? '0';
  const n = Number(Array.isArray(raw) ? raw[0] : raw);
  return Number.isInteger(n) && n >= 0 ? n : 0;
}

/** Handles one request (access already checked). Throws HttpError for the caller to answer. */
export async function route(req: IncomingMessage, res: ServerResponse, url: URL, ctx: RouteContext): Promise<void> {
  const { hub } = ctx;
  const method = req.method ?? 'GET';
  const p = url.pathname;
  let m: RegExpExecArray | null;

  if (method === 'GET' && (p === '/' || p === '/index.html')) return serveStatic(ctx.staticRoot, 'index.html', res, PAGE_HEADERS);
  if (method === 'GET' && p.startsWith('/static/')) return serveStatic(ctx.staticRoot, p.slice('/static/'.length), res, PAGE_HEADERS);
  if (method === 'GET' && p === '/vendor/marked.js') return serveStatic(path.dirname(vendorFile('marked')), path.basename(vendorFile('marked')), res, PAGE_HEADERS);
  if (method === 'GET' && p === '/api/info') {
    return json(res, 200, { version: ctx.version, cwd: ctx.defaultCwd, commands: PAGE_COMMANDS.map(({ name, argHint, description }) => ({ name, argHint, description })) });
  }
  if (method === 'GET' && p === '/api/sessions') {
    const liveSessions = hub.live();
    const index = await indexSessions(ctx.cairnHome, [ctx.defaultCwd, ...liveSessions.map((s) => s.cwd)]);
    const workspaces = index.map((w) => {
      const open = liveSessions.filter((s) => s.cwd === w.cwd);
      const saved = w.sessions.filter((s) => !open.some((o) => o.id === s.id));
      return {
        cwd: w.cwd,
        sessions: [
          ...open.map((s) => ({ id: s.id, title: w.sessions.find((f) => f.id === s.id)?.name ?? (s.title || '(new session)'), live: true, busy: s.runtime.session.busy, modified: new Date().toISOString() })),
          ...saved.map((s) => ({ id: s.id, title: s.name ?? (s.firstPrompt || '(no prompt)'), live: false, busy: false, modified: s.modified.toISOString(), messages: s.messageCount })),
        ],
      };
    });
    return json(res, 200, { workspaces });
  }
  if (method === 'POST' && p === '/api/sessions') {
    const body = await readJsonBody(req, CreateBody);
    const cwd = workspaceFor(ctx, body.cwd);
    let session;
    try {
      session = await hub.open({ cwd, ...(body.resume ? { resumeId: body.resume } : {}) });
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw new HttpError(400, `cannot open a session in ${cwd}: ${errorMessage(error)}`);
    }
    return json(res, 201, hub.state(session.id));
  }
  if (method === 'GET' && p === '/api/events') {
    const sse = openSse(res, { ...(ctx.heartbeatMs ? { heartbeatMs: ctx.heartbeatMs } : {}), onClose: () => off() });
    const off = hub.onGlobal((n) => sse.send(undefined, 'notice', n));
    return;
  }
  if ((m = /^\/api\/sessions\/([\w-]+)\/(attachments|images)\/([\w-]+)$/.exec(p))) {
    const [, id = '', kind, name = ''] = m;
    if (method === 'DELETE' && kind === 'attachments') {
      ctx.hub.removeUpload(id, name);
      return json(res, 200, { removed: name });
    }
    if (method === 'GET' && kind === 'images') return sendImage(res, ctx.hub.image(id, name));
  }
  if ((m = /^\/api\/sessions\/([\w-]+)\/worktrees(\/remove)?$/.exec(p))) {
    const [, id = '', remove] = m;
    if (method === 'GET' && !remove) return json(res, 200, { worktrees: await listServedWorktrees(hub, id) });
    if (method === 'POST' && remove) {
      const body = await readJsonBody(req, RemoveWorktreeBody);
      const message = await removeServedWorktree(hub, id, body.name);
      return json(res, 200, { removed: body.name, message, worktrees: await listServedWorktrees(hub, id) });
    }
  }
  if ((m = /^\/api\/sessions\/([\w-]+)(\/[a-z]+)?$/.exec(p))) {
    const id = m[1] ?? '';
    const action = m[2] ?? '';
    if (method === 'GET' && action === '') return json(res, 200, hub.state(id));
    if (method === 'GET' && action === '/events') {
      hub.get(id); // 404 before the stream opens
      let offEvents = (): void => undefined;
      let offState = (): void => undefined;
      const sse = openSse(res, {
        ...(ctx.heartbeatMs ? { heartbeatMs: ctx.heartbeatMs } : {}),
        onClose: () => {
          offEvents();
          offState();
        },
      });
      offEvents = hub.subscribe(
        id,
        lastEventId(req, url),
        (e) => sse.send(e.id, 'agent', e.cards ? { ...e.event, cards: e.cards } : e.event),
        () => sse.send(undefined, 'reset', {}),
      );
      sse.send(undefined, 'state', hub.state(id));
      offState = hub.onState(id, (s) => sse.send(undefined, 'state', s));
      return;
    }
    if (method === 'POST' && action === '/prompt') {
      const body = await readJsonBody(req, PromptBody);
      const attachments = body.attachments ?? [];
      if (body.text.trimStart().startsWith('/')) {
        if (attachments.length > 0) throw new HttpError(400, 'attachments: a command takes none; send the images with a prompt');
        return json(res, 200, { output: await runPageCommand(hub, id, body.text), state: hub.state(id) });
      }
      return json(res, 202, hub.prompt(id, body.text, attachments));
    }
    if (method === 'POST' && action === '/attachments') {
      hub.get(id); // 404 before a large body is read
      return json(res, 201, await hub.upload(id, await readJsonBody(req, UploadBody, MAX_UPLOAD_BODY_BYTES)));
    }
    if (method === 'POST' && action === '/command') {
      const body = await readJsonBody(req, CommandBody);
      return json(res, 200, { output: await runPageCommand(hub, id, body.text), state: hub.state(id) });
    }
    if (method === 'POST' && action === '/abort') {
      await readJsonBody(req, z.object({}));
      return json(res, 200, { returned: hub.abort(id), state: hub.state(id) });
    }
    if (method === 'POST' && action === '/permission') {
      const body = await readJsonBody(req, AnswerBody);
      hub.answer(id, body.request_id, body.answer as (typeof APPROVAL_ANSWERS)[number], body.reason);
      return json(res, 200, hub.state(id));
    }
    if (method === 'POST' && action === '/question') {
      const body = await readJsonBody(req, QuestionBody);
      hub.answerQuestion(id, body.request_id, body.answers);
      return json(res, 200, hub.state(id));
    }
    if (method === 'POST' && action === '/name') {
      const body = await readJsonBody(req, RenameBody);
      return json(res, 200, await renameServedSession(ctx.cairnHome, hub.get(id).cwd, id, body.name));
    }
    if (method === 'GET' && action === '/export') {
      const format = url.searchParams.get('format') ?? 'markdown';
      if (format !== 'markdown' && format !== 'json') throw new HttpError(400, `export: format is markdown or json, not "${format}"`);
      const done = await exportServedSession(ctx.cairnHome, hub.get(id).cwd, id, format);
      res.writeHead(200, {
        'content-type': format === 'json' ? 'application/x-ndjson; charset=utf-8' : 'text/markdown; charset=utf-8',
        'content-disposition': `attachment; filename="${done.fileName}"`,
        'cache-control': 'no-store',
        ...(done.warnings.length > 0 ? { 'x-cairn-export-warnings': String(done.warnings.length) } : {}),
      });
      res.end(done.text);
      return;
    }
    if (method === 'POST' && action === '/close') {
      await readJsonBody(req, z.object({}));
      await hub.close(id);
      return json(res, 200, { closed: id });
    }
  }
  throw new HttpError(404, `no route ${method} ${p}`);
}

/** A saved image (by its hash, from the session's folder): its own type, never sniffed or run as a page, cached for good (the hash names the content). */
function sendImage(res: ServerResponse, image: { file: string; mediaType: string }): void {
  res.writeHead(200, {
    'content-type': image.mediaType,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'content-disposition': 'inline',
    'cache-control': 'private, max-age=31536000, immutable',
  });
  createReadStream(image.file).on('error', () => res.destroy()).pipe(res);
}

export function sendError(res: ServerResponse, error: unknown): void {
  const status = error instanceof HttpError ? error.status : 500;
  if (res.headersSent) {
    res.end();
    return;
  }
  json(res, status, { error: errorMessage(error) });
}
