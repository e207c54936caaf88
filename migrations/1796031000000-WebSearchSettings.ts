import { MigrationInterface, QueryRunner } from 'typeorm';

export class WebSearchSettings1796031000000 implements MigrationInterface {
  name = 'WebSearchSettings1796031000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "web_search_settings" ("id" text NOT NULL, "search_provider" text NOT NULL, "fetch_provider" text NOT NULL, "tavily_api_key" text, "deepseek_api_key" text, "doubao_api_key" text, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_by" uuid, CONSTRAINT "web_search_settings_pkey" PRIMARY KEY ("id"), CONSTRAINT "web_search_settings_search_provider_check" CHECK ("search_provider" IN ('auto', 'none', 'tavily', 'deepseek', 'doubao')), CONSTRAINT "web_search_settings_fetch_provider_check" CHECK ("fetch_provider" IN ('auto', 'none', 'tavily', 'deepseek')))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "web_search_settings"`);
  }
}
