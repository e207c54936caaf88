import Module from 'node:module';

/**
 * Jest's globalSetup runs outside the test runtime, without `moduleNameMapper`: map the `.js` suffix
 * of relative imports (NodeNext style) back to the TypeScript source, as the mapper does in tests.
 */
type Resolve = (request: string, ...rest: unknown[]) => string;
const moduleWithResolver = Module as unknown as { _resolveFilename: Resolve };
const original = moduleWithResolver._resolveFilename;
moduleWithResolver._resolveFilename = function (request: string, ...rest: unknown[]): string {
  try {
    return original.call(this, request, ...rest);
  } catch (error) {
    if (request.startsWith('.') && request.endsWith('.js'))
      return original.call(this, request.slice(0, -3), ...rest);
    throw error;
  }
};
