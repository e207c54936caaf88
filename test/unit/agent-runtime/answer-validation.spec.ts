import { DomainError } from '../../../src/common/errors/domain-error';
import { validateAnswers } from '../../../src/modules/agent-runtime/questions/answer-validation';
import type { NormalizedQuestion } from '../../../src/modules/agent-runtime/questions/question-schema';

const options = [
  { label: 'A', value: 'a' },
  { label: 'B', value: 'b' },
];
const QUESTIONS: NormalizedQuestion[] = [
  { question_id: 'text', question: 'Why?', multi_select: false, allow_other: true },
  { question_id: 'single', question: 'One', options, multi_select: false, allow_other: false },
  { question_id: 'single_other', question: 'One or other', options, multi_select: false, allow_other: true },
  { question_id: 'multi', question: 'Many', options, multi_select: true, allow_other: false },
  { question_id: 'multi_other', question: 'Many or other', options, multi_select: true, allow_other: true },
];
const VALID = {
  text: ' because ',
  single: 'a',
  single_other: 'something else',
  multi: ['b', 'a', 'b'],
  multi_other: ['a', 'z'],
};

const fieldsOf = (run: () => unknown): string[] => {
  try {
    run();
  } catch (error) {
    const details = (error as DomainError).details as { fields: { field: string }[] };
    return details.fields.map((f) => f.field);
  }
  throw new Error('expected a validation error');
};

describe('validateAnswers', () => {
  it('trims text, keeps option values, accepts free text only where allow_other, de-duplicates multi-select', () => {
    expect(validateAnswers(QUESTIONS, VALID, 100)).toEqual({
      text: 'because',
      single: 'a',
      single_other: 'something else',
      multi: ['b', 'a'],
      multi_other: ['a', 'z'],
    });
  });

  it.each([
    ['a missing answer', { ...VALID, text: undefined }, ['answers.text']],
    ['an unknown id', { ...VALID, extra: 'x' }, ['answers.extra']],
    ['free text where allow_other is false', { ...VALID, single: 'zzz' }, ['answers.single']],
    ['free text in a closed multi-select', { ...VALID, multi: ['a', 'zzz'] }, ['answers.multi']],
    ['an empty multi-select', { ...VALID, multi: [] }, ['answers.multi']],
    ['a string for a multi-select', { ...VALID, multi: 'a' }, ['answers.multi']],
    ['an array for a text question', { ...VALID, text: ['x'] }, ['answers.text']],
    ['blank text', { ...VALID, text: '   ' }, ['answers.text']],
    ['text over the cap', { ...VALID, text: 'x'.repeat(101) }, ['answers.text']],
    ['a number', { ...VALID, single_other: 7 }, ['answers.single_other']],
  ])('refuses %s', (_label, answers, fields) => {
    expect(fieldsOf(() => validateAnswers(QUESTIONS, answers, 100))).toEqual(fields);
  });

  it('refuses something that is not an object', () => {
    expect(fieldsOf(() => validateAnswers(QUESTIONS, ['a'], 100))).toEqual(['answers']);
  });
});
