import { MigrationInterface, QueryRunner } from 'typeorm';

export class McpServers1796030000000 implements MigrationInterface {
  name = 'McpServers1796030000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "mcp_servers" ("id" uuid NOT NULL, "slug" character varying(64) NOT NULL, "name" character varying(100) NOT NULL, "description" text NOT NULL DEFAULT '', "transport" character varying(20) NOT NULL, "url" text NOT NULL, "headers_sealed" text, "timeout_s" double precision NOT NULL DEFAULT 30, "sse_read_timeout_s" double precision NOT NULL DEFAULT 300, "tags" jsonb NOT NULL DEFAULT '[]'::jsonb, "icon" character varying(200), "enabled" boolean NOT NULL DEFAULT true, "disabled_tools" jsonb NOT NULL DEFAULT '[]'::jsonb, "source" character varying(10) NOT NULL, "created_by" uuid, "updated_by" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "mcp_servers_slug_check" CHECK ("slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND char_length("slug") <= 64), CONSTRAINT "mcp_servers_transport_check" CHECK ("transport" IN ('streamable_http', 'sse', 'stdio')), CONSTRAINT "mcp_servers_source_check" CHECK ("source" IN ('builtin', 'custom')), CONSTRAINT "mcp_servers_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "mcp_servers_slug_key" ON "mcp_servers" ("slug") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."mcp_servers_slug_key"`);
    await queryRunner.query(`DROP TABLE "mcp_servers"`);
  }
}
