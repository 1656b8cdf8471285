import { z } from 'zod';
import {
  ConflictError,
  type EntityStore,
  NotFoundError,
  PreconditionFailedError,
  type Services,
  type WithEtag,
} from '../../ports/index.js';
import { IdSchema, type Role } from '../../domain/index.js';
import { ApiError } from '../problem.js';
import { defineRoute, type RouteContext, type RouteDefinition } from '../route.js';
import { pageSchemaOf } from '../schemas.js';
import { etagMatches } from './etags.js';

/** Ids of API-managed entities: the one id rule shared with test cases (lib/domain IdSchema). */
export const EntityIdSchema = IdSchema;

/** `limit` (1-1000, default 50) and `offset` query parameters, as every list of the API takes them. */
export const PagingQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(1000).default(50),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .strict();

/** Paging plus `include_owned`: `true` lists the entities /api/evaluate jobs own too (default: left out). */
export const OwnedPagingQuery = PagingQuery.extend({ include_owned: z.enum(['true', 'false']).default('false') }).strict();

/** A stored entity as the API shows it: `_etag` goes into the ETag header, never into a body. */
export function withoutEtag<T extends object>(entity: WithEtag<T>): T {
  const { _etag, ...rest } = entity;
  return rest as unknown as T;
}

/** What a resource's create/replace hooks get. */
export type EntityContext = Pick<RouteContext<unknown, unknown, unknown>, 'services' | 'url' | 'principal'>;

export interface EntityRoutesSpec<T extends { id: string }, P extends z.ZodType, CB extends z.ZodType, RB extends z.ZodType> {
  /** route-name prefix: `test-suites` gives test-suites-list, -get, -create, -replace, -delete */
  name: string;
  /** OpenAPI tag */
  tag: string;
  /** what one entity is called in summaries and errors, e.g. `test suite` */
  noun: string;
  /** collection path under /api, e.g. `v1/test-suites` */
  collection: string;
  /** item path under the collection: `{id}` or `{name}/versions/{version}` */
  item: string;
  /** the item path's parameters */
  params: P;
  /** the store id of the entity the item path names */
  idOf(params: z.infer<P>): string;
  /** the item path of an entity under /api (for Location headers) */
  pathOf(entity: NoInfer<T>): string;
  /** role for create, replace and delete (every role may read) */
  role: Role;
  /**
   * entities of this kind may be owned by another resource (`owner`: an /api/evaluate job's suite or target): the
   * list leaves them out unless `include_owned=true`
   */
  ownable?: boolean;
  store(services: Services): EntityStore<T>;
  createBody: CB;
  replaceBody: RB;
  /** the entity to create: server fields set, validated (ZodError -> 400), references checked (422) */
  toCreate(body: z.infer<CB>, ctx: EntityContext): Promise<NoInfer<T>>;
  /** the entity that replaces `current` (same id, created_at kept), validated and checked as for create */
  toReplace(body: z.infer<RB>, current: NoInfer<T>, params: z.infer<P>, ctx: EntityContext): Promise<NoInfer<T>>;
  /** who still refers to the entity (`client "nightly"`); a non-empty answer makes delete a 409 naming them */
  referrersOf?(entity: NoInfer<T>, services: Services): Promise<string[]>;
  /** how an entity appears in a list page (default: as stored) */
  listView?(entity: NoInfer<T>): unknown;
  /** the entity as answered (OpenAPI), and, with `listView`, an item of a list page */
  schema: z.ZodType;
  listItemSchema?: z.ZodType;
  /** short descriptions for the OpenAPI document */
  summaries: { list: string; get: string; create: string; replace: string; delete: string };
}

export interface EntityRoutes {
  list: RouteDefinition;
  get: RouteDefinition;
  create: RouteDefinition;
  replace: RouteDefinition;
  remove: RouteDefinition;
}

/**
 * The five CRUD routes every managed entity shares, with one behaviour: create -> 201 with Location and ETag (409
 * when the id exists); get -> 200 with ETag (404); PUT replaces with an optional If-Match (412 on a mismatch, also
 * when someone else writes between our read and our write; 404 when missing); delete -> 204, idempotent, 409 naming
 * what still refers to it. Lists page with limit/offset and answer total/has_more. `_etag` never appears in a body.
 */
