// Layering rules (docs/CONVENTIONS.md §1): shared/ is pure, the engine never imports electron,
// the renderer only imports shared/; inside the engine, each folder imports only the layers below it
// (docs/ARCHITECTURE.md). A violation fails `npm test`.
// Besides the layers: typescript-eslint's type-checked recommended set, the React hooks rules, no import
// cycles, and raw ipcMain/ipcRenderer only inside the IPC wrapper (electron/ipc/handlers.ts) and the preload.
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

const nodeBuiltins = [
  'node:*',
  'fs',
  'fs/*',
  'path',
  'os',
  'child_process',
  'crypto',
  'http',
  'https',
  'net',
  'stream',
  'stream/*',
  'url',
  'util',
  'worker_threads',
  'zlib',
  'events',
  'readline',
  'process',
  'buffer',
];

// The IPC ban is written with no-restricted-syntax so that it never replaces the layer zones' no-restricted-imports.
const rawIpcImport = {
  selector: "ImportDeclaration[source.value='electron'] > ImportSpecifier[imported.name=/^ipc(Main|Renderer)$/]",
  message: 'Raw ipcMain/ipcRenderer only in the IPC wrapper (electron/ipc/handlers.ts) and the preload (electron/preload.ts).',
};
const rawIpcUse = {
  selector: 'MemberExpression[object.name=/^ipc(Main|Renderer)$/], MemberExpression[property.name=/^ipc(Main|Renderer)$/]',
  message: 'Raw ipcMain/ipcRenderer only in the IPC wrapper (electron/ipc/handlers.ts) and the preload (electron/preload.ts).',
};
const ipcWrapper = ['electron/ipc/handlers.ts', 'electron/preload.ts'];

// The engine's folders in layers, lowest first (docs/ARCHITECTURE.md): a folder imports only from layers
// below its own, never from its own layer's other folders or from above (views and usecases never import
// each other). electron/cli/ and electron/host/ sit above the engine and may use any of it.
const ENGINE_LAYERS = [
  ['store', 'llama', 'gguf', 'import'],
  ['read-model', 'scoring'],
  ['user-data'],
  ['models'],
  ['benchmark', 'routing'],
  ['jobs'],
  ['views', 'usecases', 'gateway'],
  ['api'],
];
const enginePatterns = [
  { group: ['electron', 'electron/*'], message: 'The engine runs in plain Node: never import electron here.' },
  { group: ['../../renderer/*', '../../../renderer/*', '../renderer/*'], message: 'The engine does not import the renderer.' },
];
/** One zone per engine folder: the layer rule's patterns plus a ban on every folder at or above its layer. */
const engineFolderZones = ENGINE_LAYERS.flatMap((layer, i) =>
  layer.map((folder) => {
    const banned = ENGINE_LAYERS.slice(i)
      .flat()
      .filter((f) => f !== folder);
    return {
      files: [`electron/engine/${folder}/**/*.ts`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              ...enginePatterns,
              ...banned.map((f) => ({
                group: [`../${f}`, `../${f}/*`, `../../${f}`, `../../${f}/*`],
                message: `electron/engine/${folder}/ may not import electron/engine/${f}/: the arrows point down (docs/ARCHITECTURE.md).`,
              })),
            ],
          },
        ],
      },
    };
  }),
);

/** shared/ is pure: the patterns every shared/ file obeys (a folder's zone below adds its floor rule). */
const sharedPatterns = [
  { group: nodeBuiltins, message: 'shared/ is pure: no Node built-ins (move this to electron/engine/).' },
  { group: ['electron', 'electron/*'], message: 'shared/ is pure: no electron.' },
  { group: ['react', 'react-dom', 'react/*', 'react-dom/*'], message: 'shared/ is pure: no DOM or React.' },
  {
    group: [
      '../electron/*',
      '../../electron/*',
      '../../../electron/*',
      '../renderer/*',
      '../../renderer/*',
      '../../../renderer/*',
      '../tests/*',
      '../../tests/*',
    ],
    message: 'shared/ imports only from shared/.',
  },
  { group: ['node-llama-cpp', 'ws', 'better-sqlite3'], message: 'shared/ is pure: no runtime-specific packages.' },
];
/** shared/'s floors, lowest first (docs/ARCHITECTURE.md): a folder imports only from floors below its own. */
const SHARED_LAYERS = [
  ['base'],
  ['trace'],
  ['project'],
  ['lots', 'importers', 'scoring'],
  ['routing', 'selection'],
  ['benchmark', 'gateway'],
  ['api'],
  ['export'],
];
const sharedFolderZones = SHARED_LAYERS.flatMap((layer, i) =>
  layer.map((folder) => {
    const banned = SHARED_LAYERS.slice(i)
      .flat()
      .filter((f) => f !== folder);
    return {
      files: [`shared/${folder}/**/*.ts`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              ...sharedPatterns,
              ...banned.map((f) => ({
                group: [`../${f}`, `../${f}/*`, `../../${f}`, `../../${f}/*`, `../../../${f}/*`],
                message: `shared/${folder}/ may not import shared/${f}/: the floors point down (docs/ARCHITECTURE.md).`,
              })),
            ],
          },
        ],
      },
    };
  }),
);

