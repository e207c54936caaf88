import { MigrationInterface, QueryRunner } from 'typeorm';

/** What the retention purge leaves of a key, forever: its (user, request id) may never make a key again. */
export class ApiKeyTombstones1796020000001 implements MigrationInterface {
  name = 'ApiKeyTombstones1796020000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "api_key_tombstones" ("user_id" uuid NOT NULL, "request_id" character varying(64) NOT NULL, "key_id" uuid NOT NULL, "purged_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "api_key_tombstones_pkey" PRIMARY KEY ("user_id", "request_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_key_tombstones" ADD CONSTRAINT "api_key_tombstones_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "api_key_tombstones"`);
  }
}
