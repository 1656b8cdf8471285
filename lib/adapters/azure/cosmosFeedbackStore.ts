import type { Container } from '@azure/cosmos';
import {
  FeedbackCandidateSchema,
  FeedbackInteractionSchema,
  type FeedbackCandidate,
  type FeedbackInteraction,
} from '../../domain/index.js';
import { type CandidateFilter, ConflictError, type FeedbackStore, NotFoundError, type WithEtag } from '../../ports/index.js';
import { queryAll } from './cosmosBulk.js';
import { readOrUndefined, toStoreError } from './cosmosErrors.js';
import { toCosmosId } from './cosmosIds.js';

interface InteractionDocument {
  id: string;
  type: 'interaction';
  entity_id: string;
  received_utc: string;
  body: FeedbackInteraction;
}

interface CandidateDocument {
  id: string;
  type: 'candidate';
  entity_id: string;
  status: string;
  group_id: string;
  created_utc: string;
  body: FeedbackCandidate;
  _etag?: string;
}

const interactionDocId = (id: string): string => toCosmosId(`interaction:${id}`);
const candidateDocId = (id: string): string => toCosmosId(`candidate:${id}`);

/**
 * The feedback store on Cosmos DB, container `feedback` (partition key /id: one logical partition per document, so
 * a create of an existing interaction or candidate is an exact 409 wherever it lands). Candidate decisions replace
 * with IfMatch on the ETag. Lists are cross-partition queries on the indexed type/status/group, sorted here.
 */
export class CosmosFeedbackStore implements FeedbackStore {
  constructor(private readonly container: Container) {}

  async addInteraction(
    interaction: FeedbackInteraction,
    receivedAt: string,
  ): Promise<{ created: boolean; interaction: FeedbackInteraction }> {
    const valid = FeedbackInteractionSchema.parse(interaction);
    const doc: InteractionDocument = {
      id: interactionDocId(valid.id),
      type: 'interaction',
      entity_id: valid.id,
      received_utc: new Date(receivedAt).toISOString(),
      body: valid,
    };
    try {
      await this.container.items.create<InteractionDocument>(doc);
      return { created: true, interaction: valid };
    } catch (error) {
      const mapped = toStoreError(error, 'feedback interaction', valid.id);
      if (mapped instanceof ConflictError) return { created: false, interaction: (await this.getInteraction(valid.id))! };
      throw mapped;
    }
  }

  async getInteraction(id: string): Promise<FeedbackInteraction | undefined> {
    const doc = await readOrUndefined(this.container.item(interactionDocId(id), interactionDocId(id)).read<InteractionDocument>());
    return doc && FeedbackInteractionSchema.parse(doc.body);
  }

  async createCandidate(candidate: FeedbackCandidate): Promise<WithEtag<FeedbackCandidate>> {
    const doc = toCandidateDocument(candidate);
    try {
      return fromCandidateDocument((await this.container.items.create<CandidateDocument>(doc)).resource!);
    } catch (error) {
      throw toStoreError(error, 'feedback candidate', doc.entity_id);
    }
  }

  async getCandidate(id: string): Promise<WithEtag<FeedbackCandidate> | undefined> {
    const doc = await readOrUndefined(this.container.item(candidateDocId(id), candidateDocId(id)).read<CandidateDocument>());
    return doc && fromCandidateDocument(doc);
  }

  async replaceCandidate(candidate: FeedbackCandidate, options: { ifMatch?: string } = {}): Promise<WithEtag<FeedbackCandidate>> {
    const doc = toCandidateDocument(candidate);
    try {
      const { resource } = await this.container
        .item(doc.id, doc.id)
        .replace<CandidateDocument>(doc, options.ifMatch ? { accessCondition: { type: 'IfMatch', condition: options.ifMatch } } : {});
      if (!resource) throw new NotFoundError('feedback candidate', doc.entity_id);
      return fromCandidateDocument(resource);
    } catch (error) {
      throw toStoreError(error, 'feedback candidate', doc.entity_id);
    }
  }

  async listCandidates(filter: CandidateFilter = {}): Promise<Array<WithEtag<FeedbackCandidate>>> {
    const where = ["c.type = 'candidate'"];
    const parameters: Array<{ name: string; value: string }> = [];
    if (filter.status) {
      where.push('c.status = @status');
      parameters.push({ name: '@status', value: filter.status });
    }
    if (filter.group_id) {
      where.push('c.group_id = @group');
      parameters.push({ name: '@group', value: filter.group_id });
    }
    const docs = await queryAll<CandidateDocument>(this.container, { query: `SELECT * FROM c WHERE ${where.join(' AND ')}`, parameters });
    return docs
      .sort((a, b) => a.created_utc.localeCompare(b.created_utc) || (a.entity_id < b.entity_id ? -1 : a.entity_id > b.entity_id ? 1 : 0))
      .map(fromCandidateDocument);
  }
}

function toCandidateDocument(candidate: FeedbackCandidate): CandidateDocument {
  const { _etag: _ignored, ...rest } = candidate as FeedbackCandidate & { _etag?: string };
  const valid = FeedbackCandidateSchema.parse(rest);
  return {
    id: candidateDocId(valid.id),
    type: 'candidate',
    entity_id: valid.id,
    status: valid.status,
    group_id: valid.group_id,
    created_utc: new Date(valid.created_at).toISOString(),
    body: valid,
  };
}

function fromCandidateDocument(doc: CandidateDocument): WithEtag<FeedbackCandidate> {
  return { ...FeedbackCandidateSchema.parse(doc.body), _etag: doc._etag ?? '' };
}
