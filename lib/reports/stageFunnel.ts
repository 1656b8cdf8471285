import { STAGE_NAMES, type Scorecard } from '../domain/index.js';
import type { FunnelStep } from './reportModel.js';

/** Counts the funnel in one pass; the last step's `remaining` is the run's passed count. */
export class StageFunnelBuilder {
  private readonly ran = STAGE_NAMES.map(() => 0);
  private readonly remaining = STAGE_NAMES.map(() => 0);

  add(card: Pick<Scorecard, 'stages'>): void {
    let clean = true;
    STAGE_NAMES.forEach((stage, i) => {
      const status = card.stages[stage]?.status ?? 'skipped';
      if (status !== 'skipped') this.ran[i]! += 1;
      if (status === 'failed' || status === 'error') clean = false;
      if (clean) this.remaining[i]! += 1;
    });
  }

  result(): FunnelStep[] {
    return STAGE_NAMES.map((stage, i) => ({ stage, ran: this.ran[i]!, remaining: this.remaining[i]! }));
  }
}
