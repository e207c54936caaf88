import type { RequestHandler } from 'express';
import { CommonErrors } from '../errors/common.errors.js';
import { sendErrorResponse } from '../errors/error-response.js';
import { requestIdOf } from '../request-id/request-id.js';

const BRACKET = /[[\]]/;

/**
 * Every query field is one scalar, checked once for all routes before any of them runs: a key given twice
 * (`?after=1&after=2`, which the parser hands over as an array to code typed `string`) or written in
 * bracket syntax (`limit[]=1`, `cursor[a]=b`) → 400 `common.validation_failed` naming it. No route takes a
 * list in its query string.
 */
export const singleValuedQuery: RequestHandler = (req, res, next) => {
  const fields = Object.entries(req.query as Record<string, unknown>)
    .filter(([key, value]) => typeof value !== 'string' || BRACKET.test(key))
    .map(([key]) => ({ field: key, messages: [`${key} must be given once, as a single value`] }));
  if (fields.length === 0) return next();
  sendErrorResponse(res, CommonErrors.validationFailed(fields), requestIdOf(req));
};
