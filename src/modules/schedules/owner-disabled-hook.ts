import { Injectable, type OnModuleInit } from '@nestjs/common';
import { AccountDisabledHooks } from '../users/index.js';
import { SchedulesRepository } from './schedules.repository.js';

/** A disabled account's schedules are disabled at once (the firing also checks the owner, as a net). */
@Injectable()
export class OwnerDisabledHook implements OnModuleInit {
  constructor(
    private readonly hooks: AccountDisabledHooks,
    private readonly schedules: SchedulesRepository,
  ) {}

  onModuleInit(): void {
    this.hooks.register('schedules', (userId) => this.schedules.disableAllOf(userId));
  }
}
