import { Type, type Static } from '@sinclair/typebox';
import { Entitlements } from '../entitlements';
import { Id, Text } from './common';

export const Feature = Type.Object({ _id: Type.String(), title: Type.String() });
export type Feature = Static<typeof Feature>;

export const Plan = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  amount: Type.Number({ description: 'Dollars per year (0: a free plan)' }),
  numberOfRequest: Type.Integer({ description: 'Requests per month' }),
  entitlements: Entitlements,
  onSale: Type.Boolean({ description: 'False while the plan is a draft the admin has not put on sale' }),
  createdAt: Type.String({ format: 'date-time' }),
  features: Type.Array(Feature),
});
export type Plan = Static<typeof Plan>;

/**
 * SPEC §5: name, amount and numberOfRequest are required; amounts are dollars per year in whole cents, 0 for a free
 * plan. Entitlements left out open everything. A new plan is a draft, off sale, until onSale is true; left out on
 * edit, whether it is on sale is kept.
 */
export const PlanInput = Type.Object(
  {
    name: Text({ maxLength: 80 }),
    // Whole cents are checked by the server: JSON Schema's multipleOf is unreliable for decimals (19.99 fails).
    amount: Type.Number({
      minimum: 0,
      maximum: 1_000_000,
      description: 'Dollars per year, whole cents; 0 is a free plan',
    }),
    numberOfRequest: Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: 'Requests per month' }),
    entitlements: Type.Optional(Entitlements),
    onSale: Type.Optional(
      Type.Boolean({
        description: 'On sale (true) or a draft nobody can buy (false); a new plan is a draft',
      }),
    ),
  },
  { additionalProperties: false },
);
export type PlanInput = Static<typeof PlanInput>;

/** SPEC §5: a feature's title is required. */
export const FeatureInput = Type.Object({ title: Text({ maxLength: 160 }) }, { additionalProperties: false });
export type FeatureInput = Static<typeof FeatureInput>;

export const PlanParams = Type.Object({ planId: Id });
export type PlanParams = Static<typeof PlanParams>;

export const PlanFeatureParams = Type.Object({ featureId: Id, planId: Id });
export type PlanFeatureParams = Static<typeof PlanFeatureParams>;
