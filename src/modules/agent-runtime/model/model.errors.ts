import { DomainError, declareErrorCodes } from '../../../common/errors/index.js';

/** What the run records when the model cannot answer. Details carry no provider message or credential. */
export interface ModelFailureDetails {
  model: string;
  attempts: number;
  /** The provider's HTTP status of the last try; absent when the connection failed or timed out. */
  status?: number;
  /** `reset` or `timeout` when the last try got no HTTP answer. */
  connection?: 'reset' | 'timeout';
  retry_after_seconds?: number;
}

const retryAfter = (details: ModelFailureDetails) => details.retry_after_seconds;

export const ModelsErrorCode = {
  RATE_LIMITED: 'models.rate_limited',
  UNAVAILABLE: 'models.unavailable',
  BAD_REQUEST: 'models.bad_request',
  AUTH_FAILED: 'models.auth_failed',
  NOT_CONFIGURED: 'models.not_configured',
  /** The provider refused the request as longer than the model's context window (a 400). */
  CONTEXT_OVERFLOW: 'models.context_overflow',
} as const;
export type ModelsErrorCode = (typeof ModelsErrorCode)[keyof typeof ModelsErrorCode];
declareErrorCodes(ModelsErrorCode);

export const ModelErrors = {
  rateLimited: (details: ModelFailureDetails) =>
    new DomainError(
      'rate_limited',
      ModelsErrorCode.RATE_LIMITED,
      `The model provider is rate limiting requests (gave up after ${details.attempts} attempts).`,
      { details: { ...details }, retryAfterSeconds: retryAfter(details) },
    ),
  unavailable: (details: ModelFailureDetails) =>
    new DomainError(
      'unavailable',
      ModelsErrorCode.UNAVAILABLE,
      `The model provider is unavailable (gave up after ${details.attempts} attempts).`,
      { details: { ...details }, retryAfterSeconds: retryAfter(details) },
    ),
  /** The provider refused this request (400, 404, 422…): trying again would not help. */
  badRequest: (details: ModelFailureDetails) =>
    new DomainError(
      'unprocessable',
      ModelsErrorCode.BAD_REQUEST,
      `The model provider rejected the request (status ${details.status ?? 'unknown'}).`,
      { details: { ...details } },
    ),
  /** A 400 saying the request does not fit the model's context: the run compresses it and tries once more. */
  contextOverflow: (details: ModelFailureDetails) =>
    new DomainError(
      'unprocessable',
      ModelsErrorCode.CONTEXT_OVERFLOW,
      "The request is longer than the model's context window.",
      { details: { ...details } },
    ),
  /** Our credentials for the provider were refused: a configuration problem, not the caller's. */
  authFailed: (details: ModelFailureDetails) =>
    new DomainError(
      'unavailable',
      ModelsErrorCode.AUTH_FAILED,
      `The model provider refused our credentials (status ${details.status ?? 'unknown'}); check OPENAI_API_KEY.`,
      { details: { ...details } },
    ),
  /** Nothing to talk to: no key on the default OpenAI URL. Found at config time, so no request is made. */
  notConfigured: () =>
    new DomainError(
      'unavailable',
      ModelsErrorCode.NOT_CONFIGURED,
      'No chat model is configured: set OPENAI_BASE_URL to an OpenAI-compatible server (a hosted ' +
        'provider with OPENAI_API_KEY, or a local one such as Ollama or vLLM) and DEFAULT_MODEL to its model.',
    ),
};
