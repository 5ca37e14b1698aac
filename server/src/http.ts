// Envelope helpers (DESIGN §4): every success answer is { data, message, pagination? }.
import { PAGE_SIZE, type Pagination } from '@afrofx/shared';

export function ok<T>(data: T, message: string) {
  return { data, message };
}

/** An answer with nothing to return but its message. */
export function messageOnly(message: string) {
  return { data: null, message };
}

export interface Page {
  page: number;
  limit: number;
  offset: number;
}

export function pageOf(page: number | undefined): Page {
  const current = page ?? 1;
  return { page: current, limit: PAGE_SIZE, offset: (current - 1) * PAGE_SIZE };
}

export function paginationFor(page: Page, count: number): Pagination {
  return { next: page.offset + page.limit < count ? page.page + 1 : null, count };
}

export function paged<T>(page: Page, rows: T[], count: number, message: string) {
  return { data: rows, message, pagination: paginationFor(page, count) };
}

/**
 * The calls that hash a password: 429 with Retry-After past a limit (per client, mailbox, or everybody's sign-ups
 * of the minute), 503 with Retry-After when the password hashing queue is full.
 */
export const BUSY_ANSWERS = {
  429: { $ref: 'ErrorBody#', description: 'Too many attempts: Retry-After says when to try again.' },
  503: { $ref: 'ErrorBody#', description: 'Busy hashing passwords: Retry-After says when to try again.' },
};
