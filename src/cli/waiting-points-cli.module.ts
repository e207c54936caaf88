import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { coreImports } from '../core-imports.js';
import { RunsCoreModule } from '../modules/agent-runtime/index.js';

/** Just enough of the application to list and cancel waiting points (no HTTP, no queue consumers). */
@Module({})
export class WaitingPointsCliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: WaitingPointsCliModule, imports: [...coreImports(config), RunsCoreModule] };
  }
}
