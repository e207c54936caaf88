import { runStartupRolesBench, STARTUP_ROLES } from './startup-roles.bench.js';
import { runBenchMain } from './support/bench-main.js';
import { round } from './support/stats.js';

/** `npm run bench:startup`: spawn → ready per process role (api, worker, all), p50 of several starts. */
runBenchMain(
  async (context) => {
    const figures = await runStartupRolesBench(context);
    const lines = STARTUP_ROLES.map((role) => {
      const { startupMs: s, cpuMs: c, runs } = figures[role];
      return (
        `APP_ROLE=${role.padEnd(6)} p50 ${round(s.median, 0)} ms (min ${round(s.min, 0)}, max ${round(s.max, 0)}, ` +
        `${runs} starts), CPU p50 ${round(c.median, 0)} ms`
      );
    });
    const json = JSON.stringify({ startup: figures }, (_k, v: unknown) =>
      typeof v === 'number' ? round(v, 1) : v,
    );
    return `Startup, spawn → GET /api/health 200 (worker: its ready log line)\n${lines.join('\n')}\n${json}`;
  },
  { usesRedis: true },
);
