/**
 * The `error.type` of a failure: its stable code where it has one (`models.rate_limited`,
 * `mcp.server_unavailable`, a socket's `ECONNRESET`), else its class name. Never its message, which can
 * carry user content.
 */
export function errorTypeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { code, name } = error as { code?: unknown; name?: unknown };
    if (typeof code === 'string' && code !== '') return code;
    if (typeof name === 'string' && name !== '') return name;
  }
  return '_OTHER';
}
