import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Command } from 'commander';
import { REPORT_FORMATS, REPORT_MEDIA, type ReportFormat } from '../../reports/index.js';
import { apiTargetFrom, type ApiTarget } from '../apiClient.js';
import { CliError } from '../cliError.js';
import { usageErrorsExit2 } from './cliOptions.js';

interface ReportOptions {
  format: string;
  out?: string;
  outDir?: string;
  compare?: string;
  maxFailures?: string;
  url?: string;
  key?: string;
}

export function reportCommand(): Command {
  return usageErrorsExit2(
    new Command('report')
      .description(
        'write the report of a run (GET /api/v1/runs/{id}/report): json, markdown, html or junit; --compare adds the comparison with a base run',
      )
      .argument('<runId>', 'the run to report on')
      .option('--format <formats>', `one of ${REPORT_FORMATS.join(', ')}; several, comma-separated, with --out-dir`, 'markdown')
      .option('--out <file>', 'write the report to this file (default: stdout)')
      .option('--out-dir <dir>', 'write report.<ext> for each --format into this directory')
      .option('--compare <baseRunId>', 'compare with this base run')
      .option('--max-failures <n>', 'failing and flipped cases listed (all are counted; default 100)')
      .option('--url <url>', 'platform URL (env EVALP_URL, default http://127.0.0.1:7071)')
      .option('--key <key>', 'API key (env EVALP_API_KEY)'),
  ).action(async (runId: string, opts: ReportOptions) => {
    const formats = opts.format.split(',').map((f) => f.trim());
    const bad = formats.filter((f) => !(REPORT_FORMATS as readonly string[]).includes(f));
    if (bad.length || formats.length === 0) throw new CliError(`--format must be ${REPORT_FORMATS.join(', ')} (got "${opts.format}")`);
    if (formats.length > 1 && !opts.outDir) throw new CliError('several formats need --out-dir');
    if (opts.out && opts.outDir) throw new CliError('give --out or --out-dir, not both');
    if (opts.maxFailures !== undefined && !/^\d+$/.test(opts.maxFailures)) throw new CliError('--max-failures must be a whole number');
    const target = apiTargetFrom(opts);
    for (const format of formats as ReportFormat[]) {
      const query = new URLSearchParams({
        format,
        ...(opts.compare ? { compare: opts.compare } : {}),
        ...(opts.maxFailures ? { max_failures: opts.maxFailures } : {}),
      });
      const body = await fetchReport(target, `v1/runs/${encodeURIComponent(runId)}/report?${query}`);
      const file = opts.outDir ? join(opts.outDir, `report.${REPORT_MEDIA[format].extension}`) : opts.out;
      if (!file) {
        process.stdout.write(body);
        continue;
      }
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, body);
      process.stderr.write(`wrote ${file} (${format}, ${Buffer.byteLength(body)} bytes)\n`);
    }
  });
}

/** GET a report as text; problem+json answers become CliErrors with the detail (exit 2). */
export async function fetchReport(target: ApiTarget, path: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(`${target.url}/api/${path}`, { headers: target.key ? { authorization: `Bearer ${target.key}` } : {} });
  } catch (err) {
    throw new CliError(`cannot reach ${target.url} (${(err as Error).message}); is the platform running (evalp start)?`);
  }
  const text = await res.text();
  if (res.ok) return text;
  let detail = text;
  try {
    const problem = JSON.parse(text) as { detail?: string; errors?: Array<{ path: string; message: string }> };
    detail = `${problem.detail ?? text}${problem.errors?.length ? `\n${problem.errors.map((e) => `  ${e.path}: ${e.message}`).join('\n')}` : ''}`;
  } catch {
    // not problem+json: keep the text
  }
  throw new CliError(`GET ${path.split('?')[0]} answered ${res.status}: ${detail}`);
}
