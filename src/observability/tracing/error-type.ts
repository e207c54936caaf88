/**
 * The `error.type` of a failure: its stable code where it has one (`models.rate_limited`,
 * `mcp.server_unavailable`, a socket's `ECONNRESET`, a JSON-RPC error's number as text), else its class
 * name. Never its message, which can carry user content.
 */
export function errorTypeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { code, name } = error as { code?: unknown; name?: unknown };
    if (typeof code === 'string' && code !== '') return code;
    if (typeof code === 'number' && Number.isInteger(code)) return String(code);
    if (typeof name === 'string' && name !== '') return name;
  }
  return '_OTHER';
}
