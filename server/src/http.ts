// Envelope helpers (DESIGN §4): every success answer is { data, message, pagination? }.
import { PAGE_SIZE, type Pagination } from '@afrofx/shared';

export function ok<T>(data: T, message: string) {
  return { data, message };
}

export function done(message: string) {
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
