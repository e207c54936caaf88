import type { Question } from '../src/api/types';

/** A single-select question without options unless `fields` say otherwise. */
export function question(id: string, fields: Partial<Question> = {}): Question {
  return {
    question_id: id,
    question: `Question ${id}?`,
    multi_select: false,
    allow_other: false,
    tool_call_id: 'call-1',
    ...fields,
  };
}
