import { Type, type Static } from '@sinclair/typebox';

export const Feature = Type.Object({ _id: Type.String(), title: Type.String() });
export type Feature = Static<typeof Feature>;

export const Plan = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  amount: Type.Number({ description: 'Dollars per year' }),
  numberOfRequest: Type.Integer({ description: 'Requests per month' }),
  createdAt: Type.String({ format: 'date-time' }),
  features: Type.Array(Feature),
});
export type Plan = Static<typeof Plan>;
