import { json, type RequestHandler } from 'express';
import { CommonErrors } from '../errors/common.errors.js';
import { sendErrorResponse } from '../errors/error-response.js';
import { requestIdOf } from '../request-id/request-id.js';

/**
 * JSON body parsing whose failures answer with the API envelope (express would otherwise send HTML):
 * malformed JSON → 400, a body over the limit → 413.
 */
export function jsonBodyParser(limitBytes: number): RequestHandler {
  const parse = json({ limit: limitBytes });
  return (req, res, next) => {
    parse(req, res, (err?: unknown) => {
      if (err === undefined || err === null) return next();
      const type = (err as { type?: string }).type;
      const error =
        type === 'entity.too.large'
          ? CommonErrors.payloadTooLarge(limitBytes)
          : type === 'entity.parse.failed'
            ? CommonErrors.malformedJson()
            : CommonErrors.validationFailed([{ field: 'body', messages: [String((err as Error).message)] }]);
      sendErrorResponse(res, error, requestIdOf(req));
    });
  };
}
