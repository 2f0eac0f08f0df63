/**
 * The layering, checked in CI (`npm run lint:layers`):
 *   src/lib     pure code (parsers, converters, merge, the thread pool): imports nothing else of src/;
 *   src/domain  the model, by area: imports lib, db, generated, config, observability; no transport,
 *               no event delivery (it records events in the outbox table);
 *   transports  http, rest, schema, published, cli, jobs (the worker), events: import the domain.
 * And no import cycles anywhere in src/, type-only imports included.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles (type-only imports included) hide which module is the lower layer: move the shared part down.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'lib-is-pure',
      severity: 'error',
      comment: 'src/lib holds code with no database, no Access and no loaders: it imports only itself.',
      from: { path: '^src/lib/' },
      to: { path: '^src/', pathNot: '^src/lib/' },
    },
    {
      name: 'domain-imports-no-transport',
      severity: 'error',
      comment: 'The domain knows nothing of HTTP, GraphQL, REST, the CLI, the job worker or event delivery (it records events in the outbox).',
      from: { path: '^src/domain/' },
      to: { path: '^src/(http|rest|schema|published|cli|jobs|events|app\\.ts|main\\.ts)' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules', '^src/generated/'] },
    exclude: { path: '^src/generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
