import { z } from 'zod';

/** A secret is never stored: only a reference to an environment variable or a Key Vault secret name. */
export const SecretRefSchema = z.union([
  z.object({ env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name') }).strict(),
  z.object({ keyvault: z.string().regex(/^[0-9A-Za-z-]{1,127}$/, 'a Key Vault secret name') }).strict(),
]);
export type SecretRef = z.infer<typeof SecretRefSchema>;
