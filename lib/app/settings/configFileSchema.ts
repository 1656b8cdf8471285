import { z } from 'zod';
import { EvaluationProfileSchema } from '../../domain/index.js';

const Url = z.url();
const Connection = z.object({ url: Url.optional(), key: z.string().min(1).optional() }).strict();

/** The judge of stage 4 (a run's `semantics`) and the credentials of its provider (platform settings). */
const Judge = z
  .object({
    /** `local` (the offline heuristic) or `openai` (OpenAI / Azure OpenAI as judge): a run's semantics.judge */
    kind: z.enum(['local', 'openai']).optional(),
    model: z.string().min(1).optional(),
    pass_threshold: z.number().min(0).max(1).optional(),
    openai: z
      .object({ api_key: z.string().min(1).optional(), base_url: Url.optional() })
      .strict()
      .optional(),
    azure_openai: z
      .object({
        endpoint: Url.optional(),
        deployment: z.string().min(1).optional(),
        api_version: z.string().min(1).optional(),
        api_key: z.string().min(1).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/**
 * Gates of the CLI (`evaluate --fail-under`, `wait --fail-on`). Regression thresholds of alerts are a client's own
 * (`thresholds` on the client, through the API), not a file setting: the file configures callers, not the platform's
 * alert checks.
 */
const Thresholds = z
  .object({
    fail_under: z.number().min(0).max(1).optional(),
    fail_on: z.enum(['low', 'medium', 'high', 'critical', 'warning', 'never']).optional(),
  })
  .strict();

const Notifications = z
  .object({
    /** where the dashboard answers, for links in e-mails and webhooks (EVALP_PUBLIC_URL) */
    public_url: Url.optional(),
    email: z
      .object({
        from: z.email().optional(),
        /** also e-mail the client's addresses when one of its runs finishes (alerts are always e-mailed) */
        run_finished: z.boolean().optional(),
        smtp: z
          .object({
            host: z.string().min(1).optional(),
            port: z.number().int().min(1).max(65535).optional(),
            secure: z.boolean().optional(),
            user: z.string().min(1).optional(),
            password: z.string().min(1).optional(),
          })
          .strict()
          .optional(),
        acs: z
          .object({ endpoint: Url.optional(), connection_string: z.string().min(1).optional() })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
    webhook: z
      .object({
        max_retries: z.number().int().nonnegative().optional(),
        retry_delay_ms: z.number().int().nonnegative().optional(),
        timeout_ms: z.number().int().positive().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** What a client may override (`clients.<client id>`): its stage profile, judge and thresholds. */
const ClientOverrides = z
  .object({
    profile: EvaluationProfileSchema.optional(),
    judge: Judge.pick({ kind: true, model: true, pass_threshold: true }).optional(),
    thresholds: Thresholds.optional(),
  })
  .strict();

/**
 * `evalplatform.config.yaml`: what the CLI and the platform read at start (README "Configuration file"). Every key
 * is optional; environment variables and CLI flags override it (environment > flags > file > defaults). The
 * connection file of earlier versions (`{url, key, default_profile, profiles}`) is read too (see `fromLegacy`).
 */
export const ConfigFileSchema = z
  .object({
    connection: Connection.optional(),
    /** named connections (`--connection NAME`, `EVALP_CONNECTION`), `default_connection` the one used otherwise */
    connections: z.record(z.string().min(1), Connection).optional(),
    default_connection: z.string().min(1).optional(),
    /** the stage profile of submitted runs: ci (stages 3-4 off), nightly (all on), release (3 on, 4 off) */
    profile: EvaluationProfileSchema.optional(),
    thresholds: Thresholds.optional(),
    judge: Judge.optional(),
    notifications: Notifications.optional(),
    clients: z.record(z.string().min(1), ClientOverrides).optional(),
  })
  .strict();
export type ConfigFile = z.infer<typeof ConfigFileSchema>;

/** The JSON connection file of earlier versions, read as a config file. */
export const LegacyConnectionFileSchema = Connection.extend({
  default_profile: z.string().min(1).optional(),
  profiles: z.record(z.string().min(1), Connection).optional(),
}).strict();

/** `{url, key, default_profile, profiles}` -> `{connection, default_connection, connections}`. */
export function fromLegacy(legacy: z.infer<typeof LegacyConnectionFileSchema>): ConfigFile {
  const { url, key, default_profile, profiles } = legacy;
  return {
    ...(url || key ? { connection: { ...(url ? { url } : {}), ...(key ? { key } : {}) } } : {}),
    ...(profiles ? { connections: profiles } : {}),
    ...(default_profile ? { default_connection: default_profile } : {}),
  };
}
