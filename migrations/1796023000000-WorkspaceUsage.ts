import { MigrationInterface, QueryRunner } from 'typeorm';

export class WorkspaceUsage1796023000000 implements MigrationInterface {
  name = 'WorkspaceUsage1796023000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "workspace_usage" ("user_id" uuid NOT NULL, "used_bytes" bigint NOT NULL, "measured_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "workspace_usage_pkey" PRIMARY KEY ("user_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "workspace_usage" ADD CONSTRAINT "workspace_usage_user_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "workspace_usage" DROP CONSTRAINT "workspace_usage_user_fk"`);
    await queryRunner.query(`DROP TABLE "workspace_usage"`);
  }
}
