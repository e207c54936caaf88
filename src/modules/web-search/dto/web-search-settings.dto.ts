import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsObject,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { WhenPresent } from '../../../common/validation/when-present.js';
import { FETCH_CHOICES, SEARCH_CHOICES, VENDORS } from '../web-search.types.js';
import type { FetchChoice, SearchChoice, VendorName } from '../web-search.types.js';

export const API_KEY_MAX_CHARS = 512;
/** Printable ASCII without spaces: what vendor keys are, and all an HTTP header takes safely. */
const API_KEY_PATTERN = /^[\x21-\x7e]+$/;

const KEY_FIELD = {
  type: String,
  nullable: true,
  maxLength: API_KEY_MAX_CHARS,
  description:
    'A new key (saved encrypted); `null` clears the saved key (the environment variable applies again).',
};

/** `null` is a value here (clear), so only absence skips the field. */
const NullableKey = () => (target: object, property: string) => {
  WhenPresent()(target, property);
  ValidateIf((_o: object, value: unknown) => value !== null)(target, property);
  IsString()(target, property);
  MinLength(1)(target, property);
  MaxLength(API_KEY_MAX_CHARS)(target, property);
  Matches(API_KEY_PATTERN, { message: 'an API key is printable ASCII without spaces' })(target, property);
};

export class WebSearchApiKeysDto {
  @ApiPropertyOptional(KEY_FIELD)
  @NullableKey()
  tavily?: string | null;

  @ApiPropertyOptional(KEY_FIELD)
  @NullableKey()
  deepseek?: string | null;

  @ApiPropertyOptional(KEY_FIELD)
  @NullableKey()
  doubao?: string | null;
}

export class UpdateWebSearchSettingsDto {
  @ApiPropertyOptional({ enum: SEARCH_CHOICES })
  @WhenPresent()
  @IsIn(SEARCH_CHOICES)
  search_provider?: SearchChoice;

  @ApiPropertyOptional({ enum: FETCH_CHOICES })
  @WhenPresent()
  @IsIn(FETCH_CHOICES)
  fetch_provider?: FetchChoice;

  @ApiPropertyOptional({ type: WebSearchApiKeysDto })
  @WhenPresent()
  @IsObject()
  @ValidateNested()
  @Type(() => WebSearchApiKeysDto)
  api_keys?: WebSearchApiKeysDto;
}

export class ProviderKeyDto {
  @ApiProperty()
  has_key: boolean;

  @ApiProperty({ type: String, nullable: true, description: 'A redacted form such as `tvly…abcd`.' })
  key_preview: string | null;

  @ApiProperty({ enum: ['settings', 'env', 'none'], description: 'A saved key wins over the environment.' })
  source: 'settings' | 'env' | 'none';
}

export class ProvidersDto {
  @ApiProperty({ type: ProviderKeyDto })
  tavily: ProviderKeyDto;

  @ApiProperty({ type: ProviderKeyDto })
  deepseek: ProviderKeyDto;

  @ApiProperty({ type: ProviderKeyDto })
  doubao: ProviderKeyDto;
}

export class WebSearchSettingsDto {
  @ApiProperty({ enum: SEARCH_CHOICES })
  search_provider: SearchChoice;

  @ApiProperty({ enum: FETCH_CHOICES })
  fetch_provider: FetchChoice;

  @ApiProperty({ type: ProvidersDto })
  providers: ProvidersDto;
}

export class TestWebSearchDto {
  @ApiProperty({ enum: ['search', 'fetch'] })
  @IsIn(['search', 'fetch'])
  kind: 'search' | 'fetch';

  @ApiProperty({ enum: VENDORS, description: 'Fetch: tavily or deepseek.' })
  @IsIn(VENDORS)
  provider: VendorName;

  @ApiPropertyOptional({
    maxLength: API_KEY_MAX_CHARS,
    description: 'A draft key used for this test only, never saved; default: the effective key.',
  })
  @WhenPresent()
  @IsString()
  @MinLength(1)
  @MaxLength(API_KEY_MAX_CHARS)
  @Matches(API_KEY_PATTERN, { message: 'an API key is printable ASCII without spaces' })
  api_key?: string;

  @ApiPropertyOptional({ maxLength: 100, description: 'Search test query; default "latest news".' })
  @WhenPresent()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  query?: string;

  @ApiPropertyOptional({ maxLength: 8192, description: 'Fetch test page; default https://example.com/.' })
  @WhenPresent()
  @IsString()
  @MinLength(1)
  @MaxLength(8192)
  url?: string;
}

export class TestErrorDto {
  @ApiProperty()
  code: string;

  @ApiProperty()
  message: string;
}

export class WebSearchTestResultDto {
  @ApiProperty()
  ok: boolean;

  @ApiProperty()
  latency_ms: number;

  @ApiPropertyOptional()
  result_count?: number;

  @ApiPropertyOptional()
  content_chars?: number;

  @ApiPropertyOptional({ type: TestErrorDto })
  error?: TestErrorDto;
}
