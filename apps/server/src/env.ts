/** The server's configuration, read once from the environment and validated. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '../../..');

const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().default(path.join(repoRoot, 'data')),
  PG_DATA_DIR: z.string().optional(),
  PG_PORT: z.coerce.number().int().min(0).max(65535).default(54329),
  APP_ORIGIN: z.string().optional(),
  COOKIE_SECURE: flag,
  TRUST_PROXY: flag,
  RATE_LIMIT_SCALE: z.coerce.number().positive().default(1),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().default(path.join(repoRoot, 'apps/web/dist')),
  SEED_DEMO: z.enum(['0', '1']).default('1'),
  /** smtp://user:pass@host:port (or smtps://); unset: reset codes are logged on the console */
  SMTP_URL: z
    .string()
    .optional()
    .transform((v) => v?.trim() || undefined)
    .refine((v) => v === undefined || /^smtps?:\/\//.test(v), 'Must start with smtp:// or smtps://'),
  MAIL_FROM: z
    .string()
    .optional()
    .transform((v) => v?.trim() || undefined),
});

export type Env = z.infer<typeof envSchema>;

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  return parsed.data;
}

/** What buildApp needs; tests pass it directly. */
export interface AppConfig {
  /** Extra origins allowed to send state-changing requests (the request's own origin always is). */
  allowedOrigins: string[];
  cookieSecure: boolean;
  trustProxy: boolean;
  rateLimitScale: number;
  logLevel: Env['LOG_LEVEL'];
  /** Built web app to serve, or null (API only). */
  webDist: string | null;
}
