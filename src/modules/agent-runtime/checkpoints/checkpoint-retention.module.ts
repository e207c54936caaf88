import { Module } from '@nestjs/common';
import { CheckpointPruning } from './checkpoint-pruning.js';

/** The checkpoint pruning job's side of the runtime, for the maintenance worker. */
@Module({ providers: [CheckpointPruning], exports: [CheckpointPruning] })
export class CheckpointRetentionModule {}
