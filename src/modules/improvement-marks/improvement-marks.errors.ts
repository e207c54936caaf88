import { DomainError, declareErrorCodes } from '../../common/errors/index.js';

export const ImprovementMarksErrorCode = {
  NOT_FOUND: 'improvement_marks.not_found',
  RUN_CONTEXT_MISSING: 'improvement_marks.run_context_missing',
  RUN_MISMATCH: 'improvement_marks.run_mismatch',
  CONFLICT: 'improvement_marks.conflict',
} as const;
declareErrorCodes(ImprovementMarksErrorCode);
export type ImprovementMarksErrorCode =
  (typeof ImprovementMarksErrorCode)[keyof typeof ImprovementMarksErrorCode];

export const ImprovementMarksErrors = {
  notFound: () =>
    new DomainError('not_found', ImprovementMarksErrorCode.NOT_FOUND, 'Improvement mark not found.'),
  runContextMissing: () =>
    new DomainError(
      'invalid',
      ImprovementMarksErrorCode.RUN_CONTEXT_MISSING,
      'No real run or tool call is attached to this call: nothing was saved.',
    ),
  runMismatch: () =>
    new DomainError(
      'forbidden',
      ImprovementMarksErrorCode.RUN_MISMATCH,
      'The run does not belong to this caller and thread: nothing was saved.',
    ),
  conflict: (id: string, runId: string, toolCallId: string) =>
    new DomainError(
      'conflict',
      ImprovementMarksErrorCode.CONFLICT,
      'This tool call already saved a mark with a different reason.',
      { details: { id, run_id: runId, tool_call_id: toolCallId } },
    ),
};
