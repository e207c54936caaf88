import { MigrationInterface, QueryRunner } from 'typeorm';

export class ToolCalls1796000694864 implements MigrationInterface {
  name = 'ToolCalls1796000694864';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "tool_calls" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "run_id" uuid NOT NULL, "thread_id" uuid NOT NULL, "tool_call_id" character varying(200) NOT NULL, "tool_name" character varying(200) NOT NULL, "user_id" uuid NOT NULL, "args_digest" character(64) NOT NULL, "outcome" character varying(16) NOT NULL, "error_code" character varying(200), "duration_ms" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_08984f8a6bc13859241462df855" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "tool_calls_user_id_idx" ON "tool_calls"  ("user_id") `);
    await queryRunner.query(
      `CREATE INDEX "tool_calls_run_id_created_at_idx" ON "tool_calls"  ("run_id", "created_at") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."tool_calls_run_id_created_at_idx"`);
    await queryRunner.query(`DROP INDEX "public"."tool_calls_user_id_idx"`);
    await queryRunner.query(`DROP TABLE "tool_calls"`);
  }
}
