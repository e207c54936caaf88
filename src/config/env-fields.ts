import { z } from 'zod';

/*
 * The zod parsers of single environment variables, which the configuration schema is built from: each
 * trims the value, applies its default and names what is wrong with it.
 */

export const MB = 1024 * 1024;

export const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();
export const requiredText = z.string().trim().min(1, 'is required');
export const integer = (fallback: number, min: number, max: number) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      if (!/^\d+$/.test(v)) {
        ctx.addIssue({ code: 'custom', message: `must be an integer, got "${v}"` });
        return z.NEVER;
      }
      const n = Number(v);
      if (n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `must be between ${min} and ${max}, got ${n}` });
        return z.NEVER;
      }
      return n;
    });
export const boolean = (fallback: boolean) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      const lower = v.toLowerCase();
      if (['true', '1', 'yes'].includes(lower)) return true;
      if (['false', '0', 'no'].includes(lower)) return false;
      ctx.addIssue({ code: 'custom', message: `must be true or false, got "${v}"` });
      return z.NEVER;
    });
export const url = (protocols: string[], fallback?: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      const value = v === undefined || v === '' ? fallback : v;
      if (value === undefined) {
        ctx.addIssue({ code: 'custom', message: 'is required' });
        return z.NEVER;
      }
      let parsed: URL;
      try {
        parsed = new URL(value);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a URL' });
        return z.NEVER;
      }
      if (!protocols.includes(parsed.protocol)) {
        ctx.addIssue({
          code: 'custom',
          message: `must use ${protocols.map((p) => p.replace(':', '')).join(' or ')}`,
        });
        return z.NEVER;
      }
      return value.replace(/\/+$/, '');
    });
export const aesKey = z
  .string()
  .trim()
  .min(1, 'is required (32 random bytes, base64: `openssl rand -base64 32`)')
  .refine((v) => /^[A-Za-z0-9+/_-]+={0,2}$/.test(v) && Buffer.from(v, 'base64').length === 32, {
    message: 'must be exactly 32 bytes encoded in base64',
  });
