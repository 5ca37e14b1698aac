import { Type, type Static } from '@sinclair/typebox';
import { ASSETS, BASES, MARKETS } from '../constants';
import { EmailAddress, StringEnum } from './common';

export const MarketSchema = StringEnum(MARKETS, { description: 'Market' });
export const AssetSchema = StringEnum(ASSETS, { description: 'Foreign asset' });
export const BaseSchema = StringEnum(BASES, { description: 'Base (African) currency' });

export const Rate = Type.Object({
  _id: Type.String(),
  market: MarketSchema,
  asset: AssetSchema,
  base: BaseSchema,
  buy: Type.Number(),
  sell: Type.Number(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type Rate = Static<typeof Rate>;

const price = Type.Number({ exclusiveMinimum: 0, maximum: 1e9 });

export const RateInput = Type.Object(
  { market: MarketSchema, asset: AssetSchema, base: BaseSchema, buy: price, sell: price },
  { additionalProperties: false },
);
export type RateInput = Static<typeof RateInput>;

export const MarketParams = Type.Object({ market: MarketSchema });
export type MarketParams = Static<typeof MarketParams>;

export const ExportRatesInput = Type.Object({ email: EmailAddress }, { additionalProperties: false });
export type ExportRatesInput = Static<typeof ExportRatesInput>;
