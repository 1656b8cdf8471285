import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** `<dataDir>/server.json`: which process serves this data dir, and where (written at start, removed at stop). */
export const SERVER_MARKER_FILE = 'server.json';

export const ServerMarkerSchema = z.object({ pid: z.number().int().positive(), url: z.string(), started_at: z.string() });
export type ServerMarker = z.infer<typeof ServerMarkerSchema>;

export function writeServerMarker(dataDir: string, marker: ServerMarker): void {
  writeFileSync(join(dataDir, SERVER_MARKER_FILE), JSON.stringify(marker, null, 2) + '\n');
}

/** Removes the marker if it is still this process's (a later server on the same dir keeps its own). */
export function removeServerMarker(dataDir: string, pid: number = process.pid): void {
  const marker = readMarker(dataDir);
  if (marker?.pid === pid) rmSync(join(dataDir, SERVER_MARKER_FILE), { force: true });
}

/**
 * The platform serving this data dir right now, or undefined: a marker whose process is gone (a crash, kill -9)
 * is ignored.
 */
export function liveServer(dataDir: string): ServerMarker | undefined {
  const marker = readMarker(dataDir);
  if (!marker) return undefined;
  try {
    process.kill(marker.pid, 0);
    return marker;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? marker : undefined;
  }
}

function readMarker(dataDir: string): ServerMarker | undefined {
  try {
    const parsed = ServerMarkerSchema.safeParse(JSON.parse(readFileSync(join(dataDir, SERVER_MARKER_FILE), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
