import { readFile } from 'node:fs/promises';
import { EvaluationConfigOverridesSchema } from '../../domain/index.js';
import { CliError } from '../cliError.js';

/**
 * `submit --config FILE`: a run's evaluation config as JSON (what `POST /api/v1/runs` takes as `config`), checked
 * here so a mistake names the file and the field before anything is sent.
 */
export async function readRunConfig(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new CliError(`--config ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new CliError(`--config ${file}: not valid JSON (${(err as Error).message})`);
  }
  const overrides = EvaluationConfigOverridesSchema.safeParse(json);
  if (!overrides.success) {
    throw new CliError(
      `--config ${file}: ${overrides.error.issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`).join('; ')}`,
    );
  }
  return overrides.data as Record<string, unknown>;
}
