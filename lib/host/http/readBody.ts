import type { IncomingMessage } from 'node:http';

export type BodyResult = { kind: 'ok'; body: Buffer } | { kind: 'tooLarge' } | { kind: 'aborted' };

/**
 * Reads a request body up to `maxBytes`. A body over the limit (announced by content-length or found while
 * streaming) is drained and discarded, so the client can read the 413 instead of seeing a reset connection;
 * draining stops (and the socket is destroyed) past `maxBytes * 4` bytes.
 */
export function readBody(request: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const declared = Number(request.headers['content-length']);
    let tooLarge = Number.isFinite(declared) && declared > maxBytes;
    const chunks: Buffer[] = [];
    let received = 0;
    const drainLimit = maxBytes * 4;
    request.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) tooLarge = true;
      if (tooLarge) {
        chunks.length = 0;
        if (received > drainLimit) {
          resolve({ kind: 'tooLarge' });
          request.destroy();
        }
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(tooLarge ? { kind: 'tooLarge' } : { kind: 'ok', body: Buffer.concat(chunks, received) }));
    request.on('error', () => resolve({ kind: 'aborted' }));
    request.on('close', () => {
      if (!request.complete) resolve(tooLarge ? { kind: 'tooLarge' } : { kind: 'aborted' });
    });
  });
}
