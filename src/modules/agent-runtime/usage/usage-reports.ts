import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { preparedQueryIn } from '../../../database/prepared-query.js';
import type { TokenUsage } from '../runs/run.entity.js';

/** Tokens and calls summed over some model calls. */
export interface UsageSums {
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  calls: number;
}

export const USAGE_GROUPS = ['user', 'agent', 'model', 'day'] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

/** A `GET /api/usage` question: whose calls, in which window, grouped how, after which key. */
export interface UsageQuery {
  groupBy: UsageGroup;
  /** Only this user's calls (a normal user's own id, always). */
  userId: string | null;
  since: Date | null;
  until: Date | null;
  limit: number;
  /** The key of the previous page's last group. */
  afterKey: string | null;
}

interface SumRow {
  input_tokens: string;
  output_tokens: string;
  cached_tokens: string;
  calls: string;
}

const sumsOf = (row: SumRow | undefined): UsageSums => ({
  input_tokens: Number(row?.input_tokens ?? 0),
  output_tokens: Number(row?.output_tokens ?? 0),
  cached_tokens: Number(row?.cached_tokens ?? 0),
  calls: Number(row?.calls ?? 0),
});

const SUMS = `sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens,
  sum(cached_tokens) AS cached_tokens`;

/**
 * What a grouping groups on, per table (`model_usage` call rows, `model_usage_daily` days), and the key
 * it is named by. Sums are grouped on the column itself and only the groups are turned into text: a
 * uuid or a date hashes faster than its text, and `to_char` then runs once per group, not per row.
 */
const GROUP: Record<UsageGroup, { raw: string; daily: string; key: string }> = {
  user: { raw: 'user_id', daily: 'user_id', key: 'g::text' },
  agent: { raw: 'agent_id', daily: 'agent_id', key: `coalesce(g::text, '')` },
  model: { raw: 'model', daily: 'model', key: 'g' },
  day: { raw: `(created_at AT TIME ZONE 'UTC')::date`, daily: 'day', key: `to_char(g, 'YYYY-MM-DD')` },
};

/**
 * `GET /api/usage`, one statement per grouping and scope: whole UTC days from the daily roll-up, the
 * parts of the window's first and last days from the call rows (an index range each), summed per group,
 * keys in ascending byte order after `$7`. $1..$2 the days [from, to) read from the roll-up, $3..$4 and
 * $5..$6 the two call-row ranges [from, to), $8 the page size plus one, $9 the user (`ofUser` only:
 * without it the statement has no user condition, so its plan stays an index range when generic).
 */
const reportSql = (group: UsageGroup, ofUser: boolean) => {
  const user = ofUser ? ' AND user_id = $9' : '';
  const { raw, daily, key } = GROUP[group];
  return `SELECT key, input_tokens, output_tokens, cached_tokens, calls FROM (
    SELECT ${key} AS key, input_tokens, output_tokens, cached_tokens, calls FROM (
      SELECT g, ${SUMS}, sum(calls) AS calls FROM (
        SELECT ${daily} AS g, input_tokens, output_tokens, cached_tokens, calls FROM model_usage_daily
         WHERE day >= $1::date AND day < $2::date${user}
        UNION ALL
        SELECT ${raw}, input_tokens, output_tokens, cached_tokens, 1 FROM model_usage
         WHERE created_at >= $3 AND created_at < $4${user}
        UNION ALL
        SELECT ${raw}, input_tokens, output_tokens, cached_tokens, 1 FROM model_usage
         WHERE created_at >= $5 AND created_at < $6${user}
      ) parts GROUP BY g
    ) sums
  ) keyed
  WHERE $7::text IS NULL OR key COLLATE "C" > $7::text
  ORDER BY key COLLATE "C" LIMIT $8`;
};

const THREAD_BY_MODEL = `WITH RECURSIVE children AS (
    SELECT c.id FROM runs c JOIN runs p ON c.parent_run_id = p.id WHERE p.thread_id = $1 AND $2::boolean
    UNION ALL
    SELECT c.id FROM runs c JOIN children ON c.parent_run_id = children.id
  )
  SELECT model, ${SUMS}, count(*) AS calls FROM (
    SELECT model, input_tokens, output_tokens, cached_tokens FROM model_usage WHERE thread_id = $1
    UNION ALL
    SELECT model, input_tokens, output_tokens, cached_tokens FROM model_usage
     WHERE run_id IN (SELECT id FROM children)
  ) calls
  GROUP BY model ORDER BY model COLLATE "C"`;

