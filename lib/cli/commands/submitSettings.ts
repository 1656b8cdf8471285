import { EvaluationProfileSchema, SemanticsConfigSchema } from '../../domain/index.js';
import { cliSettings } from '../cliConfig.js';
import { CliError } from '../cliError.js';

/**
 * The stage profile and judge settings `evalp submit` sends: environment (`EVALP_PROFILE`, `EVALP_JUDGE`,
 * `EVALP_JUDGE_MODEL`, `EVALP_JUDGE_PASS_THRESHOLD`) > flags (`--profile`, `--judge`, `--judge-model`) >
 * evalplatform.config.yaml (`clients.<client>.*`, then the top level) > nothing (the platform's defaults and the
 * client's overrides apply). A value that is not valid names where it came from.
 */
export function submitSettings(opts: { profile?: string; judge?: string; judgeModel?: string; client?: string }): {
  profile?: string;
  semantics?: { judge?: 'local' | 'openai'; model?: string; pass_threshold?: number };
} {
  const settings = cliSettings({
    flags: { '--profile': opts.profile, '--judge': opts.judge, '--judge-model': opts.judgeModel },
    ...(opts.client ? { client: opts.client } : {}),
  });
  const checked = <T>(key: string, parse: (v: unknown) => { success: boolean; data?: T }): T | undefined => {
    const value = settings.get(key);
    if (value === undefined) return undefined;
    const r = parse(value);
    if (!r.success) throw new CliError(`${key} from ${settings.sourceOf(key)}: "${String(value)}" is not valid`);
    return r.data;
  };
  const profile = checked('profile', (v) => EvaluationProfileSchema.safeParse(v));
  const judge = checked('judge.kind', (v) => SemanticsConfigSchema.shape.judge.safeParse(v));
  const model = checked('judge.model', (v) => ({ success: typeof v === 'string' && v.length > 0, data: String(v) }));
  const passThreshold = checked('judge.pass_threshold', (v) => SemanticsConfigSchema.shape.pass_threshold.safeParse(v));
  const semantics = {
    ...(judge ? { judge } : {}),
    ...(model ? { model } : {}),
    ...(passThreshold !== undefined ? { pass_threshold: passThreshold } : {}),
  };
  return { ...(profile ? { profile } : {}), ...(Object.keys(semantics).length > 0 ? { semantics } : {}) };
}
