/**
 * Where analytics exports go (docs/analytics-export.md): a folder embedded, a Blob Storage / OneLake container in
 * Azure. `writeFile` replaces the file at `name` (a relative path with `/` separators, e.g.
 * `run_id=<id>/<id>.parquet`) atomically: a reader sees the old file or the whole new one, never a part, so a
 * repeated export (a redelivered message) is harmless. `describe` names the place for logs and the API.
 */
export interface AnalyticsSink {
  writeFile(name: string, bytes: Uint8Array, metadata?: Readonly<Record<string, string>>): Promise<{ location: string }>;
  describe(): string;
}
