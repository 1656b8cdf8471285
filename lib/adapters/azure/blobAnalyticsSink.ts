import { AnonymousCredential, ContainerClient, type StoragePipelineOptions } from '@azure/storage-blob';
import type { TokenCredential } from '@azure/core-auth';
import type { AnalyticsSink } from '../../ports/index.js';

export interface BlobAnalyticsSinkOptions {
  /**
   * the account's blob endpoint: `https://<account>.blob.core.windows.net`, or OneLake's
   * `https://onelake.blob.fabric.microsoft.com` (then `container` is the workspace)
   */
  endpoint: string;
  /** the container (OneLake: the workspace name or id) */
  container: string;
  /** a path prefix inside the container, e.g. `evalplatform` or OneLake's `<lakehouse>.Lakehouse/Files/evalplatform` */
  prefix?: string;
  /** Entra ID (the app's managed identity: Storage Blob Data Contributor); `anonymous` only for local test servers */
  credential: TokenCredential | 'anonymous';
  pipeline?: StoragePipelineOptions;
}

/**
 * Analytics exports as block blobs in Blob Storage or OneLake (the Blob API), authenticated with Entra ID. A single
 * `uploadData` call commits the whole blob at once (a reader never sees a part; a repeated export replaces it),
 * with content type `application/vnd.apache.parquet` and the given metadata (schema_version, run_id, rows).
 */
export class BlobAnalyticsSink implements AnalyticsSink {
  private readonly container: ContainerClient;
  private readonly prefix: string;

  constructor(private readonly options: BlobAnalyticsSinkOptions) {
    const url = `${options.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(options.container)}`;
    const credential = options.credential === 'anonymous' ? new AnonymousCredential() : options.credential;
    this.container = new ContainerClient(url, credential, options.pipeline);
    this.prefix = (options.prefix ?? '').replace(/^\/+|\/+$/g, '');
  }

  describe(): string {
    return `blob ${this.options.endpoint.replace(/\/+$/, '')}/${this.options.container}${this.prefix ? `/${this.prefix}` : ''}`;
  }

  async writeFile(name: string, bytes: Uint8Array, metadata: Readonly<Record<string, string>> = {}): Promise<{ location: string }> {
    if (name.split('/').some((part) => part === '..' || part === ''))
      throw new RangeError(`analytics blob name ${JSON.stringify(name)} is not a plain relative path`);
    const blob = this.container.getBlockBlobClient(this.prefix ? `${this.prefix}/${name}` : name);
    await blob.uploadData(bytes, {
      blobHTTPHeaders: { blobContentType: 'application/vnd.apache.parquet' },
      // blob metadata names must be C# identifiers
      metadata: Object.fromEntries(Object.entries(metadata).map(([k, v]) => [k.replace(/[^A-Za-z0-9_]/g, '_'), v])),
      // one request up to 256 MiB: the blob appears whole or not at all
      maxSingleShotSize: 256 * 1024 * 1024,
    });
    return { location: blob.url };
  }
}
