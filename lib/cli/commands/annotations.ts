import { readFile, writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import type { AnnotationTask, JudgeCalibration } from '../../domain/index.js';
import type { AnnotationExportRow, AnnotationProgress, ImportResult } from '../../annotations/index.js';
import type { AgreementSummary } from '../../statistics/index.js';
import { ApiClient, apiTargetFrom } from '../apiClient.js';
import { CliError } from '../cliError.js';
import { formatAgreement } from './agreement.js';
import { formatCalibration, parseLabelsJsonl } from './annotationFiles.js';
import { usageErrorsExit2 } from './cliOptions.js';

interface Conn {
  url?: string;
  key?: string;
  profile?: string;
  json?: boolean;
}

const withConn = (c: Command): Command =>
  c
    .option('--url <url>', 'platform URL (env EVALP_URL, default http://127.0.0.1:7071)')
    .option('--key <key>', 'API key (env EVALP_API_KEY)')
    .option('--profile <name>', 'connection profile from the config file')
    .option('--json', 'print JSON');

/** `scale`, `pass_fail`, `free_text` or `categories:a,b,c` -> a label schema. */
export function labelSchemaFrom(text: string): AnnotationTask['label_schema'] {
  if (text === 'scale' || text === 'pass_fail' || text === 'free_text') return { kind: text };
  const m = /^categories:(.+)$/.exec(text);
  if (m)
    return {
      kind: 'categories',
      categories: m[1]!
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    };
  throw new CliError(`--schema must be scale, pass_fail, free_text or categories:a,b,... (got "${text}")`);
}

const task = (id: string) => `v1/annotation-tasks/${encodeURIComponent(id)}`;

/** `evalp annotations create|list|next|label|import|progress|export|agreement|calibrate`. */
export function annotationsCommand(out: { write(text: string): unknown } = process.stdout): Command {
  const cmd = new Command('annotations').description(
    'human annotation tasks: create, take the next item, label, progress, export with consensus, agreement',
  );
  const client = (opts: Conn) => new ApiClient(apiTargetFrom(opts));
  const print = (opts: Conn, value: unknown, text: () => string) => out.write(opts.json ? `${JSON.stringify(value, null, 2)}\n` : text());

  cmd.addCommand(
    withConn(
      usageErrorsExit2(new Command('create'))
        .description("create a task over a suite's cases (--suite) or a run's scorecards (--run) [test-admin]")
        .requiredOption('--name <name>', 'task name')
        .option('--suite <id>', 'annotate the cases of this suite')
        .option('--run <id>', 'annotate the answers of this run')
        .requiredOption('--schema <schema>', 'scale (1-5), pass_fail, free_text or categories:a,b,...')
        .option('--per-item <n>', 'annotators per item', '3')
        .option('--id <id>', 'task id (default: generated)')
        .option('--instructions <text>', 'shown to annotators'),
    ).action(
      async (
        opts: Conn & { name: string; suite?: string; run?: string; schema: string; perItem: string; id?: string; instructions?: string },
      ) => {
        if (!opts.suite === !opts.run) throw new CliError('give exactly one of --suite or --run');
        const perItem = Number(opts.perItem);
        if (!Number.isInteger(perItem) || perItem < 1) throw new CliError('--per-item must be a whole number >= 1');
        const created = await client(opts).request<AnnotationTask>('POST', 'v1/annotation-tasks', {
          ...(opts.id ? { id: opts.id } : {}),
          name: opts.name,
          ...(opts.instructions ? { instructions: opts.instructions } : {}),
          source: opts.suite ? { kind: 'suite', suite_id: opts.suite } : { kind: 'run', run_id: opts.run },
          label_schema: labelSchemaFrom(opts.schema),
          annotators_per_item: perItem,
        });
        print(
          opts,
          created,
          () => `created annotation task ${created.id}: ${created.item_count} items, ${created.annotators_per_item} annotators per item\n`,
        );
      },
    ),
  );

  cmd.addCommand(
    withConn(new Command('list').description('annotation tasks, newest first')).action(async (opts: Conn) => {
      const page = await client(opts).request<{ items: AnnotationTask[] }>('GET', 'v1/annotation-tasks');
      print(
        opts,
        page,
        () =>
          page.items
            .map((t) => `${t.id}\t${t.name}\t${t.item_count} items x ${t.annotators_per_item}\t${t.label_schema.kind}\n`)
            .join('') || 'no annotation tasks\n',
      );
    }),
  );

  cmd.addCommand(
    withConn(new Command('next').description('take the next item to label [annotator]').argument('<task>')).action(
      async (id: string, opts: Conn) => {
        const item = await client(opts).request<Record<string, unknown> | undefined>('GET', `${task(id)}/next`);
        if (!item) {
          out.write(opts.json ? 'null\n' : 'nothing left for you in this task\n');
          return;
        }
        print(opts, item, () =>
          [
            `item ${String(item.item_id)}`,
            `question: ${String(item.question ?? '-')}`,
            `expected: ${String(item.expected_answer ?? '-')}`,
            item.answer ? `answer: ${String(item.answer)}` : '',
            '',
          ]
            .filter((l, i, a) => l !== '' || i === a.length - 1)
            .join('\n'),
        );
      },
    ),
  );

  cmd.addCommand(
    withConn(
      new Command('label')
        .description('submit your label for an item [annotator]')
        .argument('<task>')
        .argument('<item>')
        .argument('<label>', 'for a 1-5 scale a number')
        .option('--comment <text>'),
    ).action(async (id: string, item: string, label: string, opts: Conn & { comment?: string }) => {
      const value = /^\d+$/.test(label) ? Number(label) : label;
      const stored = await client(opts).request('PUT', `${task(id)}/items/${encodeURIComponent(item)}/label`, {
        label: value,
        ...(opts.comment ? { comment: opts.comment } : {}),
      });
      print(opts, stored, () => `labelled ${item}: ${label}\n`);
    }),
  );

  cmd.addCommand(
    withConn(
      new Command('import')
        .description("store labels made elsewhere as the named annotators' labels, marked imported with their provenance [test-admin]")
        .argument('<task>')
        .requiredOption('--file <file>', 'JSON Lines of {"item": ..., "annotator": ..., "label": ..., "comment"?: ...}')
        .requiredOption('--provenance <text>', 'where the labels come from and how they were made (stored on every label)'),
    ).action(async (id: string, opts: Conn & { file: string; provenance: string }) => {
      const labels = parseLabelsJsonl(await readFile(opts.file, 'utf8'), opts.file);
      const api = client(opts);
      const counts = new Map<string, number>();
      let imported = 0;
      // one request per 5,000 labels (the route's limit); each request is checked whole before it stores anything
      for (let i = 0; i < labels.length; i += 5_000) {
        const result = await api.request<ImportResult>('POST', `${task(id)}/import`, {
          provenance: opts.provenance,
          labels: labels.slice(i, i + 5_000),
        });
        imported += result.imported;
        for (const a of result.annotators) counts.set(a.annotator, (counts.get(a.annotator) ?? 0) + a.labels);
      }
      const annotators = [...counts].map(([annotator, n]) => ({ annotator, labels: n }));
      print(
        opts,
        { task_id: id, imported, annotators },
        () => `imported ${imported} labels into ${id} (${annotators.map((a) => `${a.annotator} ${a.labels}`).join(', ')})\n`,
      );
    }),
  );

  cmd.addCommand(
    withConn(
      new Command('calibrate')
        .description("calibrate the judge of the task's run against its labels: Cohen's kappa, raw agreement, confusion table [test-admin]")
        .argument('<task>')
        .option('--provenance <text>', 'what the labels are (default: said from the labels: human, or imported with their provenance)'),
    ).action(async (id: string, opts: Conn & { provenance?: string }) => {
      const calibration = await client(opts).request<JudgeCalibration>(
        'POST',
        `${task(id)}/calibrate`,
        opts.provenance ? { provenance: opts.provenance } : {},
      );
      print(opts, calibration, () => formatCalibration(calibration));
    }),
  );

  cmd.addCommand(
    withConn(new Command('progress').description('labels given and wanted').argument('<task>')).action(async (id: string, opts: Conn) => {
      const p = await client(opts).request<AnnotationProgress>('GET', `${task(id)}/progress`);
      print(
        opts,
        p,
        () =>
          `${p.labels}/${p.labels_wanted} labels, ${p.complete_items}/${p.items} items complete; ${p.per_annotator.map((a) => `${a.annotator} ${a.labels}`).join(', ') || 'no labels yet'}\n`,
      );
    }),
  );

  cmd.addCommand(
    withConn(
      new Command('export')
        .description('every item with its labels and consensus, as JSON Lines')
        .argument('<task>')
        .option('--out <file>', 'write to this file'),
    ).action(async (id: string, opts: Conn & { out?: string }) => {
      const body = await client(opts).request<{ items: AnnotationExportRow[] }>('GET', `${task(id)}/export`);
      const text = body.items.map((r) => JSON.stringify(r)).join('\n') + '\n';
      if (opts.out) {
        await writeFile(opts.out, text);
        process.stderr.write(`wrote ${opts.out} (${body.items.length} items)\n`);
      } else out.write(text);
    }),
  );

  cmd.addCommand(
    withConn(new Command('agreement').description("the task's agreement statistics").argument('<task>')).action(
      async (id: string, opts: Conn) => {
        const body = await client(opts).request<{ agreement: AgreementSummary | null }>('GET', `${task(id)}/agreement`);
        print(opts, body, () =>
          body.agreement ? formatAgreement(body.agreement) : 'no agreement statistics (free text, or no labels yet)\n',
        );
      },
    ),
  );
  return cmd;
}
