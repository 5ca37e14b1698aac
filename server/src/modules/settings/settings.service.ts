// Admin settings: stored per key, read whole with the defaults filled in.
import { inArray } from 'drizzle-orm';
import { DEFAULT_ADMIN_SETTINGS, type AdminSettings, type AdminSettingsPatch } from '@afrofx/shared';
import type { Database } from '../../db/client';
import { adminSettings } from '../../db/schema';
import { badRequest } from '../../errors';

type SettingKey = keyof AdminSettings;

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export function createSettingsService(db: Database) {
  async function get(): Promise<AdminSettings> {
    const rows = await db.select().from(adminSettings);
    const stored = Object.fromEntries(rows.map((row) => [row.key, row.value]));
    return { ...DEFAULT_ADMIN_SETTINGS, ...stored } as AdminSettings;
  }

  return {
    get,

    /** Changes the given settings; answers them before and after, for the audit trail. */
    async update(
      patch: AdminSettingsPatch,
      adminId: string,
    ): Promise<{ before: AdminSettings; after: AdminSettings }> {
      if (patch.publicationTimeZone !== undefined && !isTimeZone(patch.publicationTimeZone)) {
        throw badRequest(
          `"${patch.publicationTimeZone}" is not a time zone (use an IANA name such as Africa/Lagos).`,
        );
      }
      const before = await get();
      const keys = Object.keys(patch) as SettingKey[];
      if (keys.length > 0) {
        await db.transaction(async (tx) => {
          await tx.delete(adminSettings).where(inArray(adminSettings.key, keys));
          await tx
            .insert(adminSettings)
            .values(
              keys.map((key) => ({ key, value: patch[key], updatedBy: adminId, updatedAt: new Date() })),
            );
        });
      }
      return { before, after: { ...before, ...patch } };
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
