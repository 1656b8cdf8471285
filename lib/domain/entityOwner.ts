import { z } from 'zod';

/**
 * What owns an entity that exists only for another resource: the suite and target an /api/evaluate job creates
 * belong to that job. Owned entities are left out of ordinary lists (`?include_owned=true` shows them) and are
 * deleted with their owner (lib/api/compat/compatJobCleanup.ts).
 */
export const EntityOwnerSchema = z
  .object({
    kind: z.literal('evaluate-job'),
    /** the owner's id (the job id) */
    id: z.string().min(1),
  })
  .strict();
export type EntityOwner = z.infer<typeof EntityOwnerSchema>;