const rendererPatterns = [
  { group: nodeBuiltins, message: 'The renderer runs in a browser: no Node built-ins.' },
  {
    group: ['electron', 'electron/*', 'node-llama-cpp', 'ws'],
    message: 'The renderer talks to the engine only through the API contract in shared/api.',
  },
  { group: ['../electron/*', '../../electron/*', '../../../electron/*'], message: 'The renderer imports only shared/.' },
];
// The renderer's floors, bottom up: api/ (the transport) · store/ (state; of heatmap/ only its pure model) ·
// heatmap/ and components/ (pieces any view uses) · views/ · app/ (the shell that places the views). A
// folder imports only from the floors below it (docs/ARCHITECTURE.md).
const RENDERER_ABOVE = {
  api: ['store', 'heatmap', 'components', 'views', 'app'],
  store: ['components', 'views', 'app'],
  heatmap: ['components', 'views', 'app'],
  components: ['views', 'app'],
  views: ['app'],
};
const rendererFolderZones = Object.entries(RENDERER_ABOVE).map(([folder, above]) => ({
  files: [`renderer/${folder}/**/*.ts`, `renderer/${folder}/**/*.tsx`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...rendererPatterns,
          ...above.map((f) => ({
            group: [`../${f}`, `../${f}/*`, `../../${f}/*`],
            message: `renderer/${folder}/ may not import renderer/${f}/: the floors point down (docs/ARCHITECTURE.md).`,
          })),
          ...(folder === 'store'
            ? [{ group: ['../heatmap/*', '!../heatmap/model'], message: 'renderer/store/ may import only the pure model of renderer/heatmap/.' }]
            : []),
        ],
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'dist-electron/**', 'release/**', 'artifacts/**', 'tests/.fixtures/**', 'build/types/**'] },
  // A suppression that no longer suppresses anything fails the lint (they must stay next to what they excuse).
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.mjs', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'] })],
    },
    rules: {
      // Type-only imports do not count (the zustand slices import each other's types).
      'import-x/no-cycle': 'error',
      // Off: the API implementations, CLI commands and test fakes are `async` without awaiting so that a
      // synchronous throw becomes a rejection, as the Promise-returning contracts promise.
      '@typescript-eslint/require-await': 'off',
      // Omitting a key by destructuring (`const { key: _key, ...rest } = o`) is the idiom for a copy without it.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
      // Rethrowing a caught error (`unknown`) or rejecting with an AbortSignal's reason (`any`) is allowed; literals are not.
      '@typescript-eslint/only-throw-error': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
    },
  },
  // Plain JavaScript files are outside tsconfig.json: no type information, so no type-checked rules.
  { files: ['**/*.js', '**/*.mjs'], extends: [tseslint.configs.disableTypeChecked] },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    extends: [reactHooks.configs.flat.recommended],
    rules: {
      // A warning would not fail `npm test`.
      'react-hooks/exhaustive-deps': 'error',
      // Off here: zustand actions and component props are declared as methods but never use `this`.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // Tests parse the JSON the code wrote and check it with expect(): `any` there is the point of the check.
    files: ['tests/**/*.ts', 'tests/**/*.tsx'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.mjs'],
    ignores: [...ipcWrapper, 'electron/main.ts'],
    rules: { 'no-restricted-syntax': ['error', rawIpcImport, rawIpcUse] },
  },
  {
    // main.ts imports ipcMain only to hand it to registerApiHandlers (which takes it as a parameter so tests
    // can pass a fake); it may not call it.
    files: ['electron/main.ts'],
    rules: { 'no-restricted-syntax': ['error', rawIpcUse] },
  },
  {
    files: ['shared/**/*.ts', 'shared/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: sharedPatterns,
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'window', message: 'shared/ is pure: no DOM.' },
        { name: 'document', message: 'shared/ is pure: no DOM.' },
        { name: 'process', message: 'shared/ is pure: no Node globals.' },
        { name: 'require', message: 'shared/ is pure.' },
      ],
    },
  },
  {
    files: ['electron/engine/**/*.ts', 'electron/cli/**/*.ts', 'electron/host/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: enginePatterns }] },
  },
  // After the engine's rule: each folder's zone repeats its patterns (a later no-restricted-imports replaces an earlier one).
  ...engineFolderZones,
  ...sharedFolderZones,
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: { 'no-restricted-imports': ['error', { patterns: rendererPatterns }] },
  },
  ...rendererFolderZones,
);
