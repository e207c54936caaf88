import { Injectable, OnModuleInit } from '@nestjs/common';
import { ToolEvents } from '../../tools/index.js';
import { RunEvents } from '../events/run-events.js';

/** Connects the events tools raise (`ToolEvents`) to the run's event stream, fenced by the run's lease. */
@Injectable()
export class ToolEventsToRunEvents implements OnModuleInit {
  constructor(
    private readonly toolEvents: ToolEvents,
    private readonly events: RunEvents,
  ) {}

  onModuleInit(): void {
    this.toolEvents.connect(async (context, event) => {
      await this.events.emit({
        runId: context.runId,
        events: [event],
        fence: { leaseToken: context.leaseToken },
      });
    });
  }
}
