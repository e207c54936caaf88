import { describe, expect, it } from 'vitest';
import { barWidths, periodStart } from '../src/pages/usage/usage-period';

describe('periodStart', () => {
  it('starts "the last 7 days" at midnight UTC six days before today', () => {
    expect(periodStart(7, new Date('2026-03-10T15:45:00.000Z'))).toBe('2026-03-04T00:00:00.000Z');
  });

  it('crosses month and year ends', () => {
    expect(periodStart(30, new Date('2026-01-05T00:00:01.000Z'))).toBe('2025-12-07T00:00:00.000Z');
  });
});

describe('barWidths', () => {
  it('gives each total its share of the largest, the largest a full bar', () => {
    expect(barWidths([50, 200, 0, 100])).toEqual([25, 100, 0, 50]);
  });

  it('draws no bar when nothing was spent', () => {
    expect(barWidths([0, 0])).toEqual([0, 0]);
    expect(barWidths([])).toEqual([]);
  });
});
