import { describe, expect, it } from 'vitest';
import { buildAnswers, emptyDraft, type QuestionDraft } from '../src/pages/chat/question-answers';
import { question } from './questions.fixture';

const options = [
  { label: 'Red', value: 'red' },
  { label: 'Green', value: 'green' },
  { label: 'Blue', value: 'blue' },
];

const freeText = question('name');
const single = question('color', { options });
const singleOther = question('color2', { options, allow_other: true });
const multi = question('colors', { options, multi_select: true });
const multiOther = question('colors2', { options, multi_select: true, allow_other: true });

function draft(fields: Partial<QuestionDraft>): QuestionDraft {
  return { ...emptyDraft(), ...fields };
}

describe('emptyDraft', () => {
  it('starts with nothing selected and no other text', () => {
    expect(emptyDraft()).toEqual({ selected: [], otherChosen: false, other: '' });
  });

  it('gives a new object each time', () => {
    const first = emptyDraft();
    first.selected.push('x');
    expect(emptyDraft().selected).toEqual([]);
  });
});

describe('buildAnswers: free text', () => {
  it('answers a question without options with its trimmed text', () => {
    expect(buildAnswers([freeText], { name: draft({ other: '  Ada Lovelace \n' }) })).toEqual({
      answers: { name: 'Ada Lovelace' },
    });
  });

  it('treats an empty options list as free text', () => {
    const q = question('q', { options: [] });
    expect(buildAnswers([q], { q: draft({ other: 'text' }) })).toEqual({ answers: { q: 'text' } });
  });

  it('lists a free-text question whose text is empty or only spaces as missing', () => {
    expect(buildAnswers([freeText], { name: draft({ other: '   ' }) })).toEqual({ missing: ['name'] });
    expect(buildAnswers([freeText], {})).toEqual({ missing: ['name'] });
  });
});

describe('buildAnswers: single select', () => {
  it('answers with the value of the option picked', () => {
    expect(buildAnswers([single], { color: draft({ selected: ['green'] }) })).toEqual({
      answers: { color: 'green' },
    });
  });

  it('lists a question with no option picked as missing', () => {
    expect(buildAnswers([single], { color: draft({}) })).toEqual({ missing: ['color'] });
  });

  it('answers with the trimmed other text when other is chosen and allowed', () => {
    expect(buildAnswers([singleOther], { color2: draft({ otherChosen: true, other: ' teal ' }) })).toEqual({
      answers: { color2: 'teal' },
    });
  });

  it('prefers the other text over a stale selected option when other is chosen', () => {
    expect(
      buildAnswers([singleOther], { color2: draft({ selected: ['red'], otherChosen: true, other: 'teal' }) }),
    ).toEqual({ answers: { color2: 'teal' } });
  });

  it('lists the question as missing when other is chosen but its text is empty', () => {
    expect(
      buildAnswers([singleOther], { color2: draft({ selected: ['red'], otherChosen: true, other: ' ' }) }),
    ).toEqual({ missing: ['color2'] });
  });

  it('ignores other text the user typed and then left, answering with the option picked', () => {
    expect(buildAnswers([singleOther], { color2: draft({ selected: ['blue'], other: 'teal' }) })).toEqual({
      answers: { color2: 'blue' },
    });
  });

  it('does not accept an other text for a question that does not allow it', () => {
    expect(buildAnswers([single], { color: draft({ otherChosen: true, other: 'teal' }) })).toEqual({
      missing: ['color'],
    });
  });
});

describe('buildAnswers: multi select', () => {
  it('answers with the list of values picked, in the order picked', () => {
    expect(buildAnswers([multi], { colors: draft({ selected: ['blue', 'red'] }) })).toEqual({
      answers: { colors: ['blue', 'red'] },
    });
  });

  it('answers with a one-value list when one option is picked', () => {
    expect(buildAnswers([multi], { colors: draft({ selected: ['green'] }) })).toEqual({
      answers: { colors: ['green'] },
    });
  });

  it('lists a question with nothing picked as missing', () => {
    expect(buildAnswers([multi], { colors: draft({}) })).toEqual({ missing: ['colors'] });
  });

  it('adds the trimmed other text after the values picked when other is chosen and allowed', () => {
    expect(
      buildAnswers([multiOther], {
        colors2: draft({ selected: ['red'], otherChosen: true, other: ' teal ' }),
      }),
    ).toEqual({ answers: { colors2: ['red', 'teal'] } });
  });

  it('answers with the other text alone when only other is chosen', () => {
    expect(buildAnswers([multiOther], { colors2: draft({ otherChosen: true, other: 'teal' }) })).toEqual({
      answers: { colors2: ['teal'] },
    });
  });

  it('leaves out an empty other text, and is missing when nothing else is picked', () => {
    expect(
      buildAnswers([multiOther], { colors2: draft({ selected: ['red'], otherChosen: true, other: '  ' }) }),
    ).toEqual({ answers: { colors2: ['red'] } });
    expect(buildAnswers([multiOther], { colors2: draft({ otherChosen: true, other: '' }) })).toEqual({
      missing: ['colors2'],
    });
  });

  it('leaves out other text when other is not chosen or not allowed', () => {
    expect(buildAnswers([multiOther], { colors2: draft({ selected: ['red'], other: 'teal' }) })).toEqual({
      answers: { colors2: ['red'] },
    });
    expect(
      buildAnswers([multi], { colors: draft({ selected: ['red'], otherChosen: true, other: 'teal' }) }),
    ).toEqual({ answers: { colors: ['red'] } });
  });
});

describe('buildAnswers: several questions', () => {
  const all = [freeText, single, multiOther];

  it('answers every question when all are answered', () => {
    expect(
      buildAnswers(all, {
        name: draft({ other: 'Ada' }),
        color: draft({ selected: ['red'] }),
        colors2: draft({ selected: ['green'], otherChosen: true, other: 'teal' }),
      }),
    ).toEqual({ answers: { name: 'Ada', color: 'red', colors2: ['green', 'teal'] } });
  });

  it('lists every unanswered question, in the order asked, and gives no answers then', () => {
    const built = buildAnswers(all, { color: draft({ selected: ['red'] }) });
    expect(built).toEqual({ missing: ['name', 'colors2'] });
    expect(built).not.toHaveProperty('answers');
  });

  it('answers nothing for no questions', () => {
    expect(buildAnswers([], {})).toEqual({ answers: {} });
  });
});
