import type { Span } from '@opentelemetry/api';
import { truncate } from '../../common/text/truncate.js';
import { contentCaptured } from './spans.js';

/** Prompt, argument and result text on a span is cut to this many characters. */
export const SPAN_CONTENT_MAX_CHARS = 16_384;

/**
 * Whether `span` may carry content (prompts, tool arguments, results, commands): content capture is on
 * and the span records. Check it before building any such text, so a span that records nothing costs
 * nothing more.
 */
export function recordsContent(span: Span): boolean {
  return contentCaptured() && span.isRecording();
}

/**
 * Sets a content attribute: `value` is called (and, unless a string, turned into JSON) only when the
 * span records content; the text is cut to `SPAN_CONTENT_MAX_CHARS`.
 */
export function setContentAttribute(span: Span, key: string, value: () => unknown): void {
  if (!recordsContent(span)) return;
  span.setAttribute(key, contentText(value()));
}

function contentText(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = '[not serializable]';
    }
  }
  const over = text.length - SPAN_CONTENT_MAX_CHARS;
  return over <= 0 ? text : `${truncate(text, SPAN_CONTENT_MAX_CHARS)}[${over} more characters]`;
}
