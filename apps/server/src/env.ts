/** The server's configuration, read once from the environment and validated. */
import { BlockList, isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LinkPreviewSettings, loadOrCreateVapidKeys, type PushSettings } from '@cubes/api';
import { createLocalStorage, createS3Storage, loadOrCreateSecret, type StorageDriver } from '@cubes/storage';
import { z } from 'zod';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '../../..');

const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true');

/**
 * Which proxies' X-Forwarded-* headers to believe: `false` none, a number the hops of proxies in
 * front of the server (1: one reverse proxy; the client's address is the last one it appended),
 * or the proxies' addresses and CIDR ranges (also `loopback`, `linklocal`, `uniquelocal`).
 */
export type TrustProxy = false | number | string[];

const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address, a CIDR range (address/prefix length) or one of proxy-addr's named ranges. */
function isProxyAddress(value: string): boolean {
  if (PROXY_RANGE_NAMES.has(value)) return true;
  const [address = '', prefix, ...rest] = value.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

const TRUST_PROXY_HELP =
  'set the number of proxies in front of the server (1 for one reverse proxy), or their addresses/CIDRs separated by commas; 0 or false trusts none';

const trustProxy = z
  .string()
  .optional()
  .transform((value, ctx): TrustProxy => {
    const v = value?.trim() ?? '';
    if (v === '' || v === '0' || v === 'false') return false;
    if (/^\d+$/.test(v)) {
      const hops = Number(v);
      if (hops <= 100) return hops;
    } else if (v === 'true') {
      ctx.addIssue({ code: 'custom', message: `"true" would trust every hop: ${TRUST_PROXY_HELP}` });
      return z.NEVER;
    } else {
      const entries = v.split(',').map((entry) => entry.trim());
      const wrong = entries.find((entry) => !isProxyAddress(entry));
      if (wrong === undefined) return entries;
      ctx.addIssue({
        code: 'custom',
        message: `"${wrong}" is not a hop count, an IP address or a CIDR range: ${TRUST_PROXY_HELP}`,
      });
      return z.NEVER;
    }
    ctx.addIssue({ code: 'custom', message: `"${v}" is too many hops: ${TRUST_PROXY_HELP}` });
    return z.NEVER;
  });

/**
 * Fastify's `trustProxy` for a TrustProxy. A hop count becomes a function trusting that many
 * hops from the socket, as Express counts them: Fastify given a number trusts no X-Forwarded-*
 * header at all. (A hop count cannot tell a proxy from a client that reaches the server
 * directly: the server must be reachable only through its proxies; otherwise give addresses.)
 */
export function fastifyTrustProxy(
  value: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (value === false || value === 0) return false;
  if (typeof value !== 'number') return value.length === 0 ? false : value;
  return (_address, hop) => hop < value;
}

/** Networks a listening address may be on for TRUST_PROXY to be safe: loopback and private ones. */
const PRIVATE_NETWORKS = new BlockList();
for (const [network, prefix] of [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
] as const) {
  PRIVATE_NETWORKS.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  PRIVATE_NETWORKS.addSubnet(network, prefix, 'ipv6');
}

/**
 * Whether a listening address is reachable only from this machine or a private network:
 * loopback, the RFC 1918 ranges, link-local, IPv6 unique local (also as IPv4-mapped IPv6), and
 * `localhost`. The wildcards (0.0.0.0, ::) and public addresses are not.
 */
export function isLoopbackOrPrivate(address: string): boolean {
  const host = address.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (host === 'localhost') return true;
  const ip = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host)?.[1] ?? host;
  const version = isIP(ip);
  return version !== 0 && PRIVATE_NETWORKS.check(ip, version === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The warning to log when TRUST_PROXY believes X-Forwarded-For and the app listens on an address
 * that is neither loopback nor private (`addresses`: where it listens): a client that reaches the
 * port directly, not through the proxy, picks the address the app sees for it (rate limits, the
 * log) with one header. Null when there is nothing to say.
 */
export function trustProxyExposure(trustProxy: TrustProxy, addresses: readonly string[]): string | null {
  if (fastifyTrustProxy(trustProxy) === false) return null;
  const exposed = addresses.filter((address) => !isLoopbackOrPrivate(address));
  if (exposed.length === 0) return null;
  return (
    `TRUST_PROXY is set and the app listens on ${exposed.join(', ')}, neither a loopback nor a private address: ` +
    'a client that reaches this port directly, not through the proxy, picks the IP address the app sees ' +
    '(rate limits, logs) with one X-Forwarded-For header. Bind HOST to the network only the proxy reaches ' +
    '(docs/operations.md)'
  );
}

const optionalString = z
  .string()
  .optional()
  .transform((v) => v?.trim() || undefined);

/**
 * Settings for tests only: they slow the offline assistant or an export down (to watch or stop
 * them midway) or let push endpoints reach this machine's network (a local push service). A
 * production start logs a warning naming each one that is set (`testSettingsWarning`).
 */
const testOnlySettings = {
  /** Pause between the offline assistant's streamed words (e2e tests slow it down) */
  CUBEY_OFFLINE_DELAY_MS: z.coerce.number().int().min(0).max(10_000).default(12),
  /** Pause before the offline assistant's first word (e2e tests show 'Thinking...') */
  CUBEY_OFFLINE_THINK_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  /** A pause after each section of an export's archive (tests slow builds down to stop them midway) */
  EXPORT_STEP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  /** Push endpoints on http: and private addresses (a local push service) are accepted */
  PUSH_ALLOW_PRIVATE_ENDPOINTS: flag,
  /** Link cards may fetch pages on http: and private addresses (a local page in tests) */
  LINK_PREVIEW_ALLOW_PRIVATE: flag,
};

/** The names of the test-only settings. */
export const TEST_ONLY_SETTINGS = Object.keys(testOnlySettings) as (keyof typeof testOnlySettings)[];

/**
 * The warning a production start logs when test-only settings are set in `source` (the raw
 * environment: a flag set to 0 or false is not set), naming them; null otherwise.
 */
export function testSettingsWarning(nodeEnv: Env['NODE_ENV'], source: NodeJS.ProcessEnv): string | null {
  if (nodeEnv !== 'production') return null;
  const set = TEST_ONLY_SETTINGS.filter((name) => {
    const value = source[name]?.trim();
    return (
      value !== undefined &&
      value !== '' &&
      !(
        (name === 'PUSH_ALLOW_PRIVATE_ENDPOINTS' || name === 'LINK_PREVIEW_ALLOW_PRIVATE') &&
        /^(0|false)$/.test(value)
      )
    );
  });
  if (set.length === 0) return null;
  return (
    `test-only settings are set in production: ${set.join(', ')}. They slow answers and exports down ` +
    'or let push and link card requests reach this network; unset them (docs/configuration.md#test-only-settings)'
  );
}

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    /** How many app processes to run on PORT, PORT+1, … sharing one database (INSTANCES=2 npm start) */
    INSTANCES: z.coerce.number().int().min(1).max(16).default(1),
    /**
     * Prometheus metrics on 127.0.0.1:METRICS_PORT (/metrics), instance i of INSTANCES on
     * METRICS_PORT+i-1; 0 turns the listener off. Never served on the public PORT.
     */
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
    /**
     * On SIGTERM, how long the server keeps serving with readiness off before it stops accepting
     * connections: time for a load balancer polling /api/ready to take it out. Ctrl+C skips it.
     */
    SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
    DATABASE_URL: z.string().optional(),
    /** A read replica of the database for heavy reads (feed pages past the first, search, gallery, profiles) */
    DATABASE_READ_URL: optionalString,
    DATA_DIR: z.string().default(path.join(repoRoot, 'data')),
    PG_DATA_DIR: z.string().optional(),
    PG_PORT: z.coerce.number().int().min(0).max(65535).default(54329),
    APP_ORIGIN: z.string().optional(),
    /**
     * The site's public address (`https://cubes.example`): the origin of permalinks, feeds, the
     * sitemap and link previews. Unset: the first APP_ORIGIN, else each request's own origin.
     */
    PUBLIC_URL: optionalString.refine(
      (v) => v === undefined || /^https?:\/\/[^/?#\s]+\/?$/.test(v),
      'Must be an http(s) origin, like https://cubes.example',
    ),
    COOKIE_SECURE: flag,
    /** Proxies whose X-Forwarded-* to believe: a hop count (1) or addresses/CIDRs (TrustProxy) */
    TRUST_PROXY: trustProxy,
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
    /** HMAC secret of local upload URLs; unset: generated once into DATA_DIR/upload-secret (mode 600) */
    UPLOAD_SIGNING_SECRET: optionalString.refine(
      (v) => v === undefined || v.length >= 32,
      'Must be at least 32 characters',
    ),
    /** S3 storage when S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY and S3_SECRET_KEY are all set */
    S3_ENDPOINT: optionalString.refine(
      (v) => v === undefined || /^https?:\/\//.test(v),
      'Must be an http(s) URL',
    ),
    S3_BUCKET: optionalString,
    S3_ACCESS_KEY: optionalString,
    S3_SECRET_KEY: optionalString,
    S3_REGION: z.string().default('us-east-1'),
    /** The endpoint browsers upload to, when it differs from S3_ENDPOINT (e.g. behind a proxy) */
    S3_PUBLIC_ENDPOINT: optionalString.refine(
      (v) => v === undefined || /^https?:\/\//.test(v),
      'Must be an http(s) URL',
    ),
    /** Web push's VAPID key pair (base64url); unset: generated once into DATA_DIR/vapid.json (mode 600) */
    VAPID_PUBLIC_KEY: optionalString,
    VAPID_PRIVATE_KEY: optionalString,
    /** The operator's contact that push services see in the VAPID token: mailto: or https: */
    VAPID_SUBJECT: z
      .string()
      .default('mailto:postmaster@localhost')
      .refine((v) => /^(mailto:|https:\/\/)/.test(v), 'Must start with mailto: or https://'),
    /** Cubey's model: an OpenAI-compatible endpoint (…/v1); unset: the built-in offline assistant */
    CUBEY_BASE_URL: optionalString.refine(
      (v) => v === undefined || /^https?:\/\//.test(v),
      'Must be an http(s) URL',
    ),
    CUBEY_API_KEY: optionalString,
    CUBEY_MODEL: z.string().default('gpt-4o-mini'),
    /** Longest wait for a model's answer to start, and between two pieces of it */
    CUBEY_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    /** Tokens of system prompt and history sent with each request */
    CUBEY_CONTEXT_TOKENS: z.coerce.number().int().min(256).max(1_000_000).default(4_000),
    /** A member's Cubey tokens a UTC day; 0: unlimited; unset: 50,000 with a model, unlimited offline */
    CUBEY_DAILY_TOKENS: z.coerce.number().int().min(0).max(1_000_000_000).optional(),
    /** A member's Cubey answers running at once, on all instances; 0: no limit */
    CUBEY_MAX_RUNNING: z.coerce.number().int().min(0).max(1000).default(2),
    /** Rounds of tool calls a model's answer may make; 0 offers the model no tools */
    CUBEY_TOOL_ROUNDS: z.coerce.number().int().min(0).max(20).default(5),
    /** How often each instance polls each job queue (seconds, at least 0.5) */
    JOBS_POLL_SECONDS: z.coerce.number().min(0.5).max(60).default(2),
    /** How often one instance expires jobs whose process died, and archives old ones (seconds) */
    JOBS_MAINTENANCE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
    /** The period of the upload sweep, the export expiry and the held-username release (seconds) */
    JOBS_SWEEP_SECONDS: z.coerce.number().int().min(1).max(43_200).default(3600),
    /** An export build still running after this long counts as dead and is retried (seconds) */
    EXPORT_JOB_EXPIRE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
    /** A running export build's heartbeat; a build silent for 4 of them is taken over (ms) */
    EXPORT_HEARTBEAT_MS: z.coerce.number().int().min(50).max(60_000).default(5_000),
    /** Wait before an export build's retry (seconds) */
    EXPORT_RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
    ...testOnlySettings,
  })
  .superRefine((env, ctx) => {
    const s3 = [env.S3_ENDPOINT, env.S3_BUCKET, env.S3_ACCESS_KEY, env.S3_SECRET_KEY];
    if (s3.some(Boolean) && !s3.every(Boolean)) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_ENDPOINT'],
        message: 'Set all of S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY and S3_SECRET_KEY, or none',
      });
    }
    if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: ['VAPID_PUBLIC_KEY'],
        message: 'Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither',
      });
    }
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
  trustProxy: TrustProxy;
  rateLimitScale: number;
  logLevel: Env['LOG_LEVEL'];
  /** Built web app to serve, or null (API only). */
  webDist: string | null;
  /** The origin of absolute links (PUBLIC_URL); null: each request's own origin. */
  publicUrl?: string | null;
  /** Cubey's provider settings; by default the offline assistant. */
  cubey?: CubeyConfig;
  /** Web push's keys and endpoint rules; by default a key pair made for this process only. */
  push?: PushSettings;
  /** Link cards' fetch rules; by default public addresses only. */
  linkPreviews?: LinkPreviewSettings;
}

