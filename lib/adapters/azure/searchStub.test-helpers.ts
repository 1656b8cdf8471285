import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { foldedWords } from './cosmosSearchText.js';

/**
 * Test support: a local HTTP server speaking the part of the Azure AI Search REST protocol the gold-set index uses
 * (research §7 verified the real @azure/search-documents client against such a stub): PUT an index definition,
 * index actions (upload / merge / mergeOrUpload / delete), and POST search with searchMode all, searchFields,
 * an OData filter (eq ne gt ge lt le, and / or / not, parentheses, `tags/any(t: ...)`), orderby, skip, top,
 * count, select, and exhaustive vector queries (cosine; score 1 / (1 + (1 - cosine)) as the service reports it).
 * Search text: space-separated clauses, all required: `word`, `prefix*`, `"a phrase"`, or `*` (everything),
 * matched against the folded words of each searchable field. Relevance is not modelled (every match scores 1).
 */
export interface SearchStub {
  endpoint: string;
  /** index definitions as PUT, by name */
  indexes: Map<string, Record<string, unknown>>;
  /** documents by index name, then key */
  documents: Map<string, Map<string, Record<string, unknown>>>;
  /** every request: method, path and the auth headers */
  requests: Array<{ method: string; path: string; headers: IncomingHttpHeaders; body: unknown }>;
  close(): Promise<void>;
}

type Doc = Record<string, unknown>;

/**
 * Starts the stub on 127.0.0.1: over https (the self-signed certificate @zeit/cosmosdb-server ships; clients need an
 * agent that accepts it) by default, because Entra ID bearer tokens are only sent over TLS; `tls: false` for http.
 */
