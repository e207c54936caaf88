import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Token usage per model call (`model_usage`, one row per call, written with the call's reply) and its
 * daily roll-up per user, agent and model (`model_usage_daily`, added to in the same statement), which
 * `GET /api/usage` reads for whole days. Runs, threads and users are plain columns: usage outlives a
 * deleted thread. What runs counted before (`runs.token_usage`) becomes one row per run (`model` =
 * the run's, or `unknown`), so totals stay what they were.
 */
export class ModelUsage1796041000000 implements MigrationInterface {
  name = 'ModelUsage1796041000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "model_usage" ("id" uuid NOT NULL, "run_id" uuid NOT NULL, "thread_id" uuid NOT NULL, "user_id" uuid NOT NULL, "agent_id" uuid, "model" character varying(200) NOT NULL, "purpose" character varying(16) NOT NULL, "input_tokens" integer NOT NULL, "output_tokens" integer NOT NULL, "cached_tokens" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "model_usage_pkey" PRIMARY KEY ("id"), CONSTRAINT "model_usage_purpose_check" CHECK ("purpose" IN ('agent', 'summary', 'title')))`,
    );
    await queryRunner.query(`CREATE INDEX "model_usage_run_idx" ON "model_usage" ("run_id")`);
    await queryRunner.query(`CREATE INDEX "model_usage_thread_idx" ON "model_usage" ("thread_id")`);
    await queryRunner.query(`CREATE INDEX "model_usage_created_idx" ON "model_usage" ("created_at")`);
    await queryRunner.query(
      `CREATE INDEX "model_usage_user_created_idx" ON "model_usage" ("user_id", "created_at")`,
    );
    await queryRunner.query(
      `CREATE TABLE "model_usage_daily" ("day" date NOT NULL, "user_id" uuid NOT NULL, "agent_id" uuid, "model" character varying(200) NOT NULL, "input_tokens" bigint NOT NULL, "output_tokens" bigint NOT NULL, "cached_tokens" bigint NOT NULL, "calls" bigint NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "model_usage_daily_key" ON "model_usage_daily" ("day", "user_id", "agent_id", "model") NULLS NOT DISTINCT`,
    );
    await queryRunner.query(
      `CREATE INDEX "model_usage_daily_user_idx" ON "model_usage_daily" ("user_id", "day")`,
    );
    await queryRunner.query(
      `INSERT INTO "model_usage" ("id", "run_id", "thread_id", "user_id", "agent_id", "model", "purpose", "input_tokens", "output_tokens", "cached_tokens", "created_at")
       SELECT "id", "id", "thread_id", "user_id", "agent_id", coalesce("model", 'unknown'), 'agent',
              coalesce(("token_usage"->>'input_tokens')::int, 0), coalesce(("token_usage"->>'output_tokens')::int, 0), 0,
              coalesce("finished_at", "started_at", "created_at")
         FROM "runs" WHERE "token_usage" IS NOT NULL`,
    );
    await queryRunner.query(
      `INSERT INTO "model_usage_daily" ("day", "user_id", "agent_id", "model", "input_tokens", "output_tokens", "cached_tokens", "calls")
       SELECT ("created_at" AT TIME ZONE 'UTC')::date, "user_id", "agent_id", "model", sum("input_tokens"), sum("output_tokens"), sum("cached_tokens"), count(*)
         FROM "model_usage" GROUP BY 1, 2, 3, 4`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "model_usage_daily"`);
    await queryRunner.query(`DROP TABLE "model_usage"`);
  }
}
