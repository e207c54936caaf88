import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The per-user cap on runs in flight (`RUN_MAX_IN_FLIGHT_PER_USER`): a run whose claim found its user at
 * the cap is marked `held_at` and stays queued until one of the user's runs leaves flight. The claim
 * counts a user's runs in flight, and a departure finds the user's held runs, each through its index.
 */
export class RunSlots1796044000000 implements MigrationInterface {
  name = 'RunSlots1796044000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "runs" ADD "held_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `CREATE INDEX "runs_user_in_flight_idx" ON "runs" ("user_id") WHERE status IN ('running', 'cancel_requested')`,
    );
    await queryRunner.query(
      `CREATE INDEX "runs_user_held_idx" ON "runs" ("user_id", "created_at") WHERE status = 'queued' AND held_at IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "runs_user_held_idx"`);
    await queryRunner.query(`DROP INDEX "runs_user_in_flight_idx"`);
    await queryRunner.query(`ALTER TABLE "runs" DROP COLUMN "held_at"`);
  }
}
