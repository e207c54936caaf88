import { mergeSelection } from '../../../src/modules/agents/config/selection-merge';

describe('mergeSelection', () => {
  const usable = new Set(['a', 'b', 'c']);

  it('keeps saved references the editor cannot use, in order, then appends the chosen ones', () => {
    expect(mergeSelection(['x', 'a', 'y'], ['c', 'b'], usable)).toEqual({
      value: ['x', 'y', 'c', 'b'],
      rejected: [],
    });
  });

  it('drops saved usable references the editor did not resubmit', () => {
    expect(mergeSelection(['a', 'x'], ['b'], usable).value).toEqual(['x', 'b']);
  });

  it('accepts a resubmitted hidden reference without duplicating it', () => {
    expect(mergeSelection(['x', 'a'], ['x', 'a'], usable)).toEqual({ value: ['x', 'a'], rejected: [] });
  });

  it('rejects hidden references that are not saved', () => {
    expect(mergeSelection(['x'], ['a', 'z', 'w'], usable).rejected).toEqual(['z', 'w']);
  });

  it('clears everything with [] and replaces everything with "all"', () => {
    expect(mergeSelection(['x', 'a'], [], usable)).toEqual({ value: [], rejected: [] });
    expect(mergeSelection(['x', 'a'], 'all', usable)).toEqual({ value: 'all', rejected: [] });
  });

  it('keeps nothing when the saved selection was "all"', () => {
    expect(mergeSelection('all', ['a'], usable)).toEqual({ value: ['a'], rejected: [] });
  });
});
