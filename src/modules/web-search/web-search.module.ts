import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SafeHttpModule } from '../../common/http-safety/index.js';
import { ToolsModule } from '../tools/index.js';
import { WebSearchConfig } from './config/web-search-config.js';
import { WebSearchSettingsStore } from './config/web-search-settings.store.js';
import { WebSearchSettingsController } from './settings/web-search-settings.controller.js';
import { WebSearchSettingsEntity } from './settings/web-search-settings.entity.js';
import { WebSearchSettingsService } from './settings/web-search-settings.service.js';
import { WebTools } from './tools/web-tools.js';
import { DeepSeekAdapter } from './vendors/deepseek.adapter.js';
import { DoubaoAdapter } from './vendors/doubao.adapter.js';
import { TavilyAdapter } from './vendors/tavily.adapter.js';
import { VendorHttp } from './vendors/vendor-http.js';
import { WebSearchService } from './web-search.service.js';

/** `web_search` / `web_fetch` over Tavily, DeepSeek and Doubao, and their superadmin settings. */
@Module({
  imports: [ToolsModule, SafeHttpModule, TypeOrmModule.forFeature([WebSearchSettingsEntity])],
  controllers: [WebSearchSettingsController],
  providers: [
    VendorHttp,
    TavilyAdapter,
    DeepSeekAdapter,
    DoubaoAdapter,
    WebSearchSettingsStore,
    WebSearchConfig,
    WebSearchService,
    WebTools,
    WebSearchSettingsService,
  ],
})
export class WebSearchModule {}
