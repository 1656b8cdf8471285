export { runSemanticsStage } from './runSemanticsStage.js';
export type { SemanticsDetails, SemanticsStageOptions, SemanticsStageOutput } from './runSemanticsStage.js';
export { scoreReferenceMetrics } from './referenceMetrics.js';
