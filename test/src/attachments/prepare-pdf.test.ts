import { describe, expect, it } from 'vitest';
import { PdfProblem, preparePdf } from '../../../src/attachments/prepare-pdf.js';
import { textPdf } from '../../helpers/pdf-files.js';

describe('preparePdf', () => {
  it('keeps the bytes and extracts the text page by page', async () => {
    const bytes = textPdf(['Hello page one', 'Second page here']);
    const doc = await preparePdf(bytes, 'doc.pdf');
    expect(doc).toMatchObject({ type: 'document', name: 'doc.pdf', pages: 2, bytes: bytes.length });
    expect(doc.source).toEqual({ type: 'base64', media_type: 'application/pdf', data: bytes.toString('base64') });
    expect(doc.text).toBe('--- page 1 ---\nHello page one\n\n--- page 2 ---\nSecond page here');
  });

  it('refuses a password-protected PDF, naming the file and why', async () => {
    await expect(preparePdf(textPdf(['secret'], true), 'locked.pdf')).rejects.toThrow(new PdfProblem('locked.pdf is password-protected; cairn cannot open it. Save an unprotected copy and attach that.'));
  });

  it('refuses a file that only starts like a PDF', async () => {
    await expect(preparePdf(Buffer.from('%PDF-1.4 then nothing of a PDF'), 'bad.pdf')).rejects.toThrow(/^bad\.pdf is not a readable PDF/);
  });
});
