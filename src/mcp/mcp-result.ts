// An MCP tool or resource result as the text the model and the card get: text kept, images, audio and
// binary resources described in one line each (never base64 in the transcript), embedded text
// resources shown with their address.

export interface McpContentBlock {
  type: string;
  [key: string]: unknown;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function size(base64: string | undefined): string {
  if (base64 === undefined) return 'no data';
  const bytes = Math.floor((base64.replace(/=+$/, '').length * 3) / 4);
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} bytes`;
}

/** One resource's contents (from an embedded resource or resources/read). */
export function describeResourceContents(contents: Record<string, unknown>): string {
  const uri = str(contents['uri']) ?? '(no uri)';
  const mime = str(contents['mimeType']);
  const text = str(contents['text']);
  if (text !== undefined) return `[resource ${uri}${mime ? ` (${mime})` : ''}]\n${text}`;
  return `[resource ${uri}: ${mime ?? 'binary'}, ${size(str(contents['blob']))}]`;
}

export function describeBlock(block: McpContentBlock): string {
  switch (block.type) {
    case 'text':
      return str(block['text']) ?? '';
    case 'image':
    case 'audio':
      return `[${block.type}: ${str(block['mimeType']) ?? 'unknown type'}, ${size(str(block['data']))}]`;
    case 'resource': {
      const resource = block['resource'];
      return typeof resource === 'object' && resource !== null ? describeResourceContents(resource as Record<string, unknown>) : '[resource]';
    }
    case 'resource_link':
      return `[resource link: ${str(block['uri']) ?? ''}${str(block['name']) ? ` (${str(block['name'])})` : ''}]`;
    default:
      return `[${block.type} content]`;
  }
}

/** A tools/call result's content as text; structured content alone is shown as JSON. */
export function describeToolResult(result: { content?: unknown; structuredContent?: unknown; toolResult?: unknown }): string {
  const blocks = Array.isArray(result.content) ? (result.content as McpContentBlock[]) : [];
  if (blocks.length > 0) return blocks.map(describeBlock).join('\n');
  if (result.structuredContent !== undefined) return JSON.stringify(result.structuredContent, null, 2);
  if (result.toolResult !== undefined) return JSON.stringify(result.toolResult, null, 2);
  return '(no output)';
}