const RUN_TOTALS = `SELECT run_id, ${SUMS} FROM model_usage
  WHERE run_id = ANY($1::uuid[]) AND purpose = 'agent' GROUP BY run_id`;

const DAY_MS = 86_400_000;
const startOfDay = (time: number) => Math.floor(time / DAY_MS) * DAY_MS;
const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);
/** Far enough out for PostgreSQL's `date` and `timestamptz`, and for JavaScript dates. */
const EARLIEST = Date.UTC(1970, 0, 1);
const LATEST = Date.UTC(9999, 0, 1);

/** Reads token usage: a run's total, a thread's by model, the usage report. */
@Injectable()
export class UsageReports {
  constructor(private readonly dataSource: DataSource) {}

  /** Each run's agent calls summed (`token_usage`); a run without calls counts zero. */
  async runTotals(runIds: readonly string[]): Promise<Map<string, TokenUsage>> {
    const rows =
      runIds.length === 0
        ? []
        : await preparedQueryIn<SumRow & { run_id: string }>(this.dataSource.manager, RUN_TOTALS, [runIds]);
    const byRun = new Map(rows.map((row) => [row.run_id, row]));
    return new Map(
      runIds.map((id) => {
        const sums = sumsOf(byRun.get(id));
        const usage: TokenUsage = {
          input_tokens: sums.input_tokens,
          output_tokens: sums.output_tokens,
          total_tokens: sums.input_tokens + sums.output_tokens,
          cached_tokens: sums.cached_tokens,
        };
        return [id, usage];
      }),
    );
  }

  /** The calls of the thread's runs (and of their child runs, at any depth, with `includeChildren`) by model. */
  async threadByModel(
    threadId: string,
    includeChildren: boolean,
  ): Promise<{ total: UsageSums; byModel: (UsageSums & { model: string })[] }> {
    const rows = await preparedQueryIn<SumRow & { model: string }>(this.dataSource.manager, THREAD_BY_MODEL, [
      threadId,
      includeChildren,
    ]);
    const byModel = rows.map((row) => ({ model: row.model, ...sumsOf(row) }));
    const total = byModel.reduce(
      (sum, row) => ({
        input_tokens: sum.input_tokens + row.input_tokens,
        output_tokens: sum.output_tokens + row.output_tokens,
        cached_tokens: sum.cached_tokens + row.cached_tokens,
        calls: sum.calls + row.calls,
      }),
      sumsOf(undefined),
    );
    return { total, byModel };
  }

  /** One page (`limit + 1` groups, to tell whether more follow) of the usage report. */
  async report(query: UsageQuery): Promise<(UsageSums & { key: string })[]> {
    const since = query.since?.getTime() ?? EARLIEST;
    const until = query.until?.getTime() ?? LATEST;
    // Whole days inside the window come from the roll-up; the rest of the window from the call rows.
    const firstWholeDay = startOfDay(since) === since ? since : startOfDay(since) + DAY_MS;
    const endOfWholeDays = startOfDay(until);
    const days = firstWholeDay < endOfWholeDays;
    const [dayFrom, dayTo] = days ? [firstWholeDay, endOfWholeDays] : [EARLIEST, EARLIEST];
    const head = days ? [since, firstWholeDay] : [since, until];
    const tail = days ? [endOfWholeDays, until] : [until, until];
    const rows = await preparedQueryIn<SumRow & { key: string }>(
      this.dataSource.manager,
      reportSql(query.groupBy, query.userId !== null),
      [
        isoDay(dayFrom),
        isoDay(dayTo),
        new Date(head[0]),
        new Date(head[1]),
        new Date(tail[0]),
        new Date(tail[1]),
        query.afterKey,
        query.limit + 1,
        ...(query.userId === null ? [] : [query.userId]),
      ],
    );
    return rows.map((row) => ({ key: row.key, ...sumsOf(row) }));
  }
}
