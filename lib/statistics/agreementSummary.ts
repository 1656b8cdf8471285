import { cohenKappa } from './cohenKappa.js';
import { annotatorAgreementWithConsensus, type AnnotatorAgreement } from './consensus.js';
import { fleissKappa, fleissTable } from './fleissKappa.js';
import { krippendorffAlpha, type AlphaResult, type MeasurementLevel, type Rating } from './krippendorffAlpha.js';

export interface PairKappa {
  annotators: [string, string];
  /** items both labelled */
  shared: number;
  kappa: number | null;
  rawAgreement: number;
}

export interface AgreementSummary {
  level: MeasurementLevel;
  items: number;
  annotators: number;
  ratings: number;
  alpha: AlphaResult;
  /** Fleiss' kappa (nominal), or null with the reason when the items do not all have the same number of labels */
  fleiss: { kappa: number | null; ratersPerItem: number } | null;
  fleissSkipped?: string;
  /** Cohen's kappa for each pair of annotators that share at least two items */
  pairs: PairKappa[];
  /** each annotator against the majority of the others */
  perAnnotator: AnnotatorAgreement[];
}

/** Every agreement statistic the platform reports on a set of labels, in one call. */
export function agreementSummary(
  ratings: readonly Rating[],
  options: { level: MeasurementLevel; order?: readonly (string | number | boolean)[] },
): AgreementSummary {
  const alpha = krippendorffAlpha(ratings, options);
  const table = fleissTable(ratings);
  const fleiss = table ? fleissKappa(table.counts) : null;
  const annotators = [...new Set(ratings.map((r) => r.annotator))];
  const byAnnotator = new Map<string, Map<string, Rating['label']>>();
  for (const r of ratings) {
    let m = byAnnotator.get(r.annotator);
    if (!m) byAnnotator.set(r.annotator, (m = new Map()));
    m.set(r.item, r.label);
  }
  const pairs: PairKappa[] = [];
  for (let i = 0; i < annotators.length; i++) {
    for (let j = i + 1; j < annotators.length; j++) {
      const a = byAnnotator.get(annotators[i]!)!;
      const b = byAnnotator.get(annotators[j]!)!;
      const shared = [...a.keys()].filter((item) => b.has(item)).map((item) => [a.get(item)!, b.get(item)!] as const);
      if (shared.length < 2) continue;
      const k = cohenKappa(shared);
      pairs.push({
        annotators: [annotators[i]!, annotators[j]!],
        shared: shared.length,
        kappa: k.kappa,
        rawAgreement: k.observedAgreement,
      });
    }
  }
  return {
    level: options.level,
    items: new Set(ratings.map((r) => r.item)).size,
    annotators: annotators.length,
    ratings: ratings.length,
    alpha,
    fleiss: fleiss ? { kappa: fleiss.kappa, ratersPerItem: fleiss.ratersPerSubject } : null,
    ...(fleiss ? {} : { fleissSkipped: 'items do not all have the same number (at least two) of labels' }),
    pairs,
    perAnnotator: annotatorAgreementWithConsensus(ratings),
  };
}
