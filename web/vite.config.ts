import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rolldown, type UserConfig } from 'vite';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
// Formats that are compressed already: a second pass only costs the server a lookup.
const COMPRESSED_FORMATS = /\.(woff2?|png|jpe?g|webp|avif|gif|br|gz)$/;

/**
 * Writes a .br and a .gz beside every built file, so that the server sends them as they are
 * (@fastify/static `preCompressed`) instead of compressing on every request.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'afrofx-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
      const files = entries
        .filter((entry) => entry.isFile() && !COMPRESSED_FORMATS.test(entry.name))
        .map((entry) => path.join(entry.parentPath, entry.name));
      await Promise.all(
        files.map(async (file) => {
          const source = await readFile(file);
          const [br, gz] = await Promise.all([
            brotli(source, {
              params: {
                [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
                [zlib.BROTLI_PARAM_SIZE_HINT]: source.length,
              },
            }),
            gzipped(source, { level: zlib.Z_BEST_COMPRESSION }),
          ]);
          if (br.length < source.length) await writeFile(`${file}.br`, br);
          if (gz.length < source.length) await writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
}

/**
 * Fetches the app's chunk (and what it imports) with the page: main.tsx imports it only after the first paint, by when it has arrived.
 * (Vite's own preloading is off, see modulePreload below.)
 */
function preloadApp(): Plugin {
  return {
    name: 'afrofx-preload-app',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const app = Object.values(bundle ?? {}).find(
          (output): output is Rolldown.OutputChunk =>
            output.type === 'chunk' && output.name === 'app' && !output.isEntry,
        );
        if (!app) throw new Error('the app chunk is missing from the build');
        return [app.fileName, ...app.imports].map((file) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: '', href: `/${file}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

/** Preloads the Latin Inter face from index.html: every page's text needs it, and the CSS finds it late. */
function preloadLatinFont(): Plugin {
  return {
    name: 'afrofx-preload-latin-font',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const font = Object.keys(bundle ?? {}).find((name) =>
          /inter-latin-wght-normal-[\w-]+\.woff2$/.test(name),
        );
        if (!font) throw new Error('the Latin Inter font is missing from the build');
        return [
          {
            tag: 'link',
            attrs: { rel: 'preload', href: `/${font}`, as: 'font', type: 'font/woff2', crossorigin: '' },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

// The app's code that main.tsx imports once the page is painted: with what it imports, the one chunk `/` loads.
const ENTRY = path.resolve(import.meta.dirname, 'src/boot.tsx');
const FRAMEWORK =
  /node_modules[\\/](react|react-dom|scheduler|react-router|react-redux|@reduxjs|immer|redux|reselect|use-sync-external-store)[\\/]/;
const SITE = /[\\/]web[\\/]src[\\/]/;

/**
 * Whether a module goes into the one chunk that `/` loads: the libraries every page needs and the
 * site's modules that the entry imports statically (what those need from `shared/` follows them). One file
 * compresses better than the framework, the site's code and the small chunks they share with the lazy pages apart
 * (about 1.4 kB of brotli); the lazy pages import what they need from it. The price: after a change to the site's
 * code, a returning visitor fetches the libraries again too.
 */
function firstLoad(id: string, moduleInfo: (id: string) => Rolldown.ModuleInfo | null): boolean {
  if (FRAMEWORK.test(id)) return true;
  if (!SITE.test(id)) return false;
  // Only the site's own modules import the site's modules, so the search stays inside web/src.
  const reached = new Set([ENTRY]);
  for (const module of reached) {
    if (module === id) return true;
    for (const imported of moduleInfo(module)?.importedIds ?? [])
      if (SITE.test(imported)) reached.add(imported);
  }
  return false;
}

// `vite build --ssr src/entry-server.tsx` (npm run build): the public pages' renderer for the server, one file with
// its libraries inside, so that the server's image needs none of the web's packages.
const SSR_BUILD: UserConfig = {
  plugins: [react()],
  ssr: { noExternal: true },
  // The libraries' production code, whatever NODE_ENV the server runs with: no development checks on each render.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: 'dist/server',
    emptyOutDir: true,
    copyPublicDir: false,
    rolldownOptions: { output: { codeSplitting: false } },
  },
};

export default defineConfig(({ isSsrBuild }) =>
  isSsrBuild
    ? SSR_BUILD
    : {
        plugins: [react(), tailwindcss(), preloadApp(), preloadLatinFont(), precompress()],
        build: {
          outDir: 'dist',
          emptyOutDir: true,
          // No preloading helper: with it, `/` carried a list of every lazy chunk's dependencies and the code to fetch
          // them ahead (about 0.45 kB of brotli). The price: on the first visit of a lazy page, the small
          // chunks it shares with other pages are fetched once it has arrived, one round trip later, instead of beside it.
          modulePreload: false,
          rolldownOptions: {
            output: {
              codeSplitting: {
                groups: [
                  // Vite's helper that main.tsx's import goes through: a chunk of its own, else it joins the app's
                  // chunk and main.tsx would have to evaluate that chunk before the first paint.
                  { name: (id) => (id.includes('preload-helper') ? 'preload-helper' : null) },
                  {
                    name: (id, context) =>
                      firstLoad(id, (module) => context.getModuleInfo(module)) ? 'app' : null,
                  },
                ],
              },
            },
          },
        },
        server: {
          proxy: { '/v1': 'http://localhost:3000' },
        },
      },
);
