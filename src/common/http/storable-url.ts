import type { RequestHandler } from 'express';
import { CommonErrors, type FieldError } from '../errors/common.errors.js';
import { sendErrorResponse } from '../errors/error-response.js';
import { requestIdOf } from '../request-id/request-id.js';
import { isUnstorableText, unstorableField } from './unstorable-text.js';

/**
 * Route params and query fields become SQL parameters (a slug looked up, a name filter), and PostgreSQL
 * refuses NUL in text: a `%00` anywhere in the URL → 400 `common.validation_failed` for every route,
 * before routing. Params are not known yet here, so the decoded path segments stand for them (field
 * `path`; a segment that is not percent-encoded UTF-8 too); query keys and values name their key.
 */
export const storableUrl: RequestHandler = (req, res, next) => {
  const fields: FieldError[] = [];
  const segments = req.path.split('/').map(decodeSegment);
  if (segments.includes(null)) {
    fields.push({ field: 'path', messages: ['must be percent-encoded UTF-8'] });
  } else if (segments.some((segment) => isUnstorableText(segment ?? ''))) {
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

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
