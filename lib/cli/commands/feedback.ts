import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import { ExpectedToolCallSchema, FeedbackInteractionSchema, type FeedbackCandidate, type FeedbackInteraction } from '../../domain/index.js';
import type { ApprovalResult, CandidateEdits, IngestResult } from '../../feedback/index.js';
import { CliError } from '../cliError.js';
import { clientFor, processIO, table, withConnection, type CommandIO, type ConnectionOptions } from './resourceCommands.js';

/** Interactions per request (the route takes at most 1,000). */
const BATCH = 500;

const candidatePath = (id: string, tail = '') => `v1/feedback/candidates/${encodeURIComponent(id)}${tail}`;

/**
 * The interactions of a JSON Lines file, each checked before anything is sent: a bad line is a CliError naming the
 * file, the line and the field. Blank lines are skipped.
 */
export function parseInteractionsJsonl(text: string, file: string): FeedbackInteraction[] {
  const interactions: FeedbackInteraction[] = [];
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new CliError(`${file} line ${index + 1}: not JSON (${(err as Error).message})`);
    }
    const parsed = FeedbackInteractionSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new CliError(`${file} line ${index + 1}: ${issue.path.join('.') || '(the line)'}: ${issue.message}`);
    }
    interactions.push(parsed.data);
  }
  if (interactions.length === 0) throw new CliError(`${file}: no interactions (one JSON object per line)`);
  return interactions;
}

const question = (c: FeedbackCandidate): string => c.draft.nl_query ?? c.draft.turns?.[0]?.user ?? '';
const short = (text: string, n = 60): string => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

/** The review queue as a table. */
export function candidatesTable(items: readonly FeedbackCandidate[]): string {
  if (items.length === 0) return 'none\n';
  return `${table(
    ['candidate', 'status', 'reason', 'group', 'needs', 'question', 'nearest case'],
    items.map((c) => [
      c.id,
      c.status,
      c.reason,
      c.group_id === c.id ? '(own)' : c.group_id,
      c.needs.join(', ') || '-',
      short(question(c)),
      c.nearest_case
        ? `${c.nearest_case.id} (${c.nearest_case.similarity.toFixed(2)}${c.nearest_case.near_duplicate ? ', near-duplicate' : ''})`
        : '-',
    ]),
  )}\n${items.length} candidate(s)\n`;
}

