import type { MigrationInterface, QueryRunner } from 'typeorm';

export class WaitingPoints1796012000000 implements MigrationInterface {
  name = 'WaitingPoints1796012000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "waiting_points" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "run_id" uuid NOT NULL, "thread_id" uuid NOT NULL, "tool_call_id" character varying(200) NOT NULL, "questions" jsonb NOT NULL, "status" character varying(16) NOT NULL, "answers" jsonb, "answered_by" uuid, "answer_request_id" character varying(64), "answers_digest" character(64), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "answered_at" TIMESTAMP WITH TIME ZONE, "cancelled_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_aafff24f0556e6cab58933dc4f2" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "waiting_points_status_idx" ON "waiting_points" ("status") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "waiting_points_run_call_key" ON "waiting_points" ("run_id", "tool_call_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "waiting_points" ADD CONSTRAINT "FK_c205393f82c59d6c15866479d90" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "waiting_points" DROP CONSTRAINT "FK_c205393f82c59d6c15866479d90"`);
    await queryRunner.query(`DROP INDEX "public"."waiting_points_run_call_key"`);
    await queryRunner.query(`DROP INDEX "public"."waiting_points_status_idx"`);
    await queryRunner.query(`DROP TABLE "waiting_points"`);
  }
}
