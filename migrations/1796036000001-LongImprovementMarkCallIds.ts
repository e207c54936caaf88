import { MigrationInterface, QueryRunner } from 'typeorm';

/** An improvement mark keeps the model's tool call id whole, as `messages` does (any length). */
export class LongImprovementMarkCallIds1796036000001 implements MigrationInterface {
  name = 'LongImprovementMarkCallIds1796036000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "improvement_marks" ALTER COLUMN "tool_call_id" TYPE text`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "improvement_marks" ALTER COLUMN "tool_call_id" TYPE character varying(200) USING left("tool_call_id", 200)`,
    );
  }
}
