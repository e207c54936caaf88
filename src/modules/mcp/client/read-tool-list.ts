import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpErrors } from '../mcp.errors.js';
import { inMcpRequestSpan } from './mcp-request-span.js';
import type { McpToolInfo } from './mcp-tool-info.js';

/** A list spread over more pages, or naming more tools, than a run could take is refused whole. */
export const MAX_TOOL_LIST_PAGES = 20;
export const MAX_TOOLS_PER_SERVER = 500;

/**
 * Reads a server's whole tool list, page after page, each request bound by `timeoutMs` and `signal`
 * (aborting it stops the loop: no further page is asked). Throws `mcp.tool_list_too_long` before
 * asking page 21 or once the tools pass 500.
 */
export async function readToolList(
  client: Client,
  slug: string,
  options: { timeoutMs: number; signal: AbortSignal },
): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    if (pages === MAX_TOOL_LIST_PAGES) throw McpErrors.toolListTooLong(slug, { pages: MAX_TOOL_LIST_PAGES });
    const page = await listPage(client, slug, cursor, options);
    pages++;
    for (const tool of page.tools) {
      tools.push({
        name: tool.name,
        description: tool.description ?? '',
        inputSchema: tool.inputSchema,
        ...(tool.annotations === undefined ? {} : { annotations: { ...tool.annotations } }),
      });
    }
    if (tools.length > MAX_TOOLS_PER_SERVER) {
      throw McpErrors.toolListTooLong(slug, { tools: MAX_TOOLS_PER_SERVER });
    }
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

/**
 * One page (one request, one span), on a signal of its own tied to the caller's (the SDK never removes
 * its abort listeners).
 */
async function listPage(
  client: Client,
  slug: string,
  cursor: string | undefined,
  options: { timeoutMs: number; signal: AbortSignal },
) {
  options.signal.throwIfAborted();
  const request = { method: 'tools/list' as const, server: slug, signal: options.signal };
  return inMcpRequestSpan(request, async (meta) => {
    const page = new AbortController();
    const abort = () => page.abort(options.signal.reason);
    options.signal.addEventListener('abort', abort, { once: true });
    try {
      const params = {
        ...(cursor === undefined ? {} : { cursor }),
        ...(meta === undefined ? {} : { _meta: meta }),
      };
      return await client.listTools(params, { timeout: options.timeoutMs, signal: page.signal });
    } finally {
      options.signal.removeEventListener('abort', abort);
    }
  });
}
