import { MigrationInterface, QueryRunner } from 'typeorm';

export class ThreadArtifacts1796001606253 implements MigrationInterface {
  name = 'ThreadArtifacts1796001606253';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "thread_artifacts" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "thread_id" uuid NOT NULL, "run_id" uuid NOT NULL, "user_id" uuid NOT NULL, "path" text NOT NULL, "position" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_4510e1335718ed0f6bd6f3f733f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "thread_artifacts_thread_position_idx" ON "thread_artifacts"  ("thread_id", "position") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "thread_artifacts_thread_path_key" ON "thread_artifacts"  ("thread_id", "path") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."thread_artifacts_thread_path_key"`);
    await queryRunner.query(`DROP INDEX "public"."thread_artifacts_thread_position_idx"`);
    await queryRunner.query(`DROP TABLE "thread_artifacts"`);
  }
}
