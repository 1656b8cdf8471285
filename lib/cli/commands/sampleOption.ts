import { SampleSpecSchema, SuiteVersionRefSchema, type SampleSpec, type SuiteVersionRef } from '../../domain/index.js';
import { CliError } from '../cliError.js';

/**
 * `submit --sample SPEC`: `200` (cases) or `0.1` (a rate), optionally `:category|complexity|tag` to stratify and
 * `:equal` for equal allocation, e.g. `0.1:category`, `300:tag:equal`; `--seed` sets the seed (default 42).
 */
export function parseSampleOption(text: string, seed: string | undefined): SampleSpec {
  const [amount, by, allocation, ...rest] = text.split(':');
  const n = Number(amount);
  if (!amount || !Number.isFinite(n) || n <= 0 || rest.length)
    throw new CliError(`--sample "${text}": a case count (200) or a rate (0.1), then optionally :category|complexity|tag and :equal`);
  const parsed = SampleSpecSchema.safeParse({
    ...(Number.isInteger(n) && n >= 1 && !amount.includes('.') ? { size: n } : { rate: n }),
    ...(by ? { method: 'stratified', stratify_by: by } : {}),
    ...(allocation ? { allocation } : {}),
    ...(seed !== undefined ? { seed: Number(seed) } : {}),
  });
  if (!parsed.success)
    throw new CliError(`--sample "${text}": ${parsed.error.issues.map((i) => `${i.path.join('.') || 'sample'}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** `submit --suite-version N|latest|live`. */
export function parseSuiteVersionOption(text: string): SuiteVersionRef {
  const parsed = SuiteVersionRefSchema.safeParse(/^\d+$/.test(text) ? Number(text) : text);
  if (!parsed.success) throw new CliError(`--suite-version "${text}": a published version number, "latest" or "live"`);
  return parsed.data;
}
