/** The batch size of a store's batched deletes (`delete*(…, { limit })`): 1-10,000, default 1,000. */
export function deleteLimit(limit: number | undefined): number {
  return Math.min(10_000, Math.max(1, Math.floor(limit ?? 1_000)));
}
