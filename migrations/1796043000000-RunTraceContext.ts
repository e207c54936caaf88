import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The W3C `traceparent` of the context that created a run (an HTTP request, a parent run's tool call, a
 * schedule's firing) and of the one whose answer last resumed it: every job of the run carries it, so
 * the run's executions join that trace whoever enqueued them. Null with tracing off, and for older runs.
 */
export class RunTraceContext1796043000000 implements MigrationInterface {
  name = 'RunTraceContext1796043000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "runs" ADD "origin_traceparent" character varying(128)`);
    await queryRunner.query(`ALTER TABLE "runs" ADD "resume_traceparent" character varying(128)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "runs" DROP COLUMN "resume_traceparent"`);
    await queryRunner.query(`ALTER TABLE "runs" DROP COLUMN "origin_traceparent"`);
  }
}
