import { MigrationInterface, QueryRunner } from 'typeorm';

export class SkillDrafts1796038000000 implements MigrationInterface {
  name = 'SkillDrafts1796038000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "skill_drafts" ("id" uuid NOT NULL, "owner_id" uuid NOT NULL, "bytes" bigint NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "skill_drafts_pkey" PRIMARY KEY ("id"), CONSTRAINT "skill_drafts_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE CASCADE)`,
    );
    await queryRunner.query(`CREATE INDEX "skill_drafts_owner_id_idx" ON "skill_drafts" ("owner_id")`);
    await queryRunner.query(`CREATE INDEX "skill_drafts_expires_at_idx" ON "skill_drafts" ("expires_at")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "skill_drafts"`);
  }
}
