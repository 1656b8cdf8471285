export { ROUTES } from './routeTable.js';
export { handleRequest, type ApiRequest } from './handleRequest.js';
export { defineRoute, type ApiResult, type RouteDefinition, type RouteContext, type RunOrchestrations } from './route.js';
export { ApiError, toProblem, type FieldError, type ProblemResponse } from './problem.js';
export { ROLES, RoleSchema, allows, type Role, type Principal } from './roles.js';
export { createApiKey, authenticateApiKey, presentedKey } from './apiKeys.js';
