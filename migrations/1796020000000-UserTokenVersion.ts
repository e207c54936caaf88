import { MigrationInterface, QueryRunner } from 'typeorm';

/** Access tokens carry the version they were issued under; a credential change increments it. */
export class UserTokenVersion1796020000000 implements MigrationInterface {
  name = 'UserTokenVersion1796020000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" ADD "token_version" integer NOT NULL DEFAULT 0`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "token_version"`);
  }
}
