import { json, type RequestHandler } from 'express';
import { CommonErrors } from '../errors/common.errors.js';
import { sendErrorResponse } from '../errors/error-response.js';
import { requestIdOf } from '../request-id/request-id.js';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from './json-depth.js';
import { unstorableTextFields } from './unstorable-text.js';

const TOO_DEEP = 'entity.too.deep';

/** body-parser's `verify` hook sees the raw bytes before anything parses or transforms them. */
function refuseDeepNesting(_req: unknown, _res: unknown, raw: Buffer, charset: string): void {
  const utf8 = /^utf-?8$/i.test(charset) ? raw : Buffer.from(new TextDecoder(charset).decode(raw), 'utf8');
  if (jsonNestsDeeperThan(utf8, MAX_JSON_DEPTH))
    throw Object.assign(new Error('too deep'), { type: TOO_DEEP });
}

/**
 * JSON body parsing whose failures answer with the API envelope (express would otherwise send HTML):
 * malformed JSON → 400, nesting deeper than MAX_JSON_DEPTH → 400 naming `body`, strings PostgreSQL cannot
 * store (NUL, unpaired surrogates) → 400 naming the field, a body over the limit → 413.
 */
export function jsonBodyParser(limitBytes: number): RequestHandler {
  const parse = json({ limit: limitBytes, verify: refuseDeepNesting });
  return (req, res, next) => {
    parse(req, res, (err?: unknown) => {
      if (err === undefined || err === null) {
        // Bounded by MAX_JSON_DEPTH, so this walk's recursion is too.
        const unstorable = unstorableTextFields(req.body);
        if (unstorable.length === 0) return next();
        return sendErrorResponse(res, CommonErrors.validationFailed(unstorable), requestIdOf(req));
      }
      const type = (err as { type?: string }).type;
      const error =
        type === 'entity.too.large'
          ? CommonErrors.payloadTooLarge(limitBytes)
          : type === 'entity.parse.failed'
            ? CommonErrors.malformedJson()
            : type === TOO_DEEP
              ? CommonErrors.validationFailed([
                  {
                    field: 'body',
                    messages: [`JSON nesting deeper than ${MAX_JSON_DEPTH} levels is not accepted`],
                  },
                ])
              : CommonErrors.validationFailed([
                  { field: 'body', messages: [String((err as Error).message)] },
                ]);
      sendErrorResponse(res, error, requestIdOf(req));
    });
  };
}
