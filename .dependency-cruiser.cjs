// The server's layers, as rules dependency-cruiser holds (`npm run lint:layers`, part of `npm run lint`).
// Entry points (main, worker, app, services, runtime, jobs, plugins) compose modules; a module's routes call its
// own services; services reach the database, the queue and the providers below them. Nothing below looks up.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A circle of imports has no bottom: one of them belongs in a lower layer.',
      from: { path: '^(server/src|shared/src|web/src)' },
      to: { circular: true, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'module-not-to-composition',
      severity: 'error',
      comment:
        'A module takes what it needs as options (its own narrow interface); it never reaches for the composition root, the plugins or the configuration.',
      from: { path: '^server/src/modules/' },
      to: {
        path: '^server/src/(app|services|runtime|main|worker|config[-a-z]*)\\.ts$|^server/src/plugins/',
      },
    },
    {
      name: 'routes-not-to-sibling-internals',
      severity: 'error',
      comment:
        "A route file calls its own module's services; another module is reached through the services it is handed.",
      from: { path: '^server/src/modules/([^/]+)/.+\\.routes\\.ts$' },
      to: {
        path: '^server/src/modules/',
        pathNot: ['^server/src/modules/$1/'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'lower-layers-look-down',
      severity: 'error',
      comment: 'The database, mail, the queue and the providers serve the modules; they import none of them.',
      from: { path: '^server/src/(db|mail|queue|providers)/' },
      to: { path: '^server/src/(modules|plugins|jobs|app|services|runtime|main|worker)' },
    },
    {
      name: 'config-reads-no-module',
      severity: 'error',
      comment:
        'config.ts (and its parts, config-*.ts) parses the environment; what it validates against lives below it, not in a module.',
      from: { path: '^server/src/config[-a-z]*\\.ts$' },
      to: { path: '^server/src/(modules|plugins|jobs)/' },
    },
    {
      name: 'shared-stands-alone',
      severity: 'error',
      comment: 'shared/ is the contract both sides import; it imports neither.',
      from: { path: '^shared/src/' },
      to: { path: '^(server|web)/' },
    },
    {
      name: 'features-are-islands',
      severity: 'error',
      comment: 'A web feature never imports another feature, the app shell or a layout.',
      from: { path: '^web/src/features/([^/]+)/' },
      to: { path: '^web/src/(features/|app/|layouts/)', pathNot: ['^web/src/features/$1/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/|\\.test\\.tsx?$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.depcruise.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
    reporterOptions: {
      dot: {
        collapsePattern:
          '^(server/src/modules/[^/]+|server/src/[^/]+|shared/src|web/src/[^/]+|node_modules/[^/]+)',
      },
    },
  },
};