export function entityRoutes<T extends { id: string }, P extends z.ZodType, CB extends z.ZodType, RB extends z.ZodType>(
  spec: EntityRoutesSpec<T, P, CB, RB>,
): EntityRoutes {
  const itemPath = `${spec.collection}/${spec.item}`;
  const load = async (services: Services, params: z.infer<P>): Promise<WithEtag<T>> => {
    const id = spec.idOf(params);
    const current = await spec.store(services).get(id);
    if (!current) throw new ApiError(404, 'Not Found', `${spec.noun} "${id}" does not exist`);
    return current;
  };
  const checkIfMatch = (headers: RouteContext<unknown, unknown, unknown>['headers'], current: WithEtag<T>): void => {
    if (!etagMatches(headers.get('if-match'), current._etag)) {
      throw new ApiError(
        412,
        'Precondition Failed',
        `${spec.noun} "${current.id}" has changed since you read it (If-Match does not match its ETag); read it again and retry`,
        [],
        { etag: current._etag },
      );
    }
  };
  const stored = (status: number, entity: WithEtag<T>, extra: Record<string, string> = {}) => ({
    status,
    headers: { etag: entity._etag, ...extra },
    body: withoutEtag(entity),
  });

  return {
    list: defineRoute({
      name: `${spec.name}-list`,
      method: 'GET',
      path: spec.collection,
      role: 'reader',
      tag: spec.tag,
      summary: spec.summaries.list,
      query: spec.ownable ? OwnedPagingQuery : PagingQuery,
      response: pageSchemaOf(spec.listItemSchema ?? spec.schema),
      responses: { 200: `a page of ${spec.noun}s (items, total, has_more, limit, offset)`, 400: 'invalid paging' },
      handler: async ({ services, query }) => {
        const { include_owned, ...paging } = query as z.infer<typeof OwnedPagingQuery>;
        const page = await spec.store(services).list({ ...paging, ...(spec.ownable ? { hideOwned: include_owned !== 'true' } : {}) });
        const view = spec.listView ?? ((e: T) => e);
        return { status: 200, body: { ...page, items: page.items.map((e) => view(withoutEtag(e))) } };
      },
    }),
    get: defineRoute({
      name: `${spec.name}-get`,
      method: 'GET',
      path: itemPath,
      role: 'reader',
      tag: spec.tag,
      summary: spec.summaries.get,
      params: spec.params,
      response: spec.schema,
      responses: { 200: `the ${spec.noun} (its ETag in the ETag header)`, 404: `no such ${spec.noun}` },
      handler: async ({ services, params }) => stored(200, await load(services, params as z.infer<P>)),
    }),
    create: defineRoute({
      name: `${spec.name}-create`,
      method: 'POST',
      path: spec.collection,
      role: spec.role,
      tag: spec.tag,
      summary: spec.summaries.create,
      body: spec.createBody,
      response: spec.schema,
      responses: {
        201: `the ${spec.noun} created (Location and ETag headers)`,
        400: 'invalid body',
        409: 'the id exists',
        422: 'a reference to something that does not exist',
      },
      handler: async (ctx) => {
        const entity = await spec.toCreate(ctx.body as z.infer<CB>, ctx);
        let created: WithEtag<T>;
        try {
          created = await spec.store(ctx.services).create(entity);
        } catch (err) {
          if (err instanceof ConflictError)
            throw new ApiError(
              409,
              'Conflict',
              `${spec.noun} "${entity.id}" already exists; change it with PUT /api/${spec.pathOf(entity)}`,
            );
          throw err;
        }
        return stored(201, created, { location: `${ctx.url.origin}/api/${spec.pathOf(entity)}` });
      },
    }),
    replace: defineRoute({
      name: `${spec.name}-replace`,
      method: 'PUT',
      path: itemPath,
      role: spec.role,
      tag: spec.tag,
      summary: spec.summaries.replace,
      params: spec.params,
      body: spec.replaceBody,
      response: spec.schema,
      responses: {
        200: `the ${spec.noun} replaced (new ETag)`,
        400: 'invalid body',
        404: `no such ${spec.noun}`,
        412: 'If-Match does not match the current ETag',
        422: 'a reference to something that does not exist',
      },
      handler: async (ctx) => {
        const params = ctx.params as z.infer<P>;
        const current = await load(ctx.services, params);
        checkIfMatch(ctx.headers, current);
        const entity = await spec.toReplace(ctx.body as z.infer<RB>, withoutEtag(current), params, ctx);
        try {
          return stored(200, await spec.store(ctx.services).replace(entity, { ifMatch: current._etag }));
        } catch (err) {
          if (err instanceof PreconditionFailedError)
            throw new ApiError(
              412,
              'Precondition Failed',
              `${spec.noun} "${current.id}" was changed by someone else while this request ran; read it again and retry`,
            );
          if (err instanceof NotFoundError)
            throw new ApiError(404, 'Not Found', `${spec.noun} "${current.id}" was deleted while this request ran`);
          throw err;
        }
      },
    }),
    remove: defineRoute({
      name: `${spec.name}-delete`,
      method: 'DELETE',
      path: itemPath,
      role: spec.role,
      tag: spec.tag,
      summary: spec.summaries.delete,
      params: spec.params,
      responses: {
        204: 'deleted (also when it did not exist)',
        409: `something still refers to the ${spec.noun}`,
        412: 'If-Match does not match the current ETag',
      },
      handler: async (ctx) => {
        const store = spec.store(ctx.services);
        const current = await store.get(spec.idOf(ctx.params as z.infer<P>));
        if (!current) return { status: 204 };
        checkIfMatch(ctx.headers, current);
        const referrers = spec.referrersOf ? await spec.referrersOf(withoutEtag(current), ctx.services) : [];
        if (referrers.length > 0) {
          throw new ApiError(
            409,
            'Conflict',
            `${spec.noun} "${current.id}" is still used by ${describeReferrers(referrers)}; change or delete ${referrers.length === 1 ? 'it' : 'them'} first`,
          );
        }
        await store.delete(current.id);
        return { status: 204 };
      },
    }),
  };
}

/** `client "a"`, `client "a", client "b" and 3 more`. */
export function describeReferrers(referrers: readonly string[], max = 5): string {
  const shown = referrers.slice(0, max).join(', ');
  return referrers.length > max ? `${shown} and ${referrers.length - max} more` : shown;
}
