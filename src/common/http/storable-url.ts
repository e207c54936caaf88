import type { RequestHandler } from 'express';
import { CommonErrors, type FieldError } from '../errors/common.errors.js';
import { sendErrorResponse } from '../errors/error-response.js';
import { requestIdOf } from '../request-id/request-id.js';
import { isUnstorableText, unstorableField } from './unstorable-text.js';

/**
 * Route params and query fields become SQL parameters (a slug looked up, a name filter), and PostgreSQL
 * refuses NUL in text: a `%00` anywhere in the URL → 400 `common.validation_failed` for every route,
 * before routing. Params are not known yet here, so the decoded path segments stand for them
 * (field `path`); query keys and values name their key.
 */
export const storableUrl: RequestHandler = (req, res, next) => {
  const fields: FieldError[] = [];
  if (req.path.split('/').some((segment) => isUnstorableText(decodeSegment(segment)))) {
    fields.push(unstorableField('path'));
  }
  // After singleValuedQuery: every value is one string.
  for (const [key, value] of Object.entries(req.query as Record<string, unknown>)) {
    if (isUnstorableText(key) || (typeof value === 'string' && isUnstorableText(value))) {
      fields.push(unstorableField(key));
    }
  }
  if (fields.length === 0) return next();
  sendErrorResponse(res, CommonErrors.validationFailed(fields), requestIdOf(req));
};

/** A malformed escape is left to the router, which answers it. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}
