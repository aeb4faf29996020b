import type { DocumentBlock } from '../messages.js';
import { errorMessage } from '../util/error-message.js';

/** Why a PDF cannot be sent, in words naming the file; nothing is sent. */
export class PdfProblem extends Error {}

/**
 * A PDF made ready to send: its bytes for providers that take documents, and its text page by
 * page (`--- page N ---`) for those that do not. A password-protected or damaged file is refused.
 * unpdf (PDF.js, pure JavaScript) loads on the first PDF, not at start-up.
 */
export async function preparePdf(bytes: Buffer, name: string): Promise<DocumentBlock> {
  const { extractText, getDocumentProxy } = await import('unpdf');
  let pages: string[];
  try {
    // PDF.js takes the bytes over; it gets a copy so the ones sent stay whole.
    const pdf = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, stopAtErrors: true, verbosity: 0 });
    try {
      pages = (await extractText(pdf, { mergePages: false })).text;
    } finally {
      await pdf.destroy();
    }
  } catch (error) {
    if ((error as { name?: unknown } | undefined)?.name === 'PasswordException') {
      throw new PdfProblem(`${name} is password-protected; cairn cannot open it. Save an unprotected copy and attach that.`);
    }
    throw new PdfProblem(`${name} is not a readable PDF (${errorMessage(error)}).`);
  }
  const text = pages.map((page, i) => `--- page ${i + 1} ---\n${page.trim()}`).join('\n\n');
  return {
    type: 'document',
    source: { type: 'base64', media_type: 'application/pdf', data: bytes.toString('base64') },
    name,
    pages: pages.length,
    bytes: bytes.length,
    text,
  };
}
