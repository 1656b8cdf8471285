import type { Command } from 'commander';
import type { ProbeResult } from '../../api/index.js';
import {
  clientFor,
  processIO,
  resourceCommand,
  table,
  wholeNumber,
  withConnection,
  type CommandIO,
  type ConnectionOptions,
} from './resourceCommands.js';

/** A probe result for people: the verdict line, the parsed calls, the answer or the error. */
export function probeText(r: ProbeResult): string {
  const attempts = `${r.attempts} attempt${r.attempts === 1 ? '' : 's'}`;
  const lines = [
    r.ok
      ? `target ${r.target_id}: ok in ${Math.round(r.latency_ms)} ms (${attempts})`
      : `target ${r.target_id}: FAILED ${r.status}${r.http_status !== null ? ` (HTTP ${r.http_status})` : ''} after ${Math.round(r.latency_ms)} ms (${attempts})`,
    `question: ${r.question}`,
  ];
  if (r.parsed) {
    lines.push(`format: ${r.parsed.format}`);
    if (r.parsed.calls.length > 0)
      lines.push(
        table(
          ['tool', 'arguments'],
          r.parsed.calls.map((c) => [c.tool_name, JSON.stringify(c.arguments)]),
        ),
      );
    else lines.push('calls: none');
    lines.push(`answer: ${r.parsed.answer ?? '-'}`);
  }
  if (r.error) lines.push(`error: ${r.error}`);
  return `${lines.join('\n')}\n`;
}

/** `evalp targets list|get|create --file|test ID [--question]|delete`. */
export function targetsCommand(io: CommandIO = processIO): Command {
  const cmd = resourceCommand(
    {
      name: 'targets',
      description: 'manage target systems (secrets only as {"env": "NAME"} or {"keyvault": "name"} references)',
      noun: 'target system',
      collection: 'v1/target-systems',
      columns: [
        ['id', (t) => String(t.id)],
        ['name', (t) => String(t.name)],
        ['kind', (t) => String((t.settings as { kind: string }).kind)],
        [
          'tool catalog',
          (t) => (t.tool_catalog ? `${(t.tool_catalog as { name: string }).name}@${(t.tool_catalog as { version: string }).version}` : '-'),
        ],
        ['client type', (t) => String(t.client_type)],
        ['updated', (t) => String(t.updated_at)],
      ],
    },
    io,
  );
  withConnection(
    cmd.command('test').description('send one probe request to a target and show what came back (exit 1 when it failed)').argument('<id>'),
  )
    .option('--question <text>', 'the question to send (default: a generic one)')
    .option('--case <testCaseId>', 'send this stored test case (replay targets answer only for recorded case ids)')
    .option('--timeout-ms <n>', 'give up after this long (default 60000)')
    .action(async (id: string, opts: ConnectionOptions & { question?: string; case?: string; timeoutMs?: string }) => {
      const timeout = wholeNumber(opts.timeoutMs, '--timeout-ms');
      const body = {
        ...(opts.question ? { question: opts.question } : {}),
        ...(opts.case ? { test_case_id: opts.case } : {}),
        ...(timeout !== undefined ? { timeout_ms: timeout } : {}),
      };
      const result = await clientFor(opts).request<ProbeResult>('POST', `v1/target-systems/${encodeURIComponent(id)}/test`, body);
      io.out(opts.json ? `${JSON.stringify(result, null, 2)}\n` : probeText(result));
      if (!result.ok) io.setExitCode(1);
    });
  return cmd;
}
