import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BlobAnalyticsSink } from './blobAnalyticsSink.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** A local server answering the Blob service's Put Blob the way Azure Storage does (201 with an ETag). */
async function blobServer(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      if (req.method === 'PUT' && req.headers['x-ms-blob-type'] === 'BlockBlob') {
        res.writeHead(201, {
          etag: '"0x8DB0000000000"',
          'last-modified': new Date().toUTCString(),
          'x-ms-request-id': 'req-1',
          'x-ms-version': String(req.headers['x-ms-version'] ?? ''),
          'x-ms-request-server-encrypted': 'true',
        });
        res.end();
        return;
      }
      res.writeHead(400, { 'x-ms-error-code': 'UnsupportedOperation' });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/devaccount`, received };
}

let open: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (open ? open.close(() => resolve()) : resolve()));
  open = undefined;
});

describe('BlobAnalyticsSink', () => {
  it('puts one block blob under container/prefix with the Parquet content type and the metadata, in a single request', async () => {
    const { server, url, received } = await blobServer();
    open = server;
    const sink = new BlobAnalyticsSink({
      endpoint: url,
      container: 'analytics',
      prefix: 'lake.Lakehouse/Files/evalplatform/',
      credential: 'anonymous',
      pipeline: { retryOptions: { maxTries: 1 } },
    });
    const bytes = new Uint8Array([80, 65, 82, 49, 0, 1, 2, 80, 65, 82, 49]);
    const { location } = await sink.writeFile('run_id=r%201/r%201.parquet', bytes, { schema_version: '1', 'run-id': 'r 1' });
    expect(received).toHaveLength(1);
    const put = received[0]!;
    expect(put.method).toBe('PUT');
    expect(decodeURIComponent(put.url)).toBe('/devaccount/analytics/lake.Lakehouse/Files/evalplatform/run_id=r%201/r%201.parquet');
    expect(put.headers['x-ms-blob-type']).toBe('BlockBlob');
    expect(put.headers['x-ms-blob-content-type']).toBe('application/vnd.apache.parquet');
    expect(put.headers['x-ms-meta-schema_version']).toBe('1');
    expect(put.headers['x-ms-meta-run_id']).toBe('r 1');
    expect([...put.body]).toEqual([...bytes]);
    expect(location).toContain('/analytics/lake.Lakehouse/Files/evalplatform/');
    expect(sink.describe()).toBe(`blob ${url}/analytics/lake.Lakehouse/Files/evalplatform`);
    await expect(sink.writeFile('../x.parquet', bytes)).rejects.toThrow(/plain relative path/);
  });
});
