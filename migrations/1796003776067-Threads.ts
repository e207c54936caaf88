import { MigrationInterface, QueryRunner } from 'typeorm';

export class Threads1796003776067 implements MigrationInterface {
  name = 'Threads1796003776067';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "threads" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "agent_slug" character varying(64) NOT NULL, "title" character varying(200) NOT NULL, "project" character varying(64) NOT NULL, "parent_thread_id" uuid, "request_id" character varying(64), "payload_digest" character(64), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_d8a74804c34fc3900502cd27275" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "threads_user_created_idx" ON "threads"  ("user_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "threads_user_request_key" ON "threads"  ("user_id", "request_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "threads" ADD CONSTRAINT "FK_a6cc1a07ec07e376947ed1016a0" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "threads" DROP CONSTRAINT "FK_a6cc1a07ec07e376947ed1016a0"`);
    await queryRunner.query(`DROP INDEX "public"."threads_user_request_key"`);
    await queryRunner.query(`DROP INDEX "public"."threads_user_created_idx"`);
    await queryRunner.query(`DROP TABLE "threads"`);
  }
}
