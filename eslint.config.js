// ESLint for the TypeScript and TSX (C++ has clang-format): typescript-eslint, type-aware where it
// catches real bugs (a promise nobody awaits, a promise passed where a callback's result is
// ignored), and Prettier's config last so style is Prettier's alone.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

// Every file DiskDial reads on a user's behalf goes through app/src/core/safe-read.ts (no FIFO or
// device waited on, a cap per purpose, no link in its own folders). A raw read anywhere else in
// app/src is an error, in every form: a named import, fs.x / fsp.x / handle.x, `fs['x']`, or
// destructuring. These files may, each for the reason given.
export const RAW_READ_ALLOWED = {
  'app/src/server/serve.ts': "browser mode's page: DiskDial's own built renderer files, resolved inside its folder",
  'app/src/main/protocol.ts': "the app:// protocol: DiskDial's own built renderer files, resolved inside its folder",
  'app/src/core/result.ts': "DiskDial's own package.json, for its version",
  'app/src/core/host.ts': "/etc/os-release, the system's name (the system's file, not the user's)",
  'app/src/core/machine-load.ts': '/proc/<pid>/stat, the CPU time of running processes',
  'app/src/core/kernel-decrypt.ts': "/proc/stat and /proc/<pid>/stat, the kernel's decryption threads",
  'app/src/core/kernel-cipher.ts': "/proc/crypto, the kernel's ciphers (a test passes a copy)",
  'app/src/core/owner-marker.ts': "/proc/<pid>/stat, a process's start time (the marker itself goes through the reader)",
  'app/src/core/volume.ts': '/proc/self/mountinfo',
  'app/src/services/targets.ts': '/proc/self/mountinfo',
  'app/src/core/link/linux.ts': 'sysfs attributes of a network interface (a test passes a fake tree)',
  'app/src/core/link/network.ts': '/proc/<pid>/cmdline of the FUSE daemon behind a mount',
  'app/src/core/wizard/linux-system.ts':
    '/proc/filesystems, /proc/swaps, /proc/mdstat, /proc/self/mounts and sysfs, read to decide which disks are in use',
  'app/src/services/engine-host-proc.ts': "/proc/<pid>/task/*/stat and /proc/<pid>/io of the engine process, and the drive's sysfs stat",
  // md5File opens O_NONBLOCK|O_NOFOLLOW and fstats the handle first, as the engine's hash does.
  'app/src/core/check-run.ts': 'hashes the files of the folder being checked (MD5SUMS), streamed: their size has no cap',
};
const RAW_READ = '^(readFile|readFileSync|createReadStream|openSync|readSync)$';
const RAW_READ_MESSAGE =
  'Read a file a user could name or plant through app/src/core/safe-read.ts (readUserText/readUserBytes: no FIFO waited on, a size cap, then a schema); a system or own-package file goes in RAW_READ_ALLOWED in eslint.config.js with its reason.';
export const rawReads = {
  files: ['app/src/**/*.{ts,tsx,cts,mts}'],
  ignores: Object.keys(RAW_READ_ALLOWED),
  rules: {
    'no-restricted-syntax': [
      'error',
      ...[
        `ImportDeclaration[source.value=/^(node:)?fs(\\/promises)?$/] > ImportSpecifier[imported.name=/${RAW_READ}/]`,
        `MemberExpression[property.name=/${RAW_READ}/]`,
        `MemberExpression[computed=true][property.value=/${RAW_READ}/]`,
        `ObjectPattern > Property[key.name=/${RAW_READ}/]`,
      ].map((selector) => ({ selector, message: RAW_READ_MESSAGE })),
    ],
  },
};

// Electron's IPC objects each have one wrapper: ipc-main.ts checks every sender and hands the
// payload to the dispatcher; preload.cts gives the page a bare invoke/on. An ipcMain.handle or an
// ipcRenderer.send anywhere else would be a channel beside the contract, unchecked. A default or
// namespace import of electron would reach them too, so those are refused as well.
export const IPC_WRAPPERS = { ipcMain: 'app/src/main/ipc-main.ts', ipcRenderer: 'app/src/main/preload.cts' };
const IPC_MESSAGE =
  'Only app/src/main/ipc-main.ts imports ipcMain and only app/src/main/preload.cts imports ipcRenderer: add a channel to app/src/ipc/contract.ts instead (and import named Electron parts, not its default).';
const restrictElectron = (importNames) => ({
  'no-restricted-imports': ['error', { paths: [{ name: 'electron', importNames: [...importNames, 'default'], message: IPC_MESSAGE }] }],
});
export const ipcImports = [
  { files: ['app/src/**/*.{ts,tsx,cts,mts}', 'renderer/src/**/*.{ts,tsx}'], rules: restrictElectron(Object.keys(IPC_WRAPPERS)) },
  ...Object.entries(IPC_WRAPPERS).map(([own, file]) => ({
    files: [file],
    rules: restrictElectron(Object.keys(IPC_WRAPPERS).filter((name) => name !== own)),
  })),
];

export default tseslint.config(
  { ignores: ['dist/**', 'native/**', 'node_modules/**', 'release/**', 'test-artifacts/**', 'renderer/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // The renderer's tests are compiled by the renderer's tsconfig (DOM, JSX), which includes them.
    files: ['test/renderer/**'],
    languageOptions: { parserOptions: { projectService: false, project: './renderer/tsconfig.json' } },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      parserOptions: { projectService: false, project: null },
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        AbortController: 'readonly',
        performance: 'readonly',
      },
    },
  },
  {
    // Tests may use `any` for fakes and hostile payloads; the product may not.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  rawReads,
  ...ipcImports,
  prettier,
);
