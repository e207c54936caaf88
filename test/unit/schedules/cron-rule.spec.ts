import { CronRule } from '../../../src/modules/schedules/cron/cron-rule';

const rule = (cron: string, timezone: string): CronRule => {
  const parsed = CronRule.parse(cron, timezone);
  if (!(parsed instanceof CronRule)) throw new Error(JSON.stringify(parsed));
  return parsed;
};

/** The next `count` firings after `from`, as ISO instants. */
const firings = (r: CronRule, from: string, count: number): string[] => {
  const out: string[] = [];
  let at = new Date(from);
  for (let i = 0; i < count; i += 1) {
    at = r.nextAfter(at)!;
    out.push(at.toISOString());
  }
  return out;
};

describe('CronRule', () => {
  describe('daylight saving, Europe/Berlin (CET +01:00, CEST +02:00)', () => {
    it('spring forward (2026-03-29, 02:00 → 03:00): 02:30 does not exist and fires at 03:30 CEST', () => {
      expect(firings(rule('30 2 * * *', 'Europe/Berlin'), '2026-03-27T12:00:00Z', 4)).toEqual([
        '2026-03-28T01:30:00.000Z', // 02:30 CET
        '2026-03-29T01:30:00.000Z', // 03:30 CEST (shifted by the gap)
        '2026-03-30T00:30:00.000Z', // 02:30 CEST
        '2026-03-31T00:30:00.000Z',
      ]);
    });

    it('spring forward: half-hourly firings go straight from 01:30 CET to 03:00 CEST', () => {
      expect(firings(rule('*/30 * * * *', 'Europe/Berlin'), '2026-03-29T00:10:00Z', 3)).toEqual([
        '2026-03-29T00:30:00.000Z', // 01:30 CET
        '2026-03-29T01:00:00.000Z', // 03:00 CEST
        '2026-03-29T01:30:00.000Z', // 03:30 CEST
      ]);
    });

    it('fall back (2026-10-25, 03:00 → 02:00): 02:30 happens twice and fires once', () => {
      expect(firings(rule('30 2 * * *', 'Europe/Berlin'), '2026-10-24T12:00:00Z', 2)).toEqual([
        '2026-10-25T01:30:00.000Z', // 02:30 CET, the second 02:30
        '2026-10-26T01:30:00.000Z',
      ]);
    });

    it('fall back: half-hourly firings cover the repeated hour once', () => {
      const fired = firings(rule('*/30 * * * *', 'Europe/Berlin'), '2026-10-24T23:50:00Z', 4);
      expect(fired).toEqual([
        '2026-10-25T01:00:00.000Z', // 02:00 CET
        '2026-10-25T01:30:00.000Z', // 02:30 CET
        '2026-10-25T02:00:00.000Z', // 03:00 CET
        '2026-10-25T02:30:00.000Z',
      ]);
      expect(new Set(fired).size).toBe(fired.length);
    });
  });

  describe('daylight saving, America/New_York (EST -05:00, EDT -04:00)', () => {
    it('spring forward (2026-03-08, 02:00 → 03:00): 02:30 fires at 03:30 EDT', () => {
      expect(firings(rule('30 2 * * *', 'America/New_York'), '2026-03-07T12:00:00Z', 3)).toEqual([
        '2026-03-08T07:30:00.000Z', // 03:30 EDT
        '2026-03-09T06:30:00.000Z', // 02:30 EDT
        '2026-03-10T06:30:00.000Z',
      ]);
    });

    it('fall back (2026-11-01, 02:00 → 01:00): 01:30 happens twice and fires once', () => {
      expect(firings(rule('30 1 * * *', 'America/New_York'), '2026-10-31T12:00:00Z', 2)).toEqual([
        '2026-11-01T05:30:00.000Z', // 01:30 EDT, the first 01:30
        '2026-11-02T06:30:00.000Z', // 01:30 EST
      ]);
    });

    it('fall back: half-hourly firings cover the repeated hour once', () => {
      const fired = firings(rule('*/30 * * * *', 'America/New_York'), '2026-11-01T04:50:00Z', 4);
      expect(fired).toEqual([
        '2026-11-01T05:00:00.000Z', // 01:00 EDT
        '2026-11-01T05:30:00.000Z', // 01:30 EDT
        '2026-11-01T07:00:00.000Z', // 02:00 EST
        '2026-11-01T07:30:00.000Z',
      ]);
    });
  });

  it('coalesces: the latest period due since the first missed one', () => {
    const r = rule('*/5 * * * *', 'UTC');
    expect(r.latestDue(new Date('2026-01-01T10:00:00Z'), new Date('2026-01-01T12:03:00Z'))).toEqual(
      new Date('2026-01-01T12:00:00Z'),
    );
    expect(r.latestDue(new Date('2026-01-01T10:00:00Z'), new Date('2026-01-01T10:00:00Z'))).toEqual(
      new Date('2026-01-01T10:00:00Z'),
    );
    expect(r.latestDue(new Date('2026-01-01T10:05:00Z'), new Date('2026-01-01T10:04:59Z'))).toBeNull();
  });

  it('measures the shortest gap between firings, including across midnight', () => {
    expect(rule('0 * * * *', 'UTC').shortestGapSeconds(new Date('2026-01-01T00:00:00Z'))).toBe(3600);
    expect(rule('59,0 0,23 * * *', 'UTC').shortestGapSeconds(new Date('2026-01-01T00:30:00Z'))).toBe(60);
    expect(rule('0 8 * * 1-5', 'Europe/Berlin').shortestGapSeconds(new Date('2026-01-01T00:00:00Z'))).toBe(
      24 * 3600,
    );
  });

  it.each([
    ['* * * *', 'UTC', 'cron'],
    ['0 * * * * *', 'UTC', 'cron'],
    ['@daily', 'UTC', 'cron'],
    ['61 * * * *', 'UTC', 'cron'],
    ['0 0 * * *', 'Mars/Olympus', 'timezone'],
    ['0 0 * * *', '+01:00', 'timezone'],
    ['0 0 * * *', '', 'timezone'],
  ])('refuses cron %j in %j, naming the %s', (cron, timezone, field) => {
    const parsed = CronRule.parse(cron, timezone);
    expect(parsed).toEqual([expect.objectContaining({ field, message: expect.any(String) })]);
  });
});

describe('CronRule.latestDue over long outages', () => {
  const parsed = (cron: string, timezone: string) => CronRule.parse(cron, timezone) as CronRule;

  it('finds the latest period after a year without workers, in a few steps', () => {
    const r = parsed('* * * * *', 'UTC');
    const steps = jest.spyOn(r, 'nextAfter');
    expect(r.latestDue(new Date('2025-01-01T00:00:00Z'), new Date('2026-01-01T12:34:56Z'))).toEqual(
      new Date('2026-01-01T12:34:00Z'),
    );
    // The last hour's periods, not the 525,000 missed since `from`.
    expect(steps.mock.calls.length).toBeLessThanOrEqual(62);
  });

  it('looks further back when the last hour, day and month hold no period', () => {
    const yearly = parsed('0 9 1 3 *', 'Europe/Berlin');
    expect(yearly.latestDue(new Date('2024-03-01T08:00:00Z'), new Date('2025-12-01T00:00:00Z'))).toEqual(
      new Date('2025-03-01T08:00:00Z'),
    );
    // `from` itself is the only period due.
    expect(yearly.latestDue(new Date('2025-03-01T08:00:00Z'), new Date('2025-06-01T00:00:00Z'))).toEqual(
      new Date('2025-03-01T08:00:00Z'),
    );
  });
});
