import type { Services } from '../ports/index.js';
import { OutboundRefusedError } from '../outbound/index.js';
import { ApiError, type FieldError } from './problem.js';

/** A URL the platform will call later, with the request field it came from (`body.settings.url`). */
export interface OutboundUrlField {
  path: string;
  url: string | undefined;
}

/** `{{question}}`-style placeholders stand for text; they never decide the destination. */
const PLACEHOLDER = /\{\{\s*\w+\s*\}\}/g;

/**
 * Refuses (400 naming each field and the reason) URLs the outbound policy would refuse, before anything is stored:
 * a metadata, private, link-local or (where not allowed) loopback destination, the platform's own port, a host name
 * resolving to one. Every call checks again (DNS may change), so this is an early answer, not the only gate.
 */
export async function requireAllowedOutboundUrls(services: Services, fields: readonly OutboundUrlField[]): Promise<void> {
  if (!services.outbound) return;
  const errors: FieldError[] = [];
  for (const { path, url } of fields) {
    if (url === undefined) continue;
    try {
      await services.outbound.check(url.replace(PLACEHOLDER, 'x'));
    } catch (error) {
      if (!(error instanceof OutboundRefusedError)) throw error;
      errors.push({ path, message: `refused by the outbound URL policy: ${error.reason}` });
    }
  }
  if (errors.length > 0)
    throw new ApiError(
      400,
      'Bad Request',
      `${errors.length} invalid field(s): ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`,
      errors,
    );
}
