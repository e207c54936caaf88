import { describe, expect, it } from 'vitest';
import { leaveConfirm } from '../src/pages/skills/leave-confirm';

describe('leaveConfirm', () => {
  it('opens the question and resolves with the answer given', async () => {
    const leave = leaveConfirm();
    expect(leave.asking.value).toBe(false);
    const answer = leave.ask();
    expect(leave.asking.value).toBe(true);
    leave.answer(false);
    expect(leave.asking.value).toBe(false);
    await expect(answer).resolves.toBe(false);
  });

  it('gives two questions asked at once the one answer, then asks afresh', async () => {
    const leave = leaveConfirm();
    const first = leave.ask();
    const second = leave.ask();
    leave.answer(true);
    await expect(Promise.all([first, second])).resolves.toEqual([true, true]);
    const third = leave.ask();
    expect(leave.asking.value).toBe(true);
    leave.answer(false);
    await expect(third).resolves.toBe(false);
  });

  it('ignores an answer when nothing was asked', () => {
    const leave = leaveConfirm();
    expect(() => leave.answer(true)).not.toThrow();
    expect(leave.asking.value).toBe(false);
  });
});
