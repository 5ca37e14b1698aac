// One ESLint config for the whole repository: `npx eslint .` from the root.
const { defineConfig, globalIgnores } = require('eslint/config');
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const reactHooks = require('eslint-plugin-react-hooks');
const globals = require('globals');

// STYLE.md: imports flow shared → server | web; the web's features are islands that never import each other.
const otherFeatures = (feature) => {
  const others = ['public', 'developer', 'admin'].filter((name) => name !== feature).join('|');
  return {
    regex: `(^|/)features/(${others})(/|$)|^(\\.\\./)+(${others})(/|$)`,
    message: `features/${feature} must not import another feature; move shared code to web/src/components.`,
  };
};
const notServer = {
  regex: '^(@afrofx/|(\\.\\./)+)server(/|$)',
  message: 'Only server/ imports server code.',
};
const notWeb = { regex: '^(@afrofx/|(\\.\\./)+)web(/|$)', message: 'Only web/ imports web code.' };
// A module never imports the files that compose the modules, not even for a type (no
// import cycle, no arrow back up the server's floors). A route plugin declares the services and settings it takes
// as its options; app.ts hands them over.
const notComposer = {
  regex: '^(\\.\\./)+(app|services|runtime|route-options)$',
  message:
    'Modules must not import app.ts, services.ts, runtime.ts or route-options.ts: declare what a route plugin needs in its options (or use queue/enqueue.ts).',
};
// STYLE.md: typed hooks are made once with `.withTypes<>()` (in web/src/store, which features may import, unlike
// web/src/app); everything else uses those.
const untypedHooks = {
  name: 'react-redux',
  importNames: ['useDispatch', 'useSelector', 'useStore'],
  message: 'Use the typed hooks from web/src/store/hooks.ts.',
};
// The web's import zones: shared pieces → features → layouts → app. The app (routes) and the layouts (the shells
// around the pages) compose the features, so a feature importing them would be a cycle; the shared pieces serve
// every feature, so they import none.
const notApp = {
  regex: '^(\\.\\./)+(app|layouts)(/|$)',
  message:
    'features must not import web/src/app or web/src/layouts (they compose them); shared code goes to components, lib or store.',
};
const notFeatures = {
  regex: '^(\\.\\./)+(features|layouts)(/|$)',
  message:
    'Shared web code (components, lib, api, store) must not import a feature or a layout; pass what it needs as props.',
};
const restrict = (patterns, paths = []) => ({
  'no-restricted-imports': ['error', { patterns, paths }],
});

module.exports = defineConfig([
  globalIgnores([
    '**/dist/',
    '**/node_modules/',
    '**/coverage/',
    'data/',
    'e2e-artifacts/',
    'test-results/',
    'bench-results/',
    'server/drizzle/',
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The root package is CommonJS (jest.config.js, this file); .cjs anywhere.
    files: ['*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    languageOptions: { globals: { ...globals.browser } },
  },
  { files: ['shared/**'], rules: restrict([notServer, notWeb]) },
  { files: ['server/**'], rules: restrict([notWeb]) },
  { files: ['server/src/modules/**'], rules: restrict([notWeb, notComposer]) },
  { files: ['web/**'], rules: restrict([notServer], [untypedHooks]) },
  { files: ['web/src/app/**'], rules: restrict([notServer]) },
  {
    files: ['web/src/{components,lib,api,store}/**'],
    rules: restrict([notServer, notFeatures], [untypedHooks]),
  },
  // Where the typed hooks are made from the untyped ones.
  { files: ['web/src/store/hooks.ts'], rules: restrict([notServer, notFeatures]) },
  ...['public', 'developer', 'admin'].map((feature) => ({
    files: [`web/src/features/${feature}/**`],
    rules: restrict([notServer, notApp, otherFeatures(feature)], [untypedHooks]),
  })),
]);
