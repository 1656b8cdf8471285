import type { FeedbackCandidate, FeedbackInteraction } from '../domain/index.js';
import { ConflictError, NotFoundError, type CandidateFilter, type FeedbackStore, type WithEtag } from '../ports/index.js';
import type { Ownership } from './ownership.js';

/**
 * Production feedback seen by one organization: interactions and candidates are stamped with it on write, another
 * organization's are misses (an interaction id another organization posted is a conflict, never a read of theirs).
 */
export class ScopedFeedbackStore implements FeedbackStore {
  constructor(
    private readonly inner: FeedbackStore,
    private readonly scope: Ownership,
  ) {}

  async addInteraction(
    interaction: FeedbackInteraction,
    receivedAt: string,
  ): Promise<{ created: boolean; interaction: FeedbackInteraction }> {
    const existing = await this.inner.getInteraction(interaction.id);
    if (existing && !this.scope.owns(existing)) throw new ConflictError('feedback interaction', interaction.id);
    const result = await this.inner.addInteraction(this.scope.stamp(interaction), receivedAt);
    return { created: result.created, interaction: this.scope.visible(result.interaction)! };
  }

  async getInteraction(id: string): Promise<FeedbackInteraction | undefined> {
    return this.scope.visible(await this.inner.getInteraction(id));
  }

  async createCandidate(candidate: FeedbackCandidate): Promise<WithEtag<FeedbackCandidate>> {
    return this.scope.written(this.inner.createCandidate(this.scope.stamp(candidate)));
  }

  async getCandidate(id: string): Promise<WithEtag<FeedbackCandidate> | undefined> {
    return this.scope.visible(await this.inner.getCandidate(id));
  }

  async replaceCandidate(candidate: FeedbackCandidate, options?: { ifMatch?: string }): Promise<WithEtag<FeedbackCandidate>> {
    if (!(await this.getCandidate(candidate.id))) throw new NotFoundError('feedback candidate', candidate.id);
    return this.scope.written(this.inner.replaceCandidate(this.scope.stamp(candidate), options));
  }

  async listCandidates(filter?: CandidateFilter): Promise<Array<WithEtag<FeedbackCandidate>>> {
    return this.scope.visibleOnly(await this.inner.listCandidates(filter));
  }
}
