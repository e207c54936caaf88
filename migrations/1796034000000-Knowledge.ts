import { MigrationInterface, QueryRunner } from 'typeorm';

export class Knowledge1796034000000 implements MigrationInterface {
  name = 'Knowledge1796034000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "knowledge_bases" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" text NOT NULL, "description" text NOT NULL, "owner_id" uuid, "share_config" jsonb NOT NULL DEFAULT '{"version": 2, "read_scope": {"level": "global"}, "manage_scope": null}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "knowledge_bases_pkey" PRIMARY KEY ("id"), CONSTRAINT "knowledge_bases_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE SET NULL)`,
    );
    await queryRunner.query(`CREATE INDEX "knowledge_bases_owner_id_idx" ON "knowledge_bases" ("owner_id")`);
    await queryRunner.query(
      `CREATE TABLE "knowledge_files" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "kb_id" uuid NOT NULL, "filename" text NOT NULL, "file_type" text NOT NULL, "size_bytes" bigint NOT NULL, "status" text NOT NULL, "error" jsonb, "markdown" text, "line_count" integer, "chunk_count" integer, "token_count" integer, "version" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "knowledge_files_pkey" PRIMARY KEY ("id"), CONSTRAINT "knowledge_files_status_check" CHECK ("status" IN ('pending', 'parsing', 'indexed', 'failed')), CONSTRAINT "knowledge_files_kb_id_fkey" FOREIGN KEY ("kb_id") REFERENCES "knowledge_bases"("id") ON DELETE CASCADE)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "knowledge_files_kb_filename_version_key" ON "knowledge_files" ("kb_id", "filename", "version")`,
    );
    await queryRunner.query(
      `CREATE TABLE "knowledge_chunks" ("id" bigserial NOT NULL, "kb_id" uuid NOT NULL, "file_id" uuid NOT NULL, "chunk_index" integer NOT NULL, "content" text NOT NULL, "token_count" integer NOT NULL, "embedding" real[], CONSTRAINT "knowledge_chunks_pkey" PRIMARY KEY ("id"), CONSTRAINT "knowledge_chunks_kb_id_fkey" FOREIGN KEY ("kb_id") REFERENCES "knowledge_bases"("id") ON DELETE CASCADE, CONSTRAINT "knowledge_chunks_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "knowledge_files"("id") ON DELETE CASCADE)`,
    );
    await queryRunner.query(`CREATE INDEX "knowledge_chunks_kb_id_idx" ON "knowledge_chunks" ("kb_id")`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "knowledge_chunks_file_chunk_key" ON "knowledge_chunks" ("file_id", "chunk_index")`,
    );
    await queryRunner.query(
      `CREATE TABLE "knowledge_postings" ("kb_id" uuid NOT NULL, "term" text NOT NULL, "chunk_id" bigint NOT NULL, "file_id" uuid NOT NULL, "tf" integer NOT NULL, "chunk_length" integer NOT NULL, CONSTRAINT "knowledge_postings_pkey" PRIMARY KEY ("kb_id", "term", "chunk_id") INCLUDE ("tf", "chunk_length"), CONSTRAINT "knowledge_postings_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "knowledge_files"("id") ON DELETE CASCADE)`,
    );
    await queryRunner.query(
      `CREATE INDEX "knowledge_postings_file_id_idx" ON "knowledge_postings" ("file_id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "knowledge_settings" ("id" text NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_by" uuid, CONSTRAINT "knowledge_settings_pkey" PRIMARY KEY ("id"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "knowledge_settings"`);
    await queryRunner.query(`DROP TABLE "knowledge_postings"`);
    await queryRunner.query(`DROP TABLE "knowledge_chunks"`);
    await queryRunner.query(`DROP TABLE "knowledge_files"`);
    await queryRunner.query(`DROP TABLE "knowledge_bases"`);
  }
}
