import { MigrationInterface, QueryRunner } from 'typeorm';

export class Identity1795997710319 implements MigrationInterface {
  name = 'Identity1795997710319';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "departments" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" character varying(100) NOT NULL, "description" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_8681da666ad9699d568b3e91064" UNIQUE ("name"), CONSTRAINT "PK_839517a681a86bb84cbcc6a1e9d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "users" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "username" character varying(64) NOT NULL, "password_hash" text NOT NULL, "role" character varying(16) NOT NULL DEFAULT 'user', "department_id" uuid NOT NULL, "disabled" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "users_role_check" CHECK ("role" IN ('user', 'admin', 'superadmin')), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "users_username_lower_key" ON "users" (lower("username"))`);
    await queryRunner.query(`CREATE INDEX "users_department_id_idx" ON "users"  ("department_id") `);
    await queryRunner.query(
      `CREATE TABLE "api_keys" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "name" character varying(100) NOT NULL, "key_prefix" character varying(16) NOT NULL, "key_hash" character(64) NOT NULL, "request_id" character varying(64) NOT NULL, "payload_digest" character(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, "last_used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"  ("key_hash") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "api_keys_user_request_key" ON "api_keys"  ("user_id", "request_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "users" ADD CONSTRAINT "FK_0921d1972cf861d568f5271cd85" FOREIGN KEY ("department_id") REFERENCES "departments"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_keys" ADD CONSTRAINT "FK_a3baee01d8408cd3c0f89a9a973" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "FK_a3baee01d8408cd3c0f89a9a973"`);
    await queryRunner.query(`ALTER TABLE "users" DROP CONSTRAINT "FK_0921d1972cf861d568f5271cd85"`);
    await queryRunner.query(`DROP INDEX "public"."api_keys_user_request_key"`);
    await queryRunner.query(`DROP INDEX "public"."api_keys_key_hash_key"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
    await queryRunner.query(`DROP INDEX "public"."users_department_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."users_username_lower_key"`);
    await queryRunner.query(`DROP TABLE "users"`);
    await queryRunner.query(`DROP TABLE "departments"`);
  }
}
