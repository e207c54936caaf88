import { MigrationInterface, QueryRunner } from 'typeorm';

export class Runs1796007390847 implements MigrationInterface {
  name = 'Runs1796007390847';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "runs" ("id" uuid NOT NULL, "thread_id" uuid NOT NULL, "user_id" uuid NOT NULL, "agent_slug" character varying(64) NOT NULL, "status" character varying(20) NOT NULL, "input" text NOT NULL, "model" character varying(200), "parent_run_id" uuid, "request_id" character varying(64), "payload_digest" character(64), "config_snapshot" jsonb, "lease_token" uuid, "lease_expires_at" TIMESTAMP WITH TIME ZONE, "attempts" integer NOT NULL DEFAULT '0', "last_event_seq" integer NOT NULL DEFAULT '0', "error" jsonb, "token_usage" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "started_at" TIMESTAMP WITH TIME ZONE, "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_46d6a1e257c38ba58f1a3c30836" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "runs_parent_idx" ON "runs"  ("parent_run_id") `);
    await queryRunner.query(`CREATE INDEX "runs_status_idx" ON "runs"  ("status") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "runs_user_request_key" ON "runs"  ("user_id", "request_id") `,
    );
    await queryRunner.query(`CREATE INDEX "runs_thread_created_idx" ON "runs"  ("thread_id", "created_at") `);
    await queryRunner.query(
      `CREATE TABLE "run_events" ("run_id" uuid NOT NULL, "seq" integer NOT NULL, "type" character varying(32) NOT NULL, "payload" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_26fbe8c97f90c91b8eecbb0fe74" PRIMARY KEY ("run_id", "seq"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "messages" ("id" uuid NOT NULL, "thread_id" uuid NOT NULL, "run_id" uuid NOT NULL, "position" BIGSERIAL NOT NULL, "role" character varying(16) NOT NULL, "content" text NOT NULL, "tool_calls" jsonb, "tool_call_id" character varying(200), "name" character varying(200), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_18325f38ae6de43878487eff986" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "messages_run_idx" ON "messages"  ("run_id") `);
    await queryRunner.query(
      `CREATE INDEX "messages_thread_position_idx" ON "messages"  ("thread_id", "position") `,
    );
    await queryRunner.query(
      `ALTER TABLE "runs" ADD CONSTRAINT "FK_f8638c178760a9b4a8ce6f8e68c" FOREIGN KEY ("thread_id") REFERENCES "threads"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "runs" ADD CONSTRAINT "FK_877e8bcffb46e56be6c4baa4f56" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "run_events" ADD CONSTRAINT "FK_5d8974d438d9e9eb7dd9f6856d1" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "messages" ADD CONSTRAINT "FK_bb3af7f695d50083e6523290d41" FOREIGN KEY ("thread_id") REFERENCES "threads"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "messages" DROP CONSTRAINT "FK_bb3af7f695d50083e6523290d41"`);
    await queryRunner.query(`ALTER TABLE "run_events" DROP CONSTRAINT "FK_5d8974d438d9e9eb7dd9f6856d1"`);
    await queryRunner.query(`ALTER TABLE "runs" DROP CONSTRAINT "FK_877e8bcffb46e56be6c4baa4f56"`);
    await queryRunner.query(`ALTER TABLE "runs" DROP CONSTRAINT "FK_f8638c178760a9b4a8ce6f8e68c"`);
    await queryRunner.query(`DROP INDEX "public"."messages_thread_position_idx"`);
    await queryRunner.query(`DROP INDEX "public"."messages_run_idx"`);
    await queryRunner.query(`DROP TABLE "messages"`);
    await queryRunner.query(`DROP TABLE "run_events"`);
    await queryRunner.query(`DROP INDEX "public"."runs_thread_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."runs_user_request_key"`);
    await queryRunner.query(`DROP INDEX "public"."runs_status_idx"`);
    await queryRunner.query(`DROP INDEX "public"."runs_parent_idx"`);
    await queryRunner.query(`DROP TABLE "runs"`);
  }
}
