import { abstentionScenarios } from './abstention.js';
import { analyticsScenarios } from './analytics.js';
import { inventoryScenarios } from './inventory.js';
import { orderScenarios } from './orders.js';
import { productScenarios } from './products.js';
import { refundScenarios } from './refunds.js';
import { shippingScenarios } from './shipping.js';
import { supportScenarios } from './support.js';
import type { CaseCategory, CaseSpec, Scenario, ScenarioContext } from './types.js';

const SCENARIOS = {
  orders: orderScenarios,
  products: productScenarios,
  inventory: inventoryScenarios,
  shipping: shippingScenarios,
  refunds: refundScenarios,
  support: supportScenarios,
  analytics: analyticsScenarios,
  abstention: abstentionScenarios,
} satisfies Record<CaseCategory, Scenario>;

/** Every case of the sample, category by category; each category draws from its own random stream. */
export function allScenarios(ctx: ScenarioContext): CaseSpec[] {
  return (Object.keys(SCENARIOS) as CaseCategory[]).flatMap((category) => {
    const specs = SCENARIOS[category]({ ...ctx, rng: ctx.rng.fork(category) });
    for (const spec of specs) {
      if (spec.category !== category) throw new Error(`scenario ${spec.kind} is filed under ${category} but says ${spec.category}`);
    }
    return specs;
  });
}
