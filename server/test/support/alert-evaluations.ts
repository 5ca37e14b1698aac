import { eq } from 'drizzle-orm';
import { rateAlerts } from '../../src/db/schema';
import { eventually, type TestApp } from './test-app';

/**
 * Waits on the evaluation of the latest USD/NGN cash publication: a move alert of that pair (written by every
 * evaluation, where a threshold alert is written only when it crosses) holds its figure.
 */
export function alertEvaluations(app: () => TestApp) {
  let sentinelId: string | undefined;
  return {
    async watchEvaluations() {
      sentinelId ??= (
        await app().runtime.services.alerts.createForChat(990_001, {
          market: 'black_market_cash',
          base: 'naira',
          asset: 'dollar',
          side: 'sell',
          condition: 'move',
          level: 1_000_000,
        })
      )._id;
    },
    async evaluatedAt(_alertId: string, figure: number) {
      await eventually(async () => {
        const [row] = await app()
          .runtime.database.db.select()
          .from(rateAlerts)
          .where(eq(rateAlerts.id, sentinelId!));
        expect(row?.lastFigure).toBeCloseTo(figure, 4);
      });
    },
  };
}
