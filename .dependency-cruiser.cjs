/**
 * The layers of aivis as rules (docs/architecture.md#layers), checked by `npm run lint`.
 * Type-only imports count (`tsPreCompilationDeps`): a cycle through types is still a cycle a
 * reader has to untangle.
 */
/** What src/sandbox/ may import besides itself and schemas/: shared leaves that know nothing of aivis's client, sync or import code. */
const SANDBOX_LEAVES = [
  '^src/log/(logger|inert-text|redact)\\.ts$',
  '^src/json/serialize-json\\.ts$',
  '^src/errors\\.ts$',
  '^src/config/closest-match\\.ts$',
];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle makes its files one unit: none may be read, tested or changed alone.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'src-reaches-connectors-through-the-registry',
      severity: 'error',
      comment:
        'src/ knows destinations only as the registry describes them (docs/architecture.md, "Adding a destination").',
      from: { path: '^src/' },
      to: { path: '^connectors/', pathNot: '^connectors/registry\\.ts$' },
    },
    {
      name: 'schemas-is-a-leaf',
      severity: 'error',
      comment: 'schemas/ holds the API and config contracts: the code is built on them, never the other way.',
      from: { path: '^schemas/' },
      to: { path: '^(src|connectors|scripts|test)/' },
    },
    {
      name: 'sandbox-is-an-independent-oracle',
      severity: 'error',
      comment:
        'The sandbox is the test oracle for the client, sync and import code: it reads the contract in schemas/, its own files and the shared leaves, nothing it is meant to check.',
      from: { path: '^src/sandbox/' },
      to: { path: '^(src|connectors|scripts|test)/', pathNot: ['^src/sandbox/', ...SANDBOX_LEAVES] },
    },
    {
      name: 'trust-below-sync-verify-cli',
      severity: 'error',
      comment: 'src/trust/ reads what runs wrote; the engine and the commands build on it, not it on them.',
      from: { path: '^src/trust/' },
      to: { path: '^src/(sync|verify|cli)/' },
    },
    {
      name: 'plan-is-pure',
      severity: 'error',
      comment:
        'src/plan/ decides what a run reads from data its caller gathers: it reads no destination, API or clock of its own, so every front end plugs it in and tests drive it on a fake clock.',
      from: { path: '^src/plan/' },
      to: { path: '^(src|connectors)/', pathNot: '^src/plan/' },
    },
    {
      name: 'protocols-below-cli',
      severity: 'error',
      comment:
        'src/protocols/ is a sink and its catalogs; the commands (aivis airbyte, tap-aivis) build on it, not it on them.',
      from: { path: '^src/protocols/' },
      to: { path: '^src/cli/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.cjs', '.mjs', '.json'] },
  },
};
