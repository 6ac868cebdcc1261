// The house rules of src/, checked by `npm run lint:layers` (first step of `npm test`).
// docs/architecture.md "Layers" says the same in words; change both together.
//
// Outer walls, lowest first: shared <- engine parts <- engine/control <- engine.ts <- compose
// <- desk <- service <- faces (cli, host, electron). Nothing imports a face. The renderer uses
// shared only, the preload shared and electron, the sandbox shared (compose and the CLI's
// `sandbox` command start it). Type imports count like any other.

/** The engine's floors, lowest first: a module may import its own floor and those below. */
const ENGINE_FLOORS = [
  ['base', '(clock|zoned-time|shell-word|stored-json|load-on-use|time-slice|background-thread|output-names|data-dir|user-error|batch-input)\\.ts$|log/'],
  ['db', 'db/|(engine-lock|settings|damaged-database)\\.ts$'],
  ['api', 'api/'],
  ['secrets', 'secrets/'],
  ['costs, invoices', 'costs/|invoices/'],
  ['messaging, privacy', 'messaging/|privacy/'],
  ['importers', 'importers/'],
  ['capabilities', 'capabilities/'],
  ['queue', 'queue/'],
  ['schema', 'schema/'],
  ['store (the port)', 'store/[^/]+$'],
  ['pipeline', 'pipeline/'],
  ['search', 'search/'],
  ['read-models', 'read-models/'],
  // Above read-models: a comparison's failed cell is said by the job's note (read-models/job-notes).
  ['compare', 'compare/'],
  ['control port', 'control/control-store\\.ts$'],
  ['store adapters', 'store/pg/|store/sqlite/'],
  ['retention, forget', 'retention/|forget/'],
  ['exporters, batch-planner', 'exporters/|batch-planner\\.ts$'],
  ['dispatch', 'dispatch/'],
  ['watch', 'watch/'],
  ['create', 'create/'],
  ['failures', 'failures\\.ts$'],
  ['control', 'control/(?!control-store\\.ts$)'],
  ['reader', 'reader/'],
  ['team', 'team/'],
  ['engine.ts', 'engine\\.ts$'],
];

const ENGINE = '^src/main/engine/';
const floorPath = (pattern) => `${ENGINE}(${pattern})`;
const upTo = (i) => ENGINE_FLOORS.slice(0, i + 1).map(([, pattern]) => floorPath(pattern));

/**
 * Imports that break a rule today and are left to the work that removes them (issue 41).
 * Each names its reason; delete the entry when the import goes.
 */
const ALLOWED_FOR_NOW = {
  // [file, the file above its floor it may import]. Making a team's batch drives the Engine
  // (createBatch, handOver): it belongs above the engine, beside the desk.
  upward: [['src/main/engine/team/team-create.ts', 'src/main/engine/engine.ts']],
  // Files allowed in a cycle: none left (cli/commands/control.ts and team.ts no longer import each other).
  cycle: [],
};
const exactly = (file) => `^${file.replaceAll('.', '\\.')}$`;

const engineFloorRules = ENGINE_FLOORS.map(([name, pattern], i) => ({
  name: `engine-floor:${name}`,
  comment: `The engine's floor "${name}" imports only its own floor and those below it (ENGINE_FLOORS).`,
  severity: 'error',
  from: { path: floorPath(pattern), pathNot: ALLOWED_FOR_NOW.upward.map(([file]) => exactly(file)) },
  to: { path: ENGINE, pathNot: upTo(i) },
}));
// A file allowed one import up is held to its floor for every other import.
const exceptionRules = ALLOWED_FOR_NOW.upward.map(([file, target]) => {
  const i = ENGINE_FLOORS.findIndex(([, pattern]) => new RegExp(floorPath(pattern)).test(file));
  return {
    name: `engine-floor:${ENGINE_FLOORS[i][0]}`,
    comment: `${file} may import ${target} for now (ALLOWED_FOR_NOW), nothing else above its floor.`,
    severity: 'error',
    from: { path: exactly(file) },
    to: { path: ENGINE, pathNot: [...upTo(i), exactly(target)] },
  };
});

