import { basename } from 'node:path';
import { CaseQueryError, parseCaseQuery, printCaseQuery, type SuiteVersion, type TestSuite } from '../../domain/index.js';
import type { ApiClient } from '../apiClient.js';
import { CliError } from '../cliError.js';
import { rejected } from './cases/importCases.js';
import { formatOf, readGoldFile } from './cases/readGoldFile.js';

/**
 * `submit --batch-file cases.json|.jsonl|.csv`: the file is checked with the platform's importers (a bad row stops
 * everything, naming row and field), then sent as an ad-hoc suite (`POST /api/v1/test-suites/adhoc`): not into the
 * gold set, published as the suite's version 1, which the run pins.
 */
export async function submitBatchFile(api: ApiClient, file: string): Promise<{ suite: TestSuite; version: SuiteVersion }> {
  const format = formatOf(file, undefined, false);
  if (format === 'bfcl') throw new CliError(`--batch-file ${file}: a JSON, JSON Lines or CSV file of test cases`);
  const local = await readGoldFile({ file, format }, { partial: false, source: `batch:${basename(file)}` });
  if (local.errors.length > 0 || local.cases.length === 0) throw rejected(file, local, false);
  return api.request('POST', 'v1/test-suites/adhoc', { source: basename(file), cases: local.cases });
}

/** `submit --query TEXT`: checked here (the error points at the position), sent as the run's `query` in canonical form. */
export function checkedQuery(text: string): string {
  try {
    return printCaseQuery(parseCaseQuery(text));
  } catch (err) {
    if (err instanceof CaseQueryError) throw new CliError(`--query: ${err.message.replace(/^query: /, '')}`);
    throw err;
  }
}
