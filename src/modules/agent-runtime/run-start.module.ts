import { Module } from '@nestjs/common';
import { ThreadsModule } from '../threads/index.js';
import { RunCreation } from './runs/run-creation.js';
import { RunStarter } from './runs/run-starter.js';
import { RunsCoreModule } from './runs-core.module.js';

/** Starting a run on a thread, for the HTTP routes and for processes without them (the scheduler). */
@Module({
  imports: [RunsCoreModule, ThreadsModule],
  providers: [RunCreation, RunStarter],
  exports: [RunCreation, RunStarter],
})
export class RunStartModule {}
