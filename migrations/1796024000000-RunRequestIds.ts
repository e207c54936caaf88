import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The X-Request-Id of the HTTP request that created a run, and of the one whose answer last resumed
 * it: every job of the run carries them, and the worker's log lines for the run name them. Runs created
 * before this migration have neither (their lines carry `request_id: null`).
 */
export class RunRequestIds1796024000000 implements MigrationInterface {
  name = 'RunRequestIds1796024000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "runs" ADD "origin_request_id" character varying(128)`);
    await queryRunner.query(`ALTER TABLE "runs" ADD "resume_request_id" character varying(128)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "runs" DROP COLUMN "resume_request_id"`);
    await queryRunner.query(`ALTER TABLE "runs" DROP COLUMN "origin_request_id"`);
  }
}
