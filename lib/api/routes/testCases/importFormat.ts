import { ApiError } from '../../problem.js';

export const IMPORT_FORMATS = ['json', 'jsonl', 'csv', 'bfcl'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const JSONL_MEDIA_TYPES = [
  'application/x-ndjson',
  'application/jsonl',
  'application/x-jsonlines',
  'application/json-lines',
] as const;

/** Media types the import route accepts, and the format each means when `?format=` is not given. */
export const IMPORT_MEDIA_TYPES: Readonly<Record<string, ImportFormat>> = {
  'application/json': 'json',
  ...Object.fromEntries(JSONL_MEDIA_TYPES.map((type) => [type, 'jsonl' as const])),
  'text/csv': 'csv',
  'multipart/form-data': 'bfcl',
};

/** Which media types can carry each format (BFCL: a JSON envelope, multipart parts, or the question file alone). */
const CARRIERS: Readonly<Record<ImportFormat, readonly string[]>> = {
  json: ['application/json'],
  jsonl: JSONL_MEDIA_TYPES,
  csv: ['text/csv'],
  bfcl: ['application/json', 'multipart/form-data', ...JSONL_MEDIA_TYPES],
};

/** The format of an import body: `?format=` when given (it must fit the media type: 415 otherwise), else the media type's. */
export function importFormatOf(mediaType: string, requested: ImportFormat | undefined): ImportFormat {
  const implied = IMPORT_MEDIA_TYPES[mediaType];
  if (implied === undefined)
    throw new ApiError(
      415,
      'Unsupported Media Type',
      `cannot import ${mediaType}; send one of ${Object.keys(IMPORT_MEDIA_TYPES).join(', ')}`,
    );
  if (requested === undefined) return implied;
  if (!CARRIERS[requested].includes(mediaType)) {
    throw new ApiError(
      415,
      'Unsupported Media Type',
      `format "${requested}" cannot be sent as ${mediaType}; send it as ${CARRIERS[requested].join(' or ')}`,
      [{ path: 'headers.content-type', message: `one of ${CARRIERS[requested].join(', ')}` }],
    );
  }
  return requested;
}
