import { Injectable, Logger } from '@nestjs/common';
import type { ToolExecutionContext } from './tool-execution-context.js';

/** Events a tool raises for the run's stream (`docs/api.md` "Run events": `artifacts {paths}`). */
export interface ToolEvent {
  type: 'artifacts';
  payload: { paths: string[] };
}

export type ToolEventSink = (context: ToolExecutionContext, event: ToolEvent) => Promise<void>;

/**
 * Where tools send run events. The agent runtime, which owns the run-event table and its Redis
 * channel, connects its sink at startup; until then events are only logged.
 */
@Injectable()
export class ToolEvents {
  private readonly logger = new Logger(ToolEvents.name);
  private sink: ToolEventSink | null = null;

  connect(sink: ToolEventSink): void {
    if (this.sink !== null) throw new Error('a tool event sink is already connected');
    this.sink = sink;
  }

  async emit(context: ToolExecutionContext, event: ToolEvent): Promise<void> {
    if (this.sink === null) {
      this.logger.debug({ run_id: context.runId, type: event.type }, 'no run event sink connected');
      return;
    }
    await this.sink(context, event);
  }
}
