/** One scripted model reply: plain text, or tool calls (with optional text before them). */
export type FakeReply = (
  { readonly text: string } | { readonly text?: string; readonly toolCalls: readonly FakeToolCall[] }
) & { readonly usage?: FakeUsage };

/** The usage a reply reports (default 11 prompt, 7 completion tokens, no cached ones). */
export interface FakeUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  /** Reported as `prompt_tokens_details.cached_tokens`. */
  readonly cached_tokens?: number;
}

export interface FakeToolCall {
  /** Defaults to `call_<n>`. */
  readonly id?: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
}

/** What the next request(s) get instead of a scripted reply. */
export type FakeFailure =
  | {
      readonly kind: 'status';
      readonly status: number;
      readonly retryAfter?: string;
      /** The provider's error object in the body (default `{message: "scripted <status>"}`). */
      readonly error?: Record<string, unknown>;
    }
  /** Accepts the request and never answers (until the client gives up or the server closes). */
  | { readonly kind: 'hang' };

/** A request as the fake received it, for assertions on what the model was shown. */
export interface RecordedRequest {
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: {
    model: string;
    stream?: boolean;
    stream_options?: { include_usage?: boolean };
    messages: { role: string; content: unknown; tool_call_id?: string; tool_calls?: unknown[] }[];
    tools?: { type: string; function: { name: string; description?: string; parameters: unknown } }[];
    [key: string]: unknown;
  };
}

/** Splits a string into pieces of `size` characters (at least one piece), as a model streams it. */
export function splitIntoPieces(text: string, size: number): string[] {
  if (text === '') return [''];
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}