/** The origin of absolute links: PUBLIC_URL, else the first APP_ORIGIN, else null (the request's). */
export function publicUrlOf(env: Env): string | null {
  const first = env.PUBLIC_URL ?? env.APP_ORIGIN?.split(',')[0]?.trim();
  return first ? first.replace(/\/$/, '') : null;
}

/** The VAPID keys (VAPID_* or DATA_DIR/vapid.json) and the push endpoint rules. */
export function pushConfig(env: Env): PushSettings {
  const keys = loadOrCreateVapidKeys(path.join(env.DATA_DIR, 'vapid.json'), {
    ...(env.VAPID_PUBLIC_KEY ? { publicKey: env.VAPID_PUBLIC_KEY } : {}),
    ...(env.VAPID_PRIVATE_KEY ? { privateKey: env.VAPID_PRIVATE_KEY } : {}),
  });
  return { ...keys, subject: env.VAPID_SUBJECT, allowPrivateEndpoints: env.PUSH_ALLOW_PRIVATE_ENDPOINTS };
}

/** An OpenAI-compatible model when `baseUrl` is set, otherwise the offline assistant. */
export interface CubeyConfig {
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
  model?: string;
  timeoutMs?: number;
  contextTokens?: number;
  offlineDelayMs?: number;
  offlineThinkMs?: number;
  /** Fair use: tokens a member a UTC day (0: unlimited), answers running at once (0: no limit). */
  dailyTokens?: number | undefined;
  maxRunning?: number;
  /** Rounds of tool calls an answer may make (0: no tools). */
  toolRounds?: number;
  /** How often a growing answer is saved (ms, bytes); tests make it small. */
  flushMs?: number;
  flushBytes?: number;
  /** A running answer's heartbeat, and how old one may get before any instance ends the answer. */
  heartbeatMs?: number;
  staleMs?: number;
  sweepMs?: number;
  /** Tests: the stale-answer sweep's clock (cubey.runtime.ts); default the database's now(). */
  sweepClock?: () => Date;
}

