/** An error answer of the API, in its one shape (`{status_code, code, message, details, request_id}`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> | null = null,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The fields a 400 `common.validation_failed` names, as `{field: messages}`. */
  fieldMessages(): Record<string, string[]> {
    const fields = (this.details?.fields ?? []) as { field: string; messages: string[] }[];
    return Object.fromEntries(fields.map((f) => [f.field, f.messages]));
  }
}

/** Turns a failed response into an ApiError; a body that is not the API's shape still gives a code. */
export async function apiErrorFrom(response: Response): Promise<ApiError> {
  const retryAfter = Number(response.headers.get('retry-after'));
  let body: { code?: unknown; message?: unknown; details?: unknown } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // A proxy's HTML page, an empty body: keep the status.
  }
  return new ApiError(
    response.status,
    typeof body.code === 'string' ? body.code : `http.${response.status}`,
    typeof body.message === 'string' ? body.message : response.statusText || 'Request failed',
    body.details && typeof body.details === 'object' ? (body.details as Record<string, unknown>) : null,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
  );
}
