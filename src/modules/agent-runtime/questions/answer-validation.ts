import { CommonErrors, type FieldError } from '../../../common/errors/index.js';
import type { NormalizedQuestion } from './question-schema.js';
import type { Answers } from './waiting-point.entity.js';

/**
 * Checks answers against the questions (`POST /api/runs/:id/answers`): every question answered,
 * no unknown id; a text question takes a string; a single-select question one option value (or free
 * text if `allow_other`); a multi-select question a non-empty array of option values (plus free text
 * if `allow_other`). Text is trimmed and capped. Returns the normalized answers or throws a 400.
 */
export function validateAnswers(questions: NormalizedQuestion[], input: unknown, maxChars: number): Answers {
  const problems: FieldError[] = [];
  const fail = (field: string, message: string) => problems.push({ field, messages: [message] });
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw CommonErrors.validationFailed([
      { field: 'answers', messages: ['must be an object keyed by question_id'] },
    ]);
  }
  const given = input as Record<string, unknown>;
  const known = new Set(questions.map((q) => q.question_id));
  for (const id of Object.keys(given)) if (!known.has(id)) fail(`answers.${id}`, 'no question has this id');

  const answers: Answers = {};
  for (const question of questions) {
    const field = `answers.${question.question_id}`;
    const raw = given[question.question_id];
    if (raw === undefined) {
      fail(field, 'every question must be answered');
      continue;
    }
    const values = question.options?.map((option) => option.value) ?? null;
    const text = (value: unknown): string | null => {
      if (typeof value !== 'string') return null;
      const trimmed = value.trim();
      return trimmed === '' || trimmed.length > maxChars ? null : trimmed;
    };
    const acceptable = (value: string) => values === null || values.includes(value) || question.allow_other;
    if (question.multi_select) {
      if (!Array.isArray(raw) || raw.length === 0) {
        fail(field, 'a multi-select question takes a non-empty array of values');
        continue;
      }
      const chosen = raw.map(text);
      if (chosen.some((value) => value === null)) {
        fail(field, `each value must be a non-empty string of at most ${maxChars} characters`);
        continue;
      }
      const unique = [...new Set(chosen as string[])];
      const refused = unique.filter((value) => !acceptable(value));
      if (refused.length > 0) fail(field, `not an option: ${refused.join(', ')}`);
      else answers[question.question_id] = unique;
      continue;
    }
    const value = text(raw);
    if (value === null) {
      fail(field, `takes a non-empty string of at most ${maxChars} characters`);
    } else if (!acceptable(value)) {
      fail(field, `must be one of: ${values!.join(', ')}`);
    } else {
      answers[question.question_id] = value;
    }
  }
  if (problems.length > 0) throw CommonErrors.validationFailed(problems);
  return answers;
}
