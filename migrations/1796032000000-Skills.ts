import { MigrationInterface, QueryRunner } from 'typeorm';

export class Skills1796032000000 implements MigrationInterface {
  name = 'Skills1796032000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "skills" ("slug" text NOT NULL, "name" text NOT NULL, "description" text NOT NULL, "version" text NOT NULL, "source_type" text NOT NULL, "owner_id" uuid, "share_config" jsonb NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "tool_dependencies" jsonb NOT NULL, "mcp_dependencies" jsonb NOT NULL, "skill_dependencies" jsonb NOT NULL, "open_format" jsonb NOT NULL, "revision" integer NOT NULL, "content_hash" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "skills_pkey" PRIMARY KEY ("slug"), CONSTRAINT "skills_slug_check" CHECK ("slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND char_length("slug") <= 128), CONSTRAINT "skills_source_type_check" CHECK ("source_type" IN ('builtin', 'shared')), CONSTRAINT "skills_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE SET NULL)`,
    );
    await queryRunner.query(`CREATE INDEX "skills_owner_id_idx" ON "skills" ("owner_id")`);
    await queryRunner.query(
      `CREATE TABLE "skills_settings" ("id" text NOT NULL, "remote_source_allowed_hosts" jsonb NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_by" uuid, CONSTRAINT "skills_settings_pkey" PRIMARY KEY ("id"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "skills_settings"`);
    await queryRunner.query(`DROP TABLE "skills"`);
  }
}
