import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A parent run parked in `subagent_await` (status `waiting`, no waiting point): the child runs it
 * waits for and when it stops waiting anyway (the await's timeout). The last awaited child to end, or
 * the deadline, queues the parent again. Both are NULL for every other run.
 */
export class SubagentAwaits1796033000000 implements MigrationInterface {
  name = 'SubagentAwaits1796033000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "runs" ADD "awaited_run_ids" uuid array`);
    await queryRunner.query(`ALTER TABLE "runs" ADD "awaiting_until" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "runs" DROP COLUMN "awaiting_until"`);
    await queryRunner.query(`ALTER TABLE "runs" DROP COLUMN "awaited_run_ids"`);
  }
}
