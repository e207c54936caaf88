import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tool approval: the decision recorded on each audited call, approval waiting points (their calls, the
 * person's decisions, the decided calls already started) and the tools approved for a whole thread.
 */
export class ToolApproval1796040000000 implements MigrationInterface {
  name = 'ToolApproval1796040000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "tool_calls" ADD "decision" character varying(16)`);
    await queryRunner.query(`ALTER TABLE "tool_calls" ADD "decided_by" character varying(80)`);
    await queryRunner.query(`ALTER TABLE "tool_calls" ADD "remembered" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(
      `ALTER TABLE "waiting_points" ADD "kind" character varying(16) NOT NULL DEFAULT 'questions'`,
    );
    await queryRunner.query(`ALTER TABLE "waiting_points" ADD "approvals" jsonb`);
    await queryRunner.query(`ALTER TABLE "waiting_points" ADD "decisions" jsonb`);
    await queryRunner.query(
      `ALTER TABLE "waiting_points" ADD "started_calls" jsonb NOT NULL DEFAULT '[]'::jsonb`,
    );
    await queryRunner.query(
      `CREATE TABLE "thread_tool_approvals" ("thread_id" uuid NOT NULL, "tool" character varying(300) NOT NULL, "approved_by" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "thread_tool_approvals_pkey" PRIMARY KEY ("thread_id", "tool"), CONSTRAINT "thread_tool_approvals_thread_id_fkey" FOREIGN KEY ("thread_id") REFERENCES "threads"("id") ON DELETE CASCADE)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "thread_tool_approvals"`);
    await queryRunner.query(`ALTER TABLE "waiting_points" DROP COLUMN "started_calls"`);
    await queryRunner.query(`ALTER TABLE "waiting_points" DROP COLUMN "decisions"`);
    await queryRunner.query(`ALTER TABLE "waiting_points" DROP COLUMN "approvals"`);
    await queryRunner.query(`ALTER TABLE "waiting_points" DROP COLUMN "kind"`);
    await queryRunner.query(`ALTER TABLE "tool_calls" DROP COLUMN "remembered"`);
    await queryRunner.query(`ALTER TABLE "tool_calls" DROP COLUMN "decided_by"`);
    await queryRunner.query(`ALTER TABLE "tool_calls" DROP COLUMN "decision"`);
  }
}
