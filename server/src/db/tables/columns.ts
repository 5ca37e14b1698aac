// Column shapes every table writes the same way.
import { numeric, timestamp } from 'drizzle-orm/pg-core';

export const createdAt = () =>
  timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const money = (name: string) => numeric(name, { precision: 20, scale: 6, mode: 'number' });
