import { MigrationInterface, QueryRunner } from 'typeorm';

export class Agents1796003600265 implements MigrationInterface {
  name = 'Agents1796003600265';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "agents" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "slug" character varying(64) NOT NULL, "name" character varying(100) NOT NULL, "description" text, "is_subagent" boolean NOT NULL DEFAULT false, "builtin" boolean NOT NULL DEFAULT false, "owner_id" uuid, "share_config" jsonb NOT NULL, "config" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "agents_owner_check" CHECK ("builtin" OR "owner_id" IS NOT NULL), CONSTRAINT "agents_slug_check" CHECK ("slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND char_length("slug") BETWEEN 2 AND 64), CONSTRAINT "PK_9c653f28ae19c5884d5baf6a1d9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "agents_slug_key" ON "agents"  ("slug") `);
    await queryRunner.query(`CREATE INDEX "agents_owner_id_idx" ON "agents"  ("owner_id") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."agents_owner_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."agents_slug_key"`);
    await queryRunner.query(`DROP TABLE "agents"`);
  }
}