function callsFrom(text: string): CandidateEdits['expected_tool_calls'] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CliError(`--calls must be a JSON array of calls: ${(err as Error).message}`);
  }
  const parsed = ExpectedToolCallSchema.array().safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new CliError(`--calls ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

/** `evalp feedback import|list|show|approve|reject`. */
export function feedbackCommand(io: CommandIO = processIO): Command {
  const cmd = new Command('feedback').description(
    'production feedback: log interactions, review the candidate cases made from failed or corrected ones',
  );
  withConnection(
    cmd
      .command('import')
      .description('log the interactions of a JSON Lines file (one interaction per line; each stored once by its id) [test-admin]')
      .argument('<file>')
      .option('--suite <id>', 'the suite approved candidates go to when a line names none'),
  ).action(async (file: string, opts: ConnectionOptions & { suite?: string }) => {
    const interactions = parseInteractionsJsonl(await readFile(file, 'utf8'), file);
    const api = clientFor(opts);
    const total: IngestResult = { received: 0, stored: 0, duplicates: 0, not_candidates: 0, candidates: [] };
    for (let i = 0; i < interactions.length; i += BATCH) {
      const r = await api.request<IngestResult>('POST', 'v1/feedback', {
        interactions: interactions.slice(i, i + BATCH),
        ...(opts.suite ? { suite_id: opts.suite } : {}),
      });
      total.received += r.received;
      total.stored += r.stored;
      total.duplicates += r.duplicates;
      total.not_candidates += r.not_candidates;
      total.candidates.push(...r.candidates);
    }
    if (opts.json) return void io.out(`${JSON.stringify(total, null, 2)}\n`);
    const fresh = total.candidates.filter((c) => c.new);
    const groups = new Set(fresh.map((c) => c.group_id));
    io.out(
      `${total.received} interactions: ${total.stored} stored, ${total.duplicates} already stored; ` +
        `${fresh.length} new candidate(s) in ${groups.size} group(s), ${fresh.filter((c) => c.needs.length > 0).length} needing expected calls; ` +
        `${total.not_candidates} not candidates (not flagged or corrected)\n`,
    );
  });
  withConnection(
    cmd
      .command('list')
      .description('the review queue (default: pending candidates)')
      .option('--status <status>', 'pending, approved, rejected or all', 'pending')
      .option('--group <id>', 'only this near-duplicate group'),
  ).action(async (opts: ConnectionOptions & { status: string; group?: string }) => {
    if (!['pending', 'approved', 'rejected', 'all'].includes(opts.status))
      throw new CliError(`--status must be pending, approved, rejected or all (got "${opts.status}")`);
    const query = new URLSearchParams({ status: opts.status, ...(opts.group ? { group_id: opts.group } : {}) });
    const { items } = await clientFor(opts).request<{ items: FeedbackCandidate[] }>('GET', `v1/feedback/candidates?${query}`);
    io.out(opts.json ? `${JSON.stringify(items, null, 2)}\n` : candidatesTable(items));
  });
  withConnection(cmd.command('show').description('one candidate as JSON').argument('<id>')).action(
    async (id: string, opts: ConnectionOptions) => {
      io.out(`${JSON.stringify(await clientFor(opts).request<FeedbackCandidate>('GET', candidatePath(id)), null, 2)}\n`);
    },
  );
  withConnection(
    cmd
      .command('approve')
      .description('add the candidate case to a suite (exactly once; approving again adds nothing), with optional edits [suite-admin]')
      .argument('<id>')
      .option('--suite <id>', 'the suite (default: the one the interaction named)')
      .option('--calls <json>', 'the expected calls as a JSON array, e.g. \'[{"tool_name":"get_order","arguments":{"id":"A1"}}]\'')
      .option('--answer <text>', 'the expected answer')
      .option('--question <text>', 'a reworded question')
      .option('--category <name>', 'the category')
      .option('--tags <list>', 'more tags, comma-separated'),
  ).action(
    async (
      id: string,
      opts: ConnectionOptions & { suite?: string; calls?: string; answer?: string; question?: string; category?: string; tags?: string },
    ) => {
      const edits: CandidateEdits = {
        ...(opts.calls !== undefined ? { expected_tool_calls: callsFrom(opts.calls) } : {}),
        ...(opts.answer ? { expected_nl_response: opts.answer } : {}),
        ...(opts.question ? { nl_query: opts.question } : {}),
        ...(opts.category ? { category: opts.category } : {}),
        ...(opts.tags
          ? {
              tags: opts.tags
                .split(',')
                .map((t) => t.trim())
                .filter(Boolean),
            }
          : {}),
      };
      const r = await clientFor(opts).request<ApprovalResult>('POST', candidatePath(id, '/approve'), {
        ...(opts.suite ? { suite_id: opts.suite } : {}),
        ...(Object.keys(edits).length > 0 ? { edits } : {}),
      });
      io.out(
        opts.json
          ? `${JSON.stringify(r, null, 2)}\n`
          : r.already_approved
            ? `candidate ${id} was already approved: test case ${r.test_case_id} is in suite ${r.suite_id} (nothing added)\n`
            : `approved candidate ${id}: test case ${r.test_case_id} added to suite ${r.suite_id}\n`,
      );
    },
  );
  withConnection(
    cmd.command('reject').description('reject a candidate [suite-admin]').argument('<id>').requiredOption('--reason <text>', 'why'),
  ).action(async (id: string, opts: ConnectionOptions & { reason: string }) => {
    const c = await clientFor(opts).request<FeedbackCandidate>('POST', candidatePath(id, '/reject'), { reason: opts.reason });
    io.out(opts.json ? `${JSON.stringify(c, null, 2)}\n` : `rejected candidate ${c.id}: ${c.rejection_reason}\n`);
  });
  return cmd;
}
