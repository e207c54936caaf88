import { firstFreeSlug, isValidAgentSlug, slugFromName } from '../../../src/modules/agents/config/agent-slug';

describe('agent slugs', () => {
  it('derives a slug from a name', () => {
    expect(slugFromName('  Report Writer! ')).toBe('report-writer');
    expect(slugFromName('Café  Crème__2')).toBe('cafe-creme-2');
    expect(slugFromName('写作助手')).toBe('agent');
    expect(slugFromName('X')).toBe('agent-x');
    const long = slugFromName('word '.repeat(40));
    expect(isValidAgentSlug(`${long}-99999`)).toBe(true);
  });

  it('validates the pattern and length', () => {
    for (const ok of ['ab', 'a-b', 'a1-b2-c3', 'x'.repeat(64)]) expect(isValidAgentSlug(ok)).toBe(true);
    for (const bad of ['a', 'A-b', 'a--b', '-ab', 'ab-', 'a_b', 'x'.repeat(65)])
      expect(isValidAgentSlug(bad)).toBe(false);
  });

  it('picks the first free suffix', () => {
    expect(firstFreeSlug('x', new Set())).toBe('x');
    expect(firstFreeSlug('x', new Set(['x', 'x-2', 'x-4']))).toBe('x-3');
  });
});
