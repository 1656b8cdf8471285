// Human annotation tasks and judge calibration: other folders import them from here.
export { calibrateJudge, judgeOf } from './calibration.js';
export {
  AnnotationInputError,
  CreateAnnotationTaskSchema,
  createAnnotationTask,
  exportRows,
  itemView,
  progressOf,
  submitAnnotation,
  taskAgreement,
} from './annotationTasks.js';
export type { AnnotationExportRow, AnnotationProgress } from './annotationTasks.js';
export { importAnnotations, ImportAnnotationsSchema, MAX_IMPORTED_LABELS } from './importAnnotations.js';
export type { ImportAnnotations, ImportResult } from './importAnnotations.js';
