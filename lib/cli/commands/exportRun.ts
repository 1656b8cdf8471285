import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Command } from 'commander';
import { apiTargetFrom } from '../apiClient.js';
import { CliError } from '../cliError.js';
import { usageErrorsExit2 } from './cliOptions.js';

interface ExportOptions {
  parquet?: string;
  url?: string;
  key?: string;
}

/** `evalp export RUN --parquet FILE`: the run's analytics table (GET /api/v1/runs/{id}/analytics). */
export function exportCommand(): Command {
  return usageErrorsExit2(
    new Command('export')
      .description(
        "write a finished run's scorecards as the flat analytics table (Parquet, one row per case and trial; docs/analytics-export.md)",
      )
      .argument('<runId>', 'the run to export')
      .requiredOption('--parquet <file>', 'write the Parquet file here (directories are created)')
      .option('--url <url>', 'platform URL (env EVALP_URL, default http://127.0.0.1:7071)')
      .option('--key <key>', 'API key (env EVALP_API_KEY)'),
  ).action(async (runId: string, opts: ExportOptions) => {
    const target = apiTargetFrom(opts);
    const path = `v1/runs/${encodeURIComponent(runId)}/analytics`;
    let res: Response;
    try {
      res = await fetch(`${target.url}/api/${path}`, { headers: target.key ? { authorization: `Bearer ${target.key}` } : {} });
    } catch (err) {
      throw new CliError(`cannot reach ${target.url} (${(err as Error).message}); is the platform running (evalp start)?`);
    }
    if (!res.ok) {
      const text = await res.text();
      let detail = text;
      try {
        detail = (JSON.parse(text) as { detail?: string }).detail ?? text;
      } catch {
        // not problem+json
      }
      throw new CliError(`GET ${path} answered ${res.status}: ${detail}`);
    }
    const bytes = new Uint8Array(await res.arrayBuffer());
    const file = opts.parquet!;
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, bytes);
    process.stderr.write(
      `wrote ${file} (${res.headers.get('x-row-count') ?? '?'} rows, schema_version ${res.headers.get('x-schema-version') ?? '?'}, ${bytes.byteLength} bytes)\n`,
    );
  });
}
