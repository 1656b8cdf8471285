import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { foldedWords } from './cosmosSearchText.js';

/**
 * Test support: a local server speaking the OpenAI / Azure OpenAI embeddings protocol (POST .../embeddings,
 * `{input, model, dimensions}` -> `{data: [{index, embedding}], usage}`), for the real openai client. Vectors are
 * deterministic bags of folded words hashed into `dimensions` buckets and normalised: texts sharing words are close.
 */
export interface EmbeddingsStub {
  endpoint: string;
  requests: Array<{
    path: string;
    headers: IncomingHttpHeaders;
    body: { input: string[]; model: string; dimensions?: number; encoding_format?: 'float' | 'base64' };
  }>;
  close(): Promise<void>;
}

export function stubEmbedding(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of foldedWords(text)) vector[createHash('sha1').update(word).digest().readUInt32BE(0) % dimensions]! += 1;
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0)) || 1;
  return vector.map((x) => x / norm);
}

export async function startEmbeddingsStub(): Promise<EmbeddingsStub> {
  const requests: EmbeddingsStub['requests'] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(raw) as EmbeddingsStub['requests'][number]['body'];
      requests.push({ path: req.url ?? '', headers: req.headers, body });
      if (!req.url?.includes('/embeddings')) {
        res.writeHead(404).end();
        return;
      }
      const dimensions = body.dimensions ?? 64;
      const input = Array.isArray(body.input) ? body.input : [body.input];
      // answer in reverse order: the client must sort by index
      // the openai client asks for base64 (little-endian float32) unless told otherwise
      const encode = (vector: number[]) =>
        body.encoding_format === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
      const data = input
        .map((text, index) => ({ object: 'embedding', index, embedding: encode(stubEmbedding(text, dimensions)) }))
        .reverse();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: input.length, total_tokens: input.length } }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
