// The public site as a crawler reads it: the web build's files in a folder of their own, and what a page's HTML
// carries besides what it shows (the page seed the browser starts from, the structured data).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PAGE_SEED_ID, type PageSeed } from '@afrofx/shared';

/** A folder laid out as `vite build` leaves web/dist: index.html, and the files named in `assets` under assets/. */
export async function webDist(indexHtml: string, assets: Record<string, string> = {}) {
  const dir = await mkdtemp(path.join(tmpdir(), 'afrofx-web-dist-'));
  await writeFile(path.join(dir, 'index.html'), indexHtml);
  await mkdir(path.join(dir, 'assets'));
  for (const [name, text] of Object.entries(assets)) await writeFile(path.join(dir, 'assets', name), text);
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export function pageSeed(html: string): PageSeed {
  const match = new RegExp(`<script type="application/json" id="${PAGE_SEED_ID}">(.*?)</script>`).exec(html);
  return JSON.parse(match![1]!) as PageSeed;
}

export function jsonLd(html: string): Array<Record<string, unknown>> {
  const match = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
  return match ? JSON.parse(match[1]!) : [];
}
