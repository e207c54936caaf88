import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Binds threads (and runs) to their agent's id instead of its slug: a slug freed by a deletion can be
 * taken by another user's agent, which must never run on the old threads.
 *
 * Backfill: a thread gets the id of the agent now holding its slug only if that agent is not younger
 * than the thread (a younger one is a re-creation after the thread's own agent was deleted); otherwise
 * NULL, which means "agent deleted". Runs take their thread's agent.
 */
export class ThreadAgentId1796021000000 implements MigrationInterface {
  name = 'ThreadAgentId1796021000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "threads" ADD "agent_id" uuid`);
    await queryRunner.query(
      `UPDATE "threads" t SET "agent_id" = a."id" FROM "agents" a
        WHERE a."slug" = t."agent_slug" AND a."created_at" <= t."created_at"`,
    );
    await queryRunner.query(`CREATE INDEX "threads_agent_id_idx" ON "threads" ("agent_id")`);
    await queryRunner.query(
      `ALTER TABLE "threads" ADD CONSTRAINT "threads_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE SET NULL`,
    );
    // No foreign key: a run keeps the id of the agent it was created for, as history.
    await queryRunner.query(`ALTER TABLE "runs" ADD "agent_id" uuid`);
    await queryRunner.query(
      `UPDATE "runs" r SET "agent_id" = t."agent_id" FROM "threads" t WHERE t."id" = r."thread_id"`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "runs" DROP COLUMN "agent_id"`);
    await queryRunner.query(`ALTER TABLE "threads" DROP CONSTRAINT "threads_agent_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."threads_agent_id_idx"`);
    await queryRunner.query(`ALTER TABLE "threads" DROP COLUMN "agent_id"`);
  }
}