export function cubeyConfig(env: Env): CubeyConfig {
  return {
    baseUrl: env.CUBEY_BASE_URL,
    apiKey: env.CUBEY_API_KEY,
    model: env.CUBEY_MODEL,
    timeoutMs: env.CUBEY_TIMEOUT_MS,
    contextTokens: env.CUBEY_CONTEXT_TOKENS,
    offlineDelayMs: env.CUBEY_OFFLINE_DELAY_MS,
    offlineThinkMs: env.CUBEY_OFFLINE_THINK_MS,
    dailyTokens: env.CUBEY_DAILY_TOKENS,
    maxRunning: env.CUBEY_MAX_RUNNING,
    toolRounds: env.CUBEY_TOOL_ROUNDS,
  };
}

/** The job runner's timings (jobs.queue.ts, jobs.handlers.ts); the defaults suit production. */
export interface JobsConfig {
  pollSeconds: number;
  maintenanceSeconds: number;
  sweepSeconds: number;
  exports: {
    expireInSeconds: number;
    heartbeatMs: number;
    retryDelaySeconds: number;
    stepDelayMs: number;
  };
}

export function jobsConfig(env: Env): JobsConfig {
  return {
    pollSeconds: env.JOBS_POLL_SECONDS,
    maintenanceSeconds: env.JOBS_MAINTENANCE_SECONDS,
    sweepSeconds: env.JOBS_SWEEP_SECONDS,
    exports: {
      expireInSeconds: env.EXPORT_JOB_EXPIRE_SECONDS,
      heartbeatMs: env.EXPORT_HEARTBEAT_MS,
      retryDelaySeconds: env.EXPORT_RETRY_DELAY_SECONDS,
      stepDelayMs: env.EXPORT_STEP_DELAY_MS,
    },
  };
}

/** S3 when configured, otherwise files under DATA_DIR/objects with HMAC-signed upload URLs. */
export function createStorage(env: Env): StorageDriver {
  if (env.S3_ENDPOINT && env.S3_BUCKET && env.S3_ACCESS_KEY && env.S3_SECRET_KEY) {
    return createS3Storage({
      endpoint: env.S3_ENDPOINT,
      bucket: env.S3_BUCKET,
      accessKey: env.S3_ACCESS_KEY,
      secretKey: env.S3_SECRET_KEY,
      region: env.S3_REGION,
      ...(env.S3_PUBLIC_ENDPOINT ? { publicEndpoint: env.S3_PUBLIC_ENDPOINT } : {}),
    });
  }
  return createLocalStorage({
    root: path.join(env.DATA_DIR, 'objects'),
    secret: loadOrCreateSecret(path.join(env.DATA_DIR, 'upload-secret'), env.UPLOAD_SIGNING_SECRET),
  });
}
