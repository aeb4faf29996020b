import * as z from 'zod';

// One internal message format: Anthropic's content-block shape. Providers convert at their edge.

export const TextBlockSchema = z.object({ type: z.literal('text'), text: z.string() });
export const ThinkingBlockSchema = z.object({
  type: z.literal('thinking'),
  thinking: z.string(),
  signature: z.string().optional(),
});
export const RedactedThinkingBlockSchema = z.object({ type: z.literal('redacted_thinking'), data: z.string() });
export const ToolUseBlockSchema = z.object({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
});
export const ImageMediaTypeSchema = z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
export type ImageMediaType = z.infer<typeof ImageMediaTypeSchema>;

/**
 * The bytes of an attachment: inline base64 while cairn runs, or a content-addressed reference in
 * session files (session-blobs.ts keeps the bytes under the session's folder and puts them back on load).
 */
const base64Source = <M extends z.ZodType<string>>(mediaType: M) =>
  z.union([
    z.object({ type: z.literal('base64'), media_type: mediaType, data: z.string() }),
    z.object({ type: z.literal('ref'), media_type: mediaType, sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  ]);

/** A picture the user attached or a tool read, already scaled for the provider (attachments/prepare-image.ts). */
export const ImageBlockSchema = z.object({
  type: z.literal('image'),
  source: base64Source(ImageMediaTypeSchema),
  /** The file's name, its pixel size and byte size as sent: what the chip and the context bar show. */
  name: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  bytes: z.number().int().nonnegative(),
});

/** A PDF: sent whole where the provider takes documents, as `text` (page by page) where it does not. */
export const DocumentBlockSchema = z.object({
  type: z.literal('document'),
  source: base64Source(z.literal('application/pdf')),
  name: z.string(),
  pages: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  /** The extracted text, each page under a `--- page N ---` line. */
  text: z.string(),
});

export const AttachmentBlockSchema = z.discriminatedUnion('type', [ImageBlockSchema, DocumentBlockSchema]);

export const ToolResultBlockSchema = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(z.discriminatedUnion('type', [TextBlockSchema, ImageBlockSchema, DocumentBlockSchema]))]),
  is_error: z.boolean().optional(),
});

export const ContentBlockSchema = z.discriminatedUnion('type', [
  TextBlockSchema,
  ThinkingBlockSchema,
  RedactedThinkingBlockSchema,
  ToolUseBlockSchema,
  ToolResultBlockSchema,
  ImageBlockSchema,
  DocumentBlockSchema,
]);

export const MessageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.array(ContentBlockSchema),
});

export type TextBlock = z.infer<typeof TextBlockSchema>;
export type ThinkingBlock = z.infer<typeof ThinkingBlockSchema>;
export type RedactedThinkingBlock = z.infer<typeof RedactedThinkingBlockSchema>;
export type ToolUseBlock = z.infer<typeof ToolUseBlockSchema>;
export type ToolResultBlock = z.infer<typeof ToolResultBlockSchema>;
export type ContentBlock = z.infer<typeof ContentBlockSchema>;
export type ImageBlock = z.infer<typeof ImageBlockSchema>;
export type DocumentBlock = z.infer<typeof DocumentBlockSchema>;
export type AttachmentBlock = z.infer<typeof AttachmentBlockSchema>;
export type Message = z.infer<typeof MessageSchema>;

export function userText(text: string): Message {
  return { role: 'user', content: [{ type: 'text', text }] };
}

/** A prompt with what the user attached to it (images, PDFs) after its text. */
export function userPrompt(text: string, attachments: readonly AttachmentBlock[] = []): Message {
  return { role: 'user', content: [{ type: 'text', text }, ...attachments] };
}

export function isAttachment(block: { type: string }): block is AttachmentBlock {
  return block.type === 'image' || block.type === 'document';
}

/** The base64 bytes of an attachment; empty for a reference not put back (session-blobs.ts resolves them on load). */
export function attachmentData(block: AttachmentBlock): string {
  return block.source.type === 'base64' ? block.source.data : '';
}

/** The attachments a tool result carries beside its text. */
export function toolResultAttachments(block: ToolResultBlock): AttachmentBlock[] {
  return typeof block.content === 'string' ? [] : block.content.filter(isAttachment);
}

export function textOf(message: Message): string {
  return message.content
    .filter((b): b is TextBlock => b.type === 'text')
    .map((b) => b.text)
    .join('');
}

export function toolUsesOf(message: Message): ToolUseBlock[] {
  return message.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
}

export function toolResultText(block: ToolResultBlock): string {
  return typeof block.content === 'string' ? block.content : block.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
}
