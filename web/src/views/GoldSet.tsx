import { useState } from 'preact/hooks';
import { api, ApiProblem, get, qs } from '../api.js';
import { can } from '../auth.js';
import { useLoad } from '../hooks.js';
import { href, navigate, type Route } from '../router.js';
import { Table } from '../components/Table.js';
import { Loading, Problem } from '../components/Problem.js';
import type { Me, Page, TestCase } from '../types.js';

const FORMATS = [
  { value: 'application/x-ndjson', label: 'JSON Lines (.jsonl)', ext: ['.jsonl', '.ndjson'] },
  { value: 'application/json', label: 'JSON (.json)', ext: ['.json'] },
  { value: 'text/csv', label: 'CSV (.csv)', ext: ['.csv'] },
];

/** The gold set: search, view and edit a case (If-Match; a 412 conflict is shown), import with row errors. */
export function GoldSetView({ route, me }: { route: Route; me: Me }) {
  const id = route.path[1];
  if (id) return <CaseEditor id={id} me={me} />;
  const q = route.query.get('q') ?? '';
  const cases = useLoad(() => get<Page<TestCase>>(`v1/test-cases${qs({ q, limit: 200 })}`), [q]);
  return (
    <section aria-labelledby="gold-h">
      <h1 id="gold-h">Gold set</h1>
      <form
        role="search"
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          navigate('gold', { q: new FormData(e.target as HTMLFormElement).get('q')?.toString() || undefined });
        }}
      >
        <label>
          Search questions
          <input type="search" name="q" defaultValue={q} />
        </label>
        <button type="submit">Search</button>
      </form>
      <Problem error={cases.error} />
      {cases.data ? (
        <Table
          id="cases-table"
          caption={`Test cases (${cases.data.total}${cases.data.has_more ? `, first ${cases.data.items.length} shown` : ''})`}
          columns={[
            {
              key: 'id',
              label: 'Id',
              value: (c: TestCase) => c.id,
              render: (c) => <a href={href(`gold/${encodeURIComponent(c.id)}`)}>{c.id}</a>,
            },
            { key: 'q', label: 'Question', value: (c) => c.nl_query },
            { key: 'calls', label: 'Expected calls', value: (c) => c.expected_tool_calls.map((t) => t.tool_name).join(', ') },
            { key: 'cat', label: 'Category', value: (c) => c.metadata.category ?? '' },
            { key: 'tags', label: 'Tags', value: (c) => c.metadata.tags.join(', ') },
            { key: 'cx', label: 'Complexity', numeric: true, value: (c) => c.metadata.complexity_level },
          ]}
          rows={cases.data.items}
          rowKey={(c) => c.id}
        />
      ) : (
        !cases.error && <Loading what="test cases" />
      )}
      {can(me, 'test-admin') && <Importer onDone={cases.reload} />}
    </section>
  );
}

/** One case as JSON, editable by test-admins; the save sends If-Match with the ETag read, so a newer version is never overwritten. */
function CaseEditor({ id, me }: { id: string; me: Me }) {
  const loaded = useLoad(() => api<TestCase>('GET', `v1/test-cases/${encodeURIComponent(id)}`), [id]);
  const [text, setText] = useState<string | undefined>();
  const [etag, setEtag] = useState<string | undefined>();
  const [error, setError] = useState<Error | undefined>();
  const [saved, setSaved] = useState<string | undefined>();
  const [conflict, setConflict] = useState(false);
  if (loaded.error) return <Problem error={loaded.error} />;
  if (!loaded.data) return <Loading what={`case ${id}`} />;
  const body = text ?? JSON.stringify(loaded.data.body, null, 2);
  const currentEtag = etag ?? loaded.data.etag ?? undefined;
  const editable = can(me, 'test-admin');
  const save = async (): Promise<void> => {
    setError(undefined);
    setSaved(undefined);
    setConflict(false);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch (e) {
      setError(new Error(`The case is not valid JSON: ${(e as Error).message}`));
      return;
    }
    try {
      const res = await api<TestCase>('PUT', `v1/test-cases/${encodeURIComponent(id)}`, {
        body: parsed,
        headers: currentEtag ? { 'if-match': currentEtag } : {},
      });
      setEtag(res.etag ?? undefined);
      setText(JSON.stringify(res.body, null, 2));
      setSaved(`Saved; new ETag ${res.etag}`);
    } catch (e) {
      if (e instanceof ApiProblem && e.status === 412) setConflict(true);
      setError(e as Error);
    }
  };
  const reload = (): void => {
    setText(undefined);
    setEtag(undefined);
    setConflict(false);
    setError(undefined);
    loaded.reload();
  };
  return (
    <section aria-labelledby="case-h">
      <h1 id="case-h">
        Case <code>{id}</code>
      </h1>
      <p>
        <a href={href('gold')}>Back to the gold set</a> · ETag <code data-testid="case-etag">{currentEtag}</code>
      </p>
      {conflict && (
        <div class="conflict" role="alert" data-testid="conflict">
          <strong>Conflict (412):</strong> someone changed this case after you opened it, so your edit was not saved. Reload to see their
          version, then apply your change again.{' '}
          <button type="button" onClick={reload}>
            Reload the latest version
          </button>
        </div>
      )}
      {!conflict && <Problem error={error} />}
      {saved && (
        <p role="status" class="ok">
          {saved}
        </p>
      )}
      <label for="case-json">{editable ? 'Edit the case (JSON)' : 'The case (JSON; editing needs the test-admin role)'}</label>
      <textarea
        id="case-json"
        rows={24}
        readOnly={!editable}
        value={body}
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        spellcheck={false}
      />
      {editable && (
        <button type="button" onClick={() => void save()}>
          Save with If-Match
        </button>
      )}
    </section>
  );
}

