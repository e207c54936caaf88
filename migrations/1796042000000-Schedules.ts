import { MigrationInterface, QueryRunner } from 'typeorm';

/** Scheduled runs: schedules (a cron, a time zone, an input, an agent) and the occurrences they fired. */
export class Schedules1796042000000 implements MigrationInterface {
  name = 'Schedules1796042000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "schedules" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "owner_id" uuid NOT NULL, "agent_id" uuid NOT NULL, "agent_slug" character varying(64) NOT NULL, "cron" character varying(200) NOT NULL, "timezone" character varying(64) NOT NULL, "input" text NOT NULL, "enabled" boolean NOT NULL, "next_run_at" TIMESTAMP WITH TIME ZONE, "request_id" character varying(64), "payload_digest" character(64), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "schedules_pkey" PRIMARY KEY ("id"), CONSTRAINT "schedules_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE CASCADE, CONSTRAINT "schedules_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "schedules_owner_request_key" ON "schedules" ("owner_id", "request_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "schedules_owner_created_idx" ON "schedules" ("owner_id", "created_at")`,
    );
    await queryRunner.query(`CREATE INDEX "schedules_due_idx" ON "schedules" ("next_run_at") WHERE enabled`);
    await queryRunner.query(`CREATE INDEX "schedules_agent_id_idx" ON "schedules" ("agent_id")`);
    await queryRunner.query(
      `CREATE TABLE "schedule_occurrences" ("id" uuid NOT NULL, "schedule_id" uuid NOT NULL, "kind" character varying(16) NOT NULL, "scheduled_for" TIMESTAMP WITH TIME ZONE NOT NULL, "status" character varying(16) NOT NULL, "reason" character varying(64), "run_id" uuid, "thread_id" uuid, "request_id" character varying(64), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "schedule_occurrences_pkey" PRIMARY KEY ("id"), CONSTRAINT "schedule_occurrences_schedule_id_fkey" FOREIGN KEY ("schedule_id") REFERENCES "schedules"("id") ON DELETE CASCADE, CONSTRAINT "schedule_occurrences_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE SET NULL, CONSTRAINT "schedule_occurrences_thread_id_fkey" FOREIGN KEY ("thread_id") REFERENCES "threads"("id") ON DELETE SET NULL)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "schedule_occurrences_period_key" ON "schedule_occurrences" ("schedule_id", "scheduled_for") WHERE kind = 'scheduled'`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "schedule_occurrences_request_key" ON "schedule_occurrences" ("schedule_id", "request_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "schedule_occurrences_schedule_created_idx" ON "schedule_occurrences" ("schedule_id", "created_at")`,
    );
    await queryRunner.query(
      `CREATE INDEX "schedule_occurrences_pending_idx" ON "schedule_occurrences" ("created_at") WHERE status = 'pending'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "schedule_occurrences"`);
    await queryRunner.query(`DROP TABLE "schedules"`);
  }
}