export async function startSearchStub(options: { tls?: boolean } = {}): Promise<SearchStub> {
  const indexes = new Map<string, Record<string, unknown>>();
  const documents = new Map<string, Map<string, Doc>>();
  const requests: SearchStub['requests'] = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as Doc) : {};
      const path = (req.url ?? '').split('?')[0]!;
      requests.push({ method: req.method ?? '', path, headers: req.headers, body });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; odata.metadata=none' });
        res.end(JSON.stringify(payload));
      };
      try {
        const index = /^\/indexes\('([^']+)'\)/.exec(path)?.[1];
        if (!index) return send(404, { error: { message: `no route ${path}` } });
        if (req.method === 'PUT' && path === `/indexes('${index}')`) {
          const existed = indexes.has(index);
          indexes.set(index, body);
          if (!documents.has(index)) documents.set(index, new Map());
          return send(existed ? 200 : 201, body);
        }
        const docs = documents.get(index);
        const definition = indexes.get(index);
        if (!docs || !definition) return send(404, { error: { message: `index ${index} does not exist` } });
        const keyField = (definition.fields as Doc[]).find((f) => f.key)!.name as string;
        if (req.method === 'POST' && path.endsWith('/docs/search.index'))
          return send(200, { value: (body.value as Doc[]).map((action) => applyAction(docs, keyField, action)) });
        const searchable = (definition.fields as Doc[])
          .filter((f) => f.searchable && f.type !== 'Collection(Edm.Single)')
          .map((f) => String(f.name));
        if (req.method === 'POST' && path.endsWith('/docs/search.post.search')) return send(200, search(docs, body, searchable));
        return send(404, { error: { message: `no route ${req.method} ${path}` } });
      } catch (error) {
        return send(400, { error: { message: (error as Error).message } });
      }
    });
  };
  const server: Server = options.tls === false ? createServer(handler) : createTlsServer(emulatorCertificate(), handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `${options.tls === false ? 'http' : 'https'}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    indexes,
    documents,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The self-signed certificate and key @zeit/cosmosdb-server ships (for localhost / 127.0.0.1). */
function emulatorCertificate(): { cert: Buffer; key: Buffer } {
  const dir = dirname(createRequire(import.meta.url).resolve('@zeit/cosmosdb-server/package.json'));
  return { cert: readFileSync(join(dir, 'cert.pem')), key: readFileSync(join(dir, 'key.pem')) };
}

function applyAction(docs: Map<string, Doc>, keyField: string, action: Doc) {
  const { '@search.action': kind, ...fields } = action;
  const key = String(fields[keyField]);
  const existed = docs.has(key);
  if (kind === 'delete') docs.delete(key);
  else if (kind === 'upload') docs.set(key, fields);
  else if (kind === 'merge' || kind === 'mergeOrUpload') {
    if (kind === 'merge' && !existed) return { key, status: false, statusCode: 404, errorMessage: 'not found' };
    docs.set(key, { ...(docs.get(key) ?? {}), ...fields });
  } else throw new Error(`unknown action ${String(kind)}`);
  return { key, status: true, statusCode: existed || kind === 'delete' ? 200 : 201 };
}

function search(docs: Map<string, Doc>, body: Doc, searchable: string[]) {
  const fields = body.searchFields ? String(body.searchFields).split(',') : searchable;
  const clauses = parseSearch(String(body.search ?? '*'));
  const filter = body.filter ? parseFilter(String(body.filter)) : undefined;
  const hits = [...docs.values()].filter(
    (doc) =>
      (!filter || truthy(filter(doc, {}))) &&
      clauses.every((clause) => clause.kind === 'all' || fields.some((f) => matchesField(doc[f], clause))),
  );
  let scored = hits.map((doc) => ({ doc, score: 1 }));
  const vq = (body.vectorQueries as Doc[] | undefined)?.[0];
  if (vq) {
    const vector = vq.vector as number[];
    scored = hits
      .map((doc) => ({ doc, score: 1 / (1 + (1 - cosine(vector, doc[String(vq.fields)] as number[]))) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, Number(vq.k));
  }
  const orderby = body.orderby ? String(body.orderby).split(' ') : undefined;
  if (orderby) scored.sort((a, b) => compare(a.doc[orderby[0]!], b.doc[orderby[0]!]) * (orderby[1] === 'desc' ? -1 : 1));
  const page = scored.slice(Number(body.skip ?? 0), Number(body.skip ?? 0) + Number(body.top ?? 50));
  const select = body.select ? String(body.select).split(',') : undefined;
  return {
    ...(body.count ? { '@odata.count': scored.length } : {}),
    value: page.map(({ doc, score }) => ({
      '@search.score': score,
      ...(select ? Object.fromEntries(select.map((f) => [f, doc[f]])) : doc),
    })),
  };
}

type Clause = { kind: 'all' } | { kind: 'word'; word: string } | { kind: 'prefix'; word: string } | { kind: 'phrase'; words: string[] };

function parseSearch(text: string): Clause[] {
  const clauses: Clause[] = [];
  for (const [, phrase, token] of text.matchAll(/"([^"]*)"|(\S+)/g)) {
    if (phrase !== undefined) clauses.push({ kind: 'phrase', words: foldedWords(phrase) });
    else if (token === '*') clauses.push({ kind: 'all' });
    else if (token!.endsWith('*')) clauses.push({ kind: 'prefix', word: foldedWords(token!)[0] ?? '' });
    else clauses.push({ kind: 'word', word: foldedWords(token!)[0] ?? '' });
  }
  return clauses;
}

function matchesField(value: unknown, clause: Clause): boolean {
  if (clause.kind === 'all') return true;
  const texts = Array.isArray(value) ? value : [value];
  return texts.some((text) => {
    if (typeof text !== 'string') return false;
    const words = foldedWords(text);
    if (clause.kind === 'word') return words.includes(clause.word);
    if (clause.kind === 'prefix') return words.some((w) => w.startsWith(clause.word));
    return words.some((_, i) => clause.words.every((w, j) => words[i + j] === w));
  });
}

const cosine = (a: number[], b: number[]): number => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((x, i) => {
    dot += x * (b[i] ?? 0);
    na += x * x;
    nb += (b[i] ?? 0) ** 2;
  });
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
};

const compare = (a: unknown, b: unknown): number => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);
const truthy = (v: unknown): boolean => v === true;

type Expr = (doc: Doc, vars: Record<string, unknown>) => unknown;

/** A recursive-descent parser for the OData subset the adapter writes. */
function parseFilter(text: string): Expr {
  const tokens = [...text.matchAll(/'(?:[^']|'')*'|[A-Za-z_][A-Za-z0-9_/]*|-?\d+(?:\.\d+)?|[():]/g)].map((m) => m[0]);
  let i = 0;
  const peek = () => tokens[i];
  const next = () => tokens[i++]!;
  const expect = (t: string) => {
    if (next() !== t) throw new Error(`filter: expected ${t} in ${text}`);
  };
  const orExpr = (): Expr => {
    let left = andExpr();
    while (peek() === 'or') {
      next();
      const l = left;
      const r = andExpr();
      left = (d, v) => truthy(l(d, v)) || truthy(r(d, v));
    }
    return left;
  };
  const andExpr = (): Expr => {
    let left = unary();
    while (peek() === 'and') {
      next();
      const l = left;
      const r = unary();
      left = (d, v) => truthy(l(d, v)) && truthy(r(d, v));
    }
    return left;
  };
  const unary = (): Expr => {
    if (peek() === 'not') {
      next();
      const e = unary();
      return (d, v) => !truthy(e(d, v));
    }
    if (peek() === '(') {
      next();
      const e = orExpr();
      expect(')');
      return e;
    }
    const name = next();
    if (name.endsWith('/any')) {
      const field = name.slice(0, -4);
      expect('(');
      const variable = next();
      expect(':');
      const body = orExpr();
      expect(')');
      return (d, v) => ((d[field] as unknown[]) ?? []).some((item) => truthy(body(d, { ...v, [variable]: item })));
    }
    const op = next();
    const raw = next();
    const value = raw.startsWith("'") ? raw.slice(1, -1).replaceAll("''", "'") : raw === 'null' ? null : Number(raw);
    const read: Expr = (d, v) => (name in v ? v[name] : d[name]);
    const ops: Record<string, (a: unknown) => boolean> = {
      eq: (a) => a === value,
      ne: (a) => a !== value,
      gt: (a) => a !== null && compareTyped(a, value) > 0,
      ge: (a) => a !== null && compareTyped(a, value) >= 0,
      lt: (a) => a !== null && compareTyped(a, value) < 0,
      le: (a) => a !== null && compareTyped(a, value) <= 0,
    };
    const fn = ops[op];
    if (!fn) throw new Error(`filter: unknown operator ${op}`);
    return (d, v) => fn(read(d, v));
  };
  const expr = orExpr();
  if (i !== tokens.length) throw new Error(`filter: unexpected ${tokens[i]} in ${text}`);
  return expr;
}

const compareTyped = (a: unknown, b: unknown): number => (typeof a === 'number' && typeof b === 'number' ? a - b : compare(a, b));
