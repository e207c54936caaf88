import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

type ContentBlock = CallToolResult['content'][number];

function sizeOf(base64: string): number {
  return Math.floor((base64.length * 3) / 4);
}

/** A block as text: text as is; images, audio and resources described rather than dropped. */
function describe(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      return `[image: ${block.mimeType}, ${sizeOf(block.data)} bytes, not shown]`;
    case 'audio':
      return `[audio: ${block.mimeType}, ${sizeOf(block.data)} bytes, not shown]`;
    case 'resource': {
      const { resource } = block;
      if ('text' in resource && typeof resource.text === 'string')
        return `[resource: ${resource.uri}]\n${resource.text}`;
      return `[resource: ${resource.uri}${resource.mimeType === undefined ? '' : `, ${resource.mimeType}`}, binary, not shown]`;
    }
    case 'resource_link':
      return `[resource link: ${block.uri}${block.name === undefined ? '' : ` (${block.name})`}]`;
    default:
      return `[${(block as { type: string }).type} content, not shown]`;
  }
}

/**
 * The text the model receives for a result: the content blocks joined (text kept, the rest described),
 * then `structuredContent` as JSON text when the server gave one.
 */
export function resultText(result: CallToolResult): string {
  const parts = (result.content ?? []).map(describe);
  if (result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent));
  return parts.join('\n');
}
