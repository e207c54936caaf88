import { MigrationInterface, QueryRunner } from 'typeorm';

export class ImprovementMarks1796015000000 implements MigrationInterface {
  name = 'ImprovementMarks1796015000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "improvement_marks" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "run_id" uuid NOT NULL, "tool_call_id" character varying(200) NOT NULL, "agent_slug" character varying(64) NOT NULL, "user_id" uuid NOT NULL, "thread_id" uuid NOT NULL, "reason" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_1aee579a7d72c1dfa730d7813c4" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "improvement_marks_agent_created_idx" ON "improvement_marks"  ("agent_slug", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "improvement_marks_user_created_idx" ON "improvement_marks"  ("user_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "improvement_marks_created_idx" ON "improvement_marks"  ("created_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "improvement_marks_run_tool_call_key" ON "improvement_marks"  ("run_id", "tool_call_id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."improvement_marks_run_tool_call_key"`);
    await queryRunner.query(`DROP INDEX "public"."improvement_marks_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."improvement_marks_user_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."improvement_marks_agent_created_idx"`);
    await queryRunner.query(`DROP TABLE "improvement_marks"`);
  }
}
