/**
 * Runnable host: `tsx lib/host/cli-entry.ts --entry <module> --data-dir <dir> --port <n>`.
 * Prints `{"event":"ready","url":...}` on stdout once serving; logs go to stderr as JSON lines.
 */
import { runHostCli } from './cli.js';

try {
  await runHostCli(process.argv.slice(2));
} catch (error) {
  const code = error instanceof Error && 'code' in error ? String(error.code) : '';
  if (code === 'commander.helpDisplayed') {
    process.exitCode = 0;
  } else {
    // commander has already printed its own usage errors
    if (!code.startsWith('commander.')) {
      process.stderr.write(`${JSON.stringify({ event: 'failed', error: error instanceof Error ? error.message : String(error) })}\n`);
    }
    process.exitCode = 1;
  }
}
