import { describe, expect, it } from 'vitest';
import {
  conflicted,
  edited,
  isDirty,
  openedDraft,
  saved,
  saveRequest,
  tookTheirs,
} from '../src/pages/skills/file-draft';

const file = { path: 'SKILL.md', content: 'one', revision: 'r1' };

describe('a file draft', () => {
  it('is clean when opened, dirty once edited, clean again when edited back', () => {
    const draft = openedDraft(file);
    expect(isDirty(draft)).toBe(false);
    expect(isDirty(edited(draft, 'two'))).toBe(true);
    expect(isDirty(edited(edited(draft, 'two'), 'one'))).toBe(false);
    expect(isDirty(null)).toBe(false);
  });

  it('saves over the revision it was read at, and takes the answer as its new base', () => {
    const draft = edited(openedDraft(file), 'two');
    expect(saveRequest(draft)).toEqual({ path: 'SKILL.md', content: 'two', revision: 'r1' });
    const after = saved(draft, { path: 'SKILL.md', content: 'two', revision: 'r2' }, 'two');
    expect(after).toEqual({
      path: 'SKILL.md',
      base: { content: 'two', revision: 'r2' },
      text: 'two',
      conflict: null,
    });
    expect(isDirty(after)).toBe(false);
  });

  it('keeps what was typed while the save was on its way', () => {
    const sent = edited(openedDraft(file), 'two');
    const typedOn = edited(sent, 'two and more');
    const after = saved(typedOn, { path: 'SKILL.md', content: 'two', revision: 'r2' }, 'two');
    expect(after.text).toBe('two and more');
    expect(after.base.revision).toBe('r2');
    expect(isDirty(after)).toBe(true);
  });

  it('on a conflict keeps the user text and holds the newer version; saving again goes over it', () => {
    const mine = edited(openedDraft(file), 'mine');
    const clash = conflicted(mine, { path: 'SKILL.md', content: 'theirs', revision: 'r9' });
    expect(clash.text).toBe('mine');
    expect(clash.conflict).toEqual({ content: 'theirs', revision: 'r9' });
    expect(isDirty(clash)).toBe(true);
    expect(saveRequest(clash)).toEqual({ path: 'SKILL.md', content: 'mine', revision: 'r9' });
    const after = saved(clash, { path: 'SKILL.md', content: 'mine', revision: 'r10' }, 'mine');
    expect(after.conflict).toBeNull();
    expect(isDirty(after)).toBe(false);
  });

  it('a conflict is unsaved even when the user text equals the base', () => {
    const clash = conflicted(openedDraft(file), { path: 'SKILL.md', content: 'theirs', revision: 'r9' });
    expect(isDirty(clash)).toBe(true);
  });

  it('taking theirs drops the user text and makes the newer version the base', () => {
    const clash = conflicted(edited(openedDraft(file), 'mine'), {
      path: 'SKILL.md',
      content: 'theirs',
      revision: 'r9',
    });
    const after = tookTheirs(clash);
    expect(after).toEqual({
      path: 'SKILL.md',
      base: { content: 'theirs', revision: 'r9' },
      text: 'theirs',
      conflict: null,
    });
    expect(isDirty(after)).toBe(false);
    expect(tookTheirs(after)).toBe(after);
  });
});
