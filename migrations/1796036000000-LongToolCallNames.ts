import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tool names and tool call ids come from the model, which may send any length: a name or id over 200
 * characters failed the insert of its message (or waiting point) and so the whole run. They are kept
 * whole as `text` (varchar to text rewrites no row); the audit table keeps its cut to 200.
 */
export class LongToolCallNames1796036000000 implements MigrationInterface {
  name = 'LongToolCallNames1796036000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "messages" ALTER COLUMN "tool_call_id" TYPE text`);
    await queryRunner.query(`ALTER TABLE "messages" ALTER COLUMN "name" TYPE text`);
    await queryRunner.query(`ALTER TABLE "waiting_points" ALTER COLUMN "tool_call_id" TYPE text`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "waiting_points" ALTER COLUMN "tool_call_id" TYPE character varying(200) USING left("tool_call_id", 200)`,
    );
    await queryRunner.query(
      `ALTER TABLE "messages" ALTER COLUMN "name" TYPE character varying(200) USING left("name", 200)`,
    );
    await queryRunner.query(
      `ALTER TABLE "messages" ALTER COLUMN "tool_call_id" TYPE character varying(200) USING left("tool_call_id", 200)`,
    );
  }
}