/** `from` may import src/ only where `allowed` says (npm packages and node: modules are checked elsewhere). */
const onlyInSrc = (name, comment, from, allowed) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: '^src/', pathNot: allowed },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No module reaches itself again through its imports (type imports included).',
      severity: 'error',
      from: { pathNot: ALLOWED_FOR_NOW.cycle.map(exactly) },
      to: { circular: true },
    },
    {
      name: 'engine-module-on-a-floor',
      comment: 'Every engine module stands on one of ENGINE_FLOORS: a new folder is given its floor there.',
      severity: 'error',
      from: { path: ENGINE, pathNot: ENGINE_FLOORS.map(([, pattern]) => floorPath(pattern)) },
      to: {},
    },
    ...engineFloorRules,
    ...exceptionRules,
    onlyInSrc('shared-is-shared', 'src/shared runs anywhere: it imports only itself.', '^src/shared/', '^src/shared/'),
    {
      name: 'shared-runs-anywhere',
      comment: 'src/shared imports no node: module and no package but zod (it runs in the window too).',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { dependencyTypesNot: ['local', 'type-only'], pathNot: 'node_modules/zod/' },
    },
    onlyInSrc(
      'engine-stands-on-shared',
      'The engine imports only itself and shared: never a face, compose, the desk or the sandbox.',
      ENGINE,
      `${ENGINE}|^src/shared/`,
    ),
    onlyInSrc(
      'compose-over-engine',
      'compose imports the engine, shared and the sandbox it starts.',
      '^src/main/compose/',
      '^src/(main/(compose|engine)/|shared/|sandbox/)',
    ),
    onlyInSrc(
      'desk-over-control',
      'The desk imports engine/control, the engine parts, compose and shared.',
      '^src/main/desk/',
      '^src/(main/(desk|compose|engine)/|shared/)',
    ),
    onlyInSrc(
      'service-over-desk',
      'service imports the desk and what is below it, never a face.',
      '^src/main/service/',
      '^src/(main/(service|desk|compose|engine)/|shared/)',
    ),
    onlyInSrc(
      'cli-is-a-face',
      'The CLI imports what is below the faces (and the sandbox for `batchdesk sandbox`), never another face.',
      '^src/main/cli/',
      '^src/(main/(cli|service|desk|compose|engine)/|shared/|sandbox/)',
    ),
    onlyInSrc(
      'host-is-a-face',
      'The browser host imports what is below the faces, never another face.',
      '^src/main/host/',
      '^src/(main/(host|service|desk|compose|engine)/|shared/)',
    ),
    onlyInSrc(
      'electron-is-a-face',
      'The desktop shell imports what is below the faces, never another face.',
      '^src/main/electron/',
      '^src/(main/(electron|service|desk|compose|engine)/|shared/)',
    ),
    onlyInSrc(
      'renderer-uses-shared',
      'The window talks to the engine only through the contract: it imports shared, nothing else of src.',
      '^src/renderer/',
      '^src/(renderer|shared)/',
    ),
    {
      name: 'window-calls-in-window-faces',
      comment:
        "The window's call schemas (shared/contract-calls.ts) are built when loaded: only the faces that bind a window (service, host, electron, preload, renderer) load them; the rest names their types through shared/contract.ts.",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(main/(service|host|electron)|preload|renderer)/|^src/shared/contract-calls\\.ts$' },
      to: { path: '^src/shared/contract-calls\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'renderer-has-no-node',
      comment: 'The renderer is a web page: no node: module, no electron.',
      severity: 'error',
      from: { path: '^src/renderer/' },
      to: { dependencyTypes: ['core'] },
    },
    onlyInSrc('preload-alone', 'The preload is one contextBridge object derived from the contract.', '^src/preload/', '^src/(preload|shared)/'),
    onlyInSrc(
      'sandbox-apart',
      "The sandbox is another program (the API's stand-in): it imports only itself and shared.",
      '^src/sandbox/',
      '^src/(sandbox|shared)/',
    ),
    {
      name: 'electron-only-in-the-shell',
      comment: 'Only the desktop shell and the preload import electron: everything else runs in plain Node.',
      severity: 'error',
      from: { pathNot: '^src/(main/electron|preload)/' },
      to: { path: 'node_modules/(electron|electron-updater)/' },
    },
    {
      name: 'sql-only-in-the-engine',
      comment: "SQL is the engine's: only it (and the sandbox, a separate program) opens SQLite or PostgreSQL.",
      severity: 'error',
      from: { pathNot: '^src/(main/engine|sandbox)/' },
      to: { path: 'node_modules/(better-sqlite3|pg|pg-connection-string|pgpass)/' },
    },
  ],
  options: {
    // Type imports are dependencies too: a layer rule that types may break is no rule.
    tsPreCompilationDeps: true,
    // Packages are named, not read: unanchored, as a worktree's node_modules may be a link elsewhere.
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    cache: false,
  },
};
