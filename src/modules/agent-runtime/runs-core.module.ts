import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RunEndWaiter } from './events/run-end-waiter.js';
import { RunEventBus } from './events/run-event-bus.js';
import { RunEventEntity } from './events/run-event.entity.js';
import { RunEventStore } from './events/run-event-store.js';
import { RunEvents } from './events/run-events.js';
import { MessageEntity } from './messages/message.entity.js';
import { MessagesRepository } from './messages/messages.repository.js';
import { AGENT_RUNS_QUEUE } from './queue/agent-runs.queue.js';
import { THREAD_COMPACTION_QUEUE } from './queue/thread-compaction.queue.js';
import { RunDispatcher } from './queue/run-dispatcher.js';
import { RunEntity } from './runs/run.entity.js';
import { RunStore } from './runs/run-store.js';
import { RunTransitions } from './runs/run-transitions.js';
import { RunsRepository } from './runs/runs.repository.js';
import { RunCancelSignals } from './worker/run-cancel-signals.js';
import { AskUserQuestionTool } from './questions/ask-user-question.tool.js';
import { WaitingPoints } from './questions/waiting-points.js';
import { ThreadToolApprovals } from './approvals/thread-tool-approvals.js';

/** Both sides use it: the API enqueues compactions, the worker runs them. */
const COMPACTION_QUEUE = BullModule.registerQueue({ name: THREAD_COMPACTION_QUEUE });

const SHARED = [
  RunStore,
  RunsRepository,
  MessagesRepository,
  RunEventStore,
  RunEventBus,
  RunEvents,
  RunEndWaiter,
  RunDispatcher,
  RunTransitions,
  RunCancelSignals,
  WaitingPoints,
  ThreadToolApprovals,
];

/**
 * What the API side and the worker side of runs share: tables, transitions, events, the queue, waiting
 * points, the tools approved per thread, and the `ask_user_question` tool (registered in both processes: catalog and execution).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([RunEntity, RunEventEntity, MessageEntity]),
    BullModule.registerQueue({ name: AGENT_RUNS_QUEUE }),
    COMPACTION_QUEUE,
  ],
  providers: [...SHARED, AskUserQuestionTool],
  exports: [...SHARED, COMPACTION_QUEUE],
})
export class RunsCoreModule {}
