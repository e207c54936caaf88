import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import { runEntrypoint } from '../bootstrap/run-entrypoint.js';
import { RunTransitions } from '../modules/agent-runtime/index.js';
import { WaitingPointsCliModule } from './waiting-points-cli.module.js';

interface OpenPoint {
  waiting_point_id: string;
  run_id: string;
  thread_id: string;
  user_id: string;
  questions: number;
  created_at: Date;
}

const USAGE = 'usage: npm run waiting-points -- list | cancel';

/**
 * `npm run waiting-points -- list` prints every open waiting point (one JSON line each);
 * `-- cancel` cancels their runs (and with them the waiting points), as before an upgrade that narrows
 * the `ask_user_question` argument schema (docs/upgrades.md).
 */
async function main(config: AppConfig): Promise<void> {
  const command = process.argv[2];
  if (command !== 'list' && command !== 'cancel') {
    process.stderr.write(`${USAGE}\n`);
    process.exit(64);
  }
  const app = await NestFactory.createApplicationContext(
    WaitingPointsCliModule.forRoot(
      new AppConfig({ ...config, database: { ...config.database, migrateOnStart: false } }),
    ),
    { logger: ['error', 'warn'] },
  );
  try {
    const open = await app.get(DataSource).query<OpenPoint[]>(
      `SELECT w.id AS waiting_point_id, w.run_id, w.thread_id, r.user_id,
              jsonb_array_length(w.questions)::int AS questions, w.created_at
         FROM waiting_points w JOIN runs r ON r.id = w.run_id
        WHERE w.status = 'open' ORDER BY w.created_at`,
    );
    if (command === 'list') {
      for (const point of open) process.stdout.write(`${JSON.stringify(point)}\n`);
      process.stderr.write(`${open.length} open waiting point(s)\n`);
      return;
    }
    const transitions = app.get(RunTransitions);
    let cancelled = 0;
    for (const point of open) if ((await transitions.cancel(point.run_id)) === 'cancelled') cancelled++;
    process.stderr.write(`cancelled ${cancelled} waiting run(s) of ${open.length} open waiting point(s)\n`);
  } finally {
    await app.close();
  }
}

if (require.main === module) runEntrypoint(main);
