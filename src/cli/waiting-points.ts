import { NestFactory } from '@nestjs/core';
import { AppConfig } from '../config/app-config.js';
import { runEntrypoint } from '../bootstrap/run-entrypoint.js';
import { RunTransitions, WaitingPoints } from '../modules/agent-runtime/index.js';
import { WaitingPointsCliModule } from './waiting-points-cli.module.js';

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
    const open = await app.get(WaitingPoints).listOpen();
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
