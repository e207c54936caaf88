import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  AgentTool,
  type ToolAvailability,
  type ToolInvocation,
  type ToolOutput,
  ToolRegistry,
} from '../tools/index.js';
import { WorkspacePathResolver, WorkspaceQuota } from '../workspace/index.js';
import { archiveLimitsOf } from './archive/archive-limits.js';
import { detectDocumentType, type DocumentType } from './detect-type.js';
import { HttpEngine } from './engines/http-engine.js';
import { LocalEngine } from './engines/local-engine.js';
import type { OcrEngine, OcrEngineName } from './engines/ocr-engine.js';
import { summarizeMarkdown } from './markdown-result.js';
import { OcrSettings } from './ocr-settings.js';
import {
  OCR_TOOL_DESCRIPTION,
  OCR_TOOL_NAME,
  ocrParseFileSchema,
  type OcrParseFileArgs,
} from './ocr-tool-schema.js';
import { OcrErrors } from './ocr.errors.js';
import { OCR_OUTPUT_DIR, outputStem, writeNewMarkdown } from './output-path.js';
import { readSourceFile } from './read-source.js';
import { ConversionRunner } from './worker/conversion-runner.js';

function noTextHint(type: DocumentType, engine: OcrEngineName): string {
  if (type === 'pdf' && engine === 'local') {
    return 'The PDF has no text layer (a scan?): the local engine reads text layers only; the http engine can OCR it.';
  }
  return '';
}

/**
 * `ocr_parse_file`: a workspace document to Markdown in `<workdir>/outputs/ocr/`. The path is resolved
 * for the calling user here (the executor's resource guard checked it too; this is the check that
 * counts), the type is read from the bytes, and the engine does the parsing.
 */
@Injectable()
export class OcrParseFileTool implements OnModuleInit {
  private readonly engines: Readonly<Record<OcrEngineName, OcrEngine>>;

  constructor(
    private readonly resolver: WorkspacePathResolver,
    private readonly quota: WorkspaceQuota,
    private readonly settings: OcrSettings,
    private readonly registry: ToolRegistry,
    private readonly runner: ConversionRunner,
    local: LocalEngine,
    http: HttpEngine,
  ) {
    this.engines = { local, http };
  }

  onModuleInit(): void {
    this.registry.setAvailability(OCR_TOOL_NAME, () => this.availability());
  }

  /** Whether runs can be given the tool: not when disabled, nor when the default engine cannot work. */
  availability(): ToolAvailability {
    const engine = this.settings.defaultEngine;
    if (engine === 'disable') {
      return { available: false, reason: 'document parsing is disabled (OCR_ENGINE=disable)' };
    }
    const reason = this.engines[engine].unavailableReason();
    return { available: reason === null, reason };
  }

  @AgentTool({
    name: OCR_TOOL_NAME,
    category: 'builtin',
    tags: ['文档', 'OCR'],
    displayName: '文档解析',
    description: OCR_TOOL_DESCRIPTION,
    schema: ocrParseFileSchema,
    resources: [{ kind: 'workspace_path', arg: 'file_path', access: 'read' }],
    timeoutMs: 300_000,
  })
  async parseFile(args: OcrParseFileArgs, invocation: ToolInvocation): Promise<ToolOutput> {
    const engine = this.engineFor(args.engine);
    const { user, workdir } = invocation.context;
    const target = await this.resolver.resolve(user, args.file_path, { access: 'read', workdir });
    const source = await readSourceFile(target, this.settings.maxFileBytes);
    const detection = detectDocumentType(source.bytes, archiveLimitsOf(this.settings));
    if (!detection.supported) throw OcrErrors.unsupportedType(source.virtualPath, detection.detected);

    const converted = await engine.convert(
      { fileName: source.fileName, type: detection.type, bytes: source.bytes },
      invocation.signal,
    );
    // The local engine cleans up in its worker; a service's answer is cleaned up in one too.
    const markdown =
      engine.name === 'local'
        ? converted
        : await this.runner.convertText('text', converted, invocation.signal);
    if (markdown === '') throw OcrErrors.noText(source.virtualPath, noTextHint(detection.type, engine.name));

    invocation.signal.throwIfAborted();
    const directory = await this.resolver.resolve(user, OCR_OUTPUT_DIR, { access: 'write', workdir });
    const content = `${markdown}\n`;
    const parsedPath = await this.quota.addFiles(user, Buffer.byteLength(content, 'utf8'), () =>
      writeNewMarkdown(directory, outputStem(source.fileName), content),
    );
    const summary = summarizeMarkdown(markdown);
    return {
      source_path: source.virtualPath,
      parsed_path: parsedPath,
      engine: engine.name,
      char_count: summary.charCount,
      preview: summary.preview,
      truncated: summary.truncated,
    };
  }

  private engineFor(requested: OcrEngineName | undefined): OcrEngine {
    const fallback = this.settings.defaultEngine;
    if (fallback === 'disable') throw OcrErrors.disabled();
    const engine = this.engines[requested ?? fallback];
    const reason = engine.unavailableReason();
    if (reason !== null) throw OcrErrors.engineUnavailable(engine.name, reason);
    return engine;
  }
}
