import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bodyOf, parseBicep, textOf, valueAt, type Declaration, type Node } from './bicepText.js';

/** Test support: infra/'s files, parsed once. */
export const INFRA_DIR = new URL('.', import.meta.url).pathname;
export const ROOT_DIR = join(INFRA_DIR, '..');

export const readText = (path: string): string => readFileSync(join(INFRA_DIR, path), 'utf8');

export interface BicepFile {
  path: string;
  text: string;
  declarations: Declaration[];
}

export function bicepFiles(): BicepFile[] {
  const paths = [
    ...readdirSync(INFRA_DIR).filter((f) => f.endsWith('.bicep')),
    ...readdirSync(join(INFRA_DIR, 'modules'))
      .filter((f) => f.endsWith('.bicep'))
      .map((f) => `modules/${f}`),
  ];
  return paths.map((path) => {
    const text = readText(path);
    return { path, text, declarations: parseBicep(text) };
  });
}

export const declarationsOf = (file: BicepFile, keyword: Declaration['keyword']): Declaration[] =>
  file.declarations.filter((d) => d.keyword === keyword);

/** The resource type (without API version) of a resource symbol of a file; nested resources get `parent/child`. */
export function resourceTypeOf(file: BicepFile, symbol: string): string | undefined {
  const d = file.declarations.find((x) => x.keyword === 'resource' && x.name === symbol);
  if (!d?.type) return undefined;
  const type = d.type.split('@')[0]!;
  return d.parent ? `${resourceTypeOf(file, d.parent)}/${type}` : type;
}

export interface RoleAssignment {
  file: string;
  symbol: string;
  /** the type of the resource it is scoped to */
  scopeType: string | undefined;
  /** the platform.json role key (`roles.<key>.id`) */
  role: string | undefined;
  name: string;
  principalType: string;
}

/** Every Azure RBAC role assignment of infra/, with the resource it is scoped to and the platform.json role. */
export function roleAssignments(files: BicepFile[]): RoleAssignment[] {
  return files.flatMap((file) =>
    file.declarations
      .filter((d) => d.keyword === 'resource' && d.type?.startsWith('Microsoft.Authorization/roleAssignments@'))
      .map((d) => {
        const scope = textOf(valueAt(d.value, 'scope'));
        const roleText = textOf(valueAt(d.value, 'properties.roleDefinitionId'));
        return {
          file: file.path,
          symbol: d.name,
          scopeType: resourceTypeOf(file, scope),
          role: /roles\.(\w+)\.id/.exec(roleText)?.[1],
          name: textOf(valueAt(d.value, 'name')),
          principalType: textOf(valueAt(d.value, 'properties.principalType')),
        };
      }),
  );
}

export const stringValue = (node: Node | undefined): string | undefined => {
  const text = textOf(node);
  return /^'[^']*'$/.test(text) ? text.slice(1, -1) : undefined;
};

export { bodyOf, textOf, valueAt };
