import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import { installationDir } from '../common/installation/index.js';

/** Where `npm run build` puts the console (Vite's output). */
export function defaultConsoleDir(): string {
  return join(installationDir(), 'dist', 'console');
}

/** Paths the console never answers: the API, the knowledge MCP endpoint, the metrics route. */
const RESERVED = /^\/(api|mcp|metrics)(\/|$)/;
/** Vite's hashed bundles: a new build gets new names, so a browser may keep these for good. */
const HASHED_ASSETS = /^\/assets\//;

/**
 * The console's responses may run only the bundle's own scripts, talk only to this origin, and are never
 * framed. Inline styles stay allowed: Ant Design Vue writes its component styles into `<style>` tags.
 * Frames (`frame-src blob:`) are the sandboxed previews of HTML the agent wrote.
 */
const CONSOLE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/**
 * Express middleware serving the built console at `/`: files as they are (hashed assets cached for a
 * year), any other GET that is not under a reserved prefix gets `index.html` (the SPA's own routes).
 * Returns null when the console was not built, so the API runs without it.
 */
export function serveConsole(dir: string) {
  const index = join(dir, 'index.html');
  if (!existsSync(index)) return null;
  return (req: Request, res: Response, next: NextFunction): void => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || RESERVED.test(req.path)) return next();
    res.set(CONSOLE_HEADERS);
    const hashed = HASHED_ASSETS.test(req.path);
    const sendIndex = () =>
      res.sendFile('index.html', { root: dir, headers: { 'Cache-Control': 'no-cache' } }, (error) => {
        if (error) next(error);
      });
    if (req.path === '/') return sendIndex();
    res.sendFile(
      req.path,
      { root: dir, dotfiles: 'ignore', ...(hashed ? { maxAge: '1y', immutable: true } : {}) },
      (error?: Error & { status?: number }) => {
        if (!error || res.headersSent) return;
        // A missing bundle is a 404 (never the page, which a browser would try to run as a script).
        if (error.status === 404 && !hashed && !/\.[a-z0-9]+$/i.test(req.path)) return sendIndex();
        res.removeHeader('Content-Security-Policy');
        next();
      },
    );
  };
}
