import { Module } from '@nestjs/common';
import { SafeHttpModule } from '../../common/http-safety/safe-http.module.js';
import { AppConfig } from '../../config/app-config.js';
import { ToolsModule } from '../tools/index.js';
import { WorkspaceModule } from '../workspace/index.js';
import { DocumentExtraction } from './extraction/document-extraction.js';
import { HttpEngine } from './engines/http-engine.js';
import { LocalEngine } from './engines/local-engine.js';
import { OcrParseFileTool } from './ocr-parse-file.tool.js';
import { OcrSettings } from './ocr-settings.js';
import { ConversionRunner } from './worker/conversion-runner.js';

/**
 * `ocr_parse_file`: PDF, Office and image documents in a workspace to Markdown, parsed locally in
 * worker threads or by an external OCR service; and `DocumentExtraction`, the same parsing for other
 * modules (knowledge bases).
 */
@Module({
  imports: [ToolsModule, WorkspaceModule, SafeHttpModule],
  providers: [
    {
      provide: OcrSettings,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => OcrSettings.fromConfig(config),
    },
    ConversionRunner,
    LocalEngine,
    HttpEngine,
    OcrParseFileTool,
    DocumentExtraction,
  ],
  exports: [DocumentExtraction],
})
export class OcrModule {}
