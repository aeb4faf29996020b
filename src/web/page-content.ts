import { decodeBody } from './charset.js';

export type PageContent =
  | { ok: true; kind: 'html' | 'json' | 'text'; title?: string; text: string; charset: string }
  | { ok: false; reason: string };

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function looksLikeHtml(text: string): boolean {
  return /^\s*(?:<!doctype html|<html|<head|<body)/i.test(text.slice(0, 1024));
}

/** What the model reads of a fetched body: HTML as Markdown, JSON pretty-printed, text as is; PDFs, images and other binaries refused. */
// The HTML tools (linkedom, Readability, Turndown) load with the first page, not with cairn.
export async function pageContent(body: Buffer, contentType: string | undefined, url: string): Promise<PageContent> {
  const type = mediaType(contentType);
  if (type === 'application/pdf' || type.startsWith('image/') || type.startsWith('audio/') || type.startsWith('video/') ||
      type === 'application/octet-stream' || type === 'application/zip') {
    return { ok: false, reason: `${url} is ${type} (${body.length} bytes), not a page web_fetch can read as text` };
  }
  const isHtml = type === 'text/html' || type === 'application/xhtml+xml';
  const decoded = decodeBody(body, contentType, isHtml || type === '');
  if (type === 'application/json' || type.endsWith('+json')) {
    try {
      return { ok: true, kind: 'json', text: JSON.stringify(JSON.parse(decoded.text), null, 2), charset: decoded.charset };
    } catch {
      return { ok: true, kind: 'text', text: decoded.text, charset: decoded.charset }; // says JSON, is not: shown as it came
    }
  }
  if (isHtml || (type === '' && looksLikeHtml(decoded.text))) {
    const { htmlToMarkdown } = await import('./html-to-markdown.js');
    const page = htmlToMarkdown(decoded.text, url);
    return { ok: true, kind: 'html', title: page.title, text: page.markdown, charset: decoded.charset };
  }
  if (type === '' && decoded.text.includes('\u0000')) return { ok: false, reason: `${url} has no content type and looks binary` };
  return { ok: true, kind: 'text', text: decoded.text, charset: decoded.charset };
}
