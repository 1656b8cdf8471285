import type { JsonObject } from '../../domain/index.js';
import type { EnvironmentDefinition } from '../environment.js';
import { RETAIL_CATALOG } from './retailCatalog.js';
import { RETAIL_OPERATIONS } from './retailOperations.js';
import { defaultRetailState, emptyRetailState, lowStockRetailState } from './retailState.js';

const asJson = (build: () => unknown) => () => build() as JsonObject;

/** The retail environment: customers, orders, refunds, inventory and support tickets (see ../README.md). */
export const RETAIL_ENVIRONMENT: EnvironmentDefinition = {
  name: 'retail',
  description: 'Customers, orders, refunds, inventory and support tickets of a small shop.',
  catalog: RETAIL_CATALOG,
  initialStates: { default: asJson(defaultRetailState), low_stock: asJson(lowStockRetailState), empty: asJson(emptyRetailState) },
  operations: RETAIL_OPERATIONS,
};
