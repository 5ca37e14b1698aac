// The public pages' markup on the server: built by `vite build --ssr` into dist/server/entry-server.js,
// which the server loads (server/src/plugins/spa.ts). The browser hydrates it from the same seed (boot.tsx).
import type { PageSeed, RenderPage } from '@afrofx/shared';
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { App } from './app/App';
import { seededApp } from './app/page-seed';

export const renderPage: RenderPage = async (url: string, seed: PageSeed) => {
  const { store, clock } = seededApp(seed);
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <App store={store} location={url} clock={clock} />
    </StrictMode>,
    // A large boundary is otherwise sent after the rest, with an inline script that moves it into place, which the
    // site's Content-Security-Policy (script-src 'self') does not run: every boundary stays in place.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
};
