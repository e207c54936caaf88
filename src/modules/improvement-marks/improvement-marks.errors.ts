import { DomainError } from '../../common/errors/domain-error.js';

export const ImprovementMarksErrors = {
  notFound: () => new DomainError('not_found', 'improvement_marks.not_found', 'Improvement mark not found.'),
  runContextMissing: () =>
    new DomainError(
      'invalid',
      'improvement_marks.run_context_missing',
      'No real run or tool call is attached to this call: nothing was saved.',
    ),
  runMismatch: () =>
    new DomainError(
      'forbidden',
      'improvement_marks.run_mismatch',
      'The run does not belong to this caller and thread: nothing was saved.',
    ),
  conflict: (id: string, runId: string, toolCallId: string) =>
    new DomainError(
      'conflict',
      'improvement_marks.conflict',
      'This tool call already saved a mark with a different reason.',
      { details: { id, run_id: runId, tool_call_id: toolCallId } },
    ),
};
