import {
  MARK_FOR_IMPROVEMENT_DESCRIPTION,
  markForImprovementSchema,
} from '../../../src/modules/improvement-marks/tool/mark-for-improvement.tool';

describe('mark_for_improvement arguments', () => {
  const parse = (args: unknown) => markForImprovementSchema.safeParse(args);

  it('trims the reason and accepts 1 to 4000 characters', () => {
    expect(parse({ reason: '  grep timed out on large logs  ' })).toEqual({
      success: true,
      data: { reason: 'grep timed out on large logs' },
    });
    expect(parse({ reason: 'x' }).success).toBe(true);
    const longest = `  ${'y'.repeat(4000)}\n`;
    expect(parse({ reason: longest })).toEqual({ success: true, data: { reason: 'y'.repeat(4000) } });
  });

  it('refuses an empty, blank or too long reason', () => {
    expect(parse({ reason: '' }).success).toBe(false);
    expect(parse({ reason: ' \n\t ' }).success).toBe(false);
    expect(parse({ reason: 'z'.repeat(4001) }).success).toBe(false);
    expect(parse({}).success).toBe(false);
    expect(parse({ reason: 42 }).success).toBe(false);
  });

  it('takes no run, user or tool call id from the model (strict object)', () => {
    expect(parse({ reason: 'ok', run_id: '00000000-0000-4000-8000-000000000000' }).success).toBe(false);
    expect(parse({ reason: 'ok', tool_call_id: 'call_1' }).success).toBe(false);
    expect(parse({ reason: 'ok', user_id: 'someone' }).success).toBe(false);
  });
});

describe('mark_for_improvement description', () => {
  const text = MARK_FOR_IMPROVEMENT_DESCRIPTION.toLowerCase();

  it.each([
    ['user corrections', 'the user corrects you'],
    ['repeated dissatisfaction', 'repeatedly unsatisfied'],
    ['tool failures', 'a tool fails'],
    ['missing capabilities', 'capability needed to finish the task is missing'],
    ['grounded reusable methods', 'reusable method or script that is grounded'],
    ['acting without being asked', 'without waiting for the user to ask'],
    ['no marks for ordinary success', 'finishing a task normally needs no mark'],
    ['no duplicates', 'do not record the same problem or lesson twice'],
    ['recording again only with news', 'only with new facts or for a different problem'],
    ['no credentials', 'never include credentials'],
    ['no unrelated raw user content', 'raw user content unrelated to the problem'],
    ['facts vs guesses', 'separate facts from guesses'],
    ['continuing the task', 'continue the original task'],
    ['no retry loop on failure', 'do not call this tool again in a loop'],
    ['no false claim of saving', 'do not claim that the mark was saved'],
    ['a lead, not a change', 'does not verify the lesson, change any skill, or read files'],
  ])('tells the agent about %s', (_, phrase) => {
    expect(text).toContain(phrase);
  });
});
