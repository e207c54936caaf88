import type { Answers, Question } from '../../api/types';

/** What the user picked for one question: chosen option values, and the "other" text when allowed. */
export interface QuestionDraft {
  selected: string[];
  otherChosen: boolean;
  other: string;
}

export function emptyDraft(): QuestionDraft {
  return { selected: [], otherChosen: false, other: '' };
}

/**
 * The `answers` body for POST /api/runs/:id/answers, or the ids of the questions still unanswered.
 * A question without options takes free text; single select one value (or the "other" text); multi
 * select a non-empty list.
 */
export function buildAnswers(
  questions: readonly Question[],
  drafts: Record<string, QuestionDraft>,
): { answers: Answers } | { missing: string[] } {
  const answers: Answers = {};
  const missing: string[] = [];
  for (const question of questions) {
    const draft = drafts[question.question_id] ?? emptyDraft();
    const other = draft.other.trim();
    const freeText = !question.options?.length;
    if (freeText) {
      if (other) answers[question.question_id] = other;
      else missing.push(question.question_id);
      continue;
    }
    const useOther = question.allow_other && draft.otherChosen && other !== '';
    if (question.multi_select) {
      const values = [...draft.selected, ...(useOther ? [other] : [])];
      if (values.length) answers[question.question_id] = values;
      else missing.push(question.question_id);
    } else {
      const value = draft.otherChosen ? (useOther ? other : '') : (draft.selected[0] ?? '');
      if (value) answers[question.question_id] = value;
      else missing.push(question.question_id);
    }
  }
  return missing.length ? { missing } : { answers };
}
