import type { IncomingMessage } from 'node:http';
import type { Span } from '@opentelemetry/api';

/** An incoming request as Express leaves it once a route matched. */
type RoutedRequest = IncomingMessage & { baseUrl?: string; route?: { path?: unknown } };

/** The route template a request matched (`/api/threads/:id/runs`), never its concrete URL. */
export function routeTemplateOf(request: RoutedRequest): string | undefined {
  const path = request.route?.path;
  return typeof path === 'string' ? `${request.baseUrl ?? ''}${path}` : undefined;
}

/**
 * Names a server span `<METHOD> <route template>` with `http.route`, when the request matched a route
 * (the HTTP instrumentation alone names it by the method only). Called as the response closes, so a
 * request refused by a guard or a pipe is named too.
 */
export function nameServerSpan(span: Span, request: IncomingMessage): void {
  const route = routeTemplateOf(request);
  if (route === undefined) return;
  span.updateName(`${request.method ?? 'GET'} ${route}`);
  span.setAttribute('http.route', route);
}
