import type { AttachmentBlock } from '../messages.js';

/** Bytes as people read them: 812 B, 45 KB, 3.2 MB. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

/** What an attachment is, in a few words: `image shot.png · 1280x800 · 45 KB`, `pdf spec.pdf · 12 pages · 1.1 MB`. */
export function attachmentLabel(block: AttachmentBlock): string {
  if (block.type === 'image') return `image ${block.name} · ${block.width}x${block.height} · ${formatBytes(block.bytes)}`;
  return `pdf ${block.name} · ${block.pages} ${block.pages === 1 ? 'page' : 'pages'} · ${formatBytes(block.bytes)}`;
}

/** The chip the prompt box and the transcript show for an attachment: `[image shot.png · 1280x800]`. */
export function attachmentChip(block: AttachmentBlock): string {
  if (block.type === 'image') return `[image ${block.name} · ${block.width}x${block.height}]`;
  return `[pdf ${block.name} · ${block.pages} ${block.pages === 1 ? 'page' : 'pages'}]`;
}

export function attachmentNames(blocks: readonly AttachmentBlock[]): string {
  return blocks.map((b) => `${b.type === 'image' ? 'image' : 'pdf'} ${b.name}`).join(', ');
}