interface ImportSummary {
  total_rows: number;
  imported: number;
  created: number;
  updated: number;
  error_count: number;
  errors: Array<{ row: number; id?: string; field: string; reason: string }>;
}

/** Imports a file (JSON Lines, JSON, CSV); every bad row is listed with its field and reason. */
function Importer({ onDone }: { onDone(): void }) {
  const [format, setFormat] = useState(FORMATS[0]!.value);
  const [partial, setPartial] = useState(true);
  const [file, setFile] = useState<File | undefined>();
  const [result, setResult] = useState<ImportSummary | undefined>();
  const [error, setError] = useState<Error | undefined>();
  const submit = async (e: Event): Promise<void> => {
    e.preventDefault();
    if (!file) return;
    setResult(undefined);
    setError(undefined);
    try {
      const res = await api<ImportSummary>(
        'POST',
        `v1/test-cases/import${qs({ partial: partial ? 'true' : undefined, source: file.name })}`,
        { rawBody: await file.text(), contentType: format },
      );
      setResult(res.body);
      onDone();
    } catch (err) {
      setError(err as Error);
    }
  };
  return (
    <form class="import" onSubmit={(e) => void submit(e)} aria-labelledby="import-h">
      <h2 id="import-h">Import cases</h2>
      <label>
        File
        <input
          type="file"
          accept=".jsonl,.ndjson,.json,.csv"
          onChange={(e) => {
            const f = (e.target as HTMLInputElement).files?.[0];
            setFile(f);
            const match = f && FORMATS.find((x) => x.ext.some((ext) => f.name.toLowerCase().endsWith(ext)));
            if (match) setFormat(match.value);
          }}
        />
      </label>
      <label>
        Format
        <select value={format} onChange={(e) => setFormat((e.target as HTMLSelectElement).value)}>
          {FORMATS.map((f) => (
            <option key={f.value} value={f.value}>
              {f.label}
            </option>
          ))}
        </select>
      </label>
      <label class="check">
        <input type="checkbox" checked={partial} onChange={() => setPartial(!partial)} /> store the valid rows even if some are bad
      </label>
      <button type="submit" disabled={!file}>
        Import
      </button>
      <Problem error={error} />
      {result && (
        <div role="status" data-testid="import-result">
          <p>
            {result.total_rows} rows read: {result.imported} imported ({result.created} new, {result.updated} updated), {result.error_count}{' '}
            row error{result.error_count === 1 ? '' : 's'}.
          </p>
          {result.errors.length > 0 && (
            <Table
              id="import-errors"
              caption="Rows not imported"
              columns={[
                { key: 'row', label: 'Row', numeric: true, value: (r: ImportSummary['errors'][number]) => r.row },
                { key: 'id', label: 'Id', value: (r) => r.id ?? '' },
                { key: 'field', label: 'Field', value: (r) => r.field },
                { key: 'reason', label: 'Reason', value: (r) => r.reason },
              ]}
              rows={result.errors}
              rowKey={(r) => `${r.row}:${r.field}`}
            />
          )}
        </div>
      )}
    </form>
  );
}
