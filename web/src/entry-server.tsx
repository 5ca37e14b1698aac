// The public pages' markup on the server (issue 22): built by `vite build --ssr` into dist/server/entry-server.js,
// which the server loads (server/src/plugins/spa.ts). The browser hydrates it from the same seed (main.tsx).
import type { PageSeed, RenderPage } from '@afrofx/shared';
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { App } from './app/App';
import { seededApp } from './app/page-seed';

export const renderPage: RenderPage = async (url: string, seed: PageSeed) => {
  const { store, clock } = seededApp(seed);
  // Waits for the lazy pages' code, so that the markup is the page's, not its loading state.
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <App store={store} location={url} clock={clock} />
    </StrictMode>,
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
};
