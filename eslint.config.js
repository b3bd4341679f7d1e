// Lint: type-checked rules that catch floating promises and non-exhaustive switches,
// plus the boundary rule that keeps the pure layers free of I/O imports (the layer and cycle
// rules of DESIGN.md §1 are .dependency-cruiser.cjs's, also run by `npm run lint`).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

const ioModules = [
  "node:fs",
  "node:fs/promises",
  "node:child_process",
  "node:net",
  "node:http",
  "node:https",
  "node:os",
  "node:process",
  "node:timers",
  "node:timers/promises",
  "node:readline",
  "fs",
  "fs/promises",
  "child_process",
  "net",
  "http",
  "https",
  "os",
  "process",
  "better-sqlite3",
  "grammy",
  "@grammyjs/runner",
  "pino",
];

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**", "bin/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true, allowBoolean: true }],
    },
  },
  {
    files: ["src/wire/**", "src/domain/**", "src/policy/**", "src/render/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: ioModules.map((name) => ({ name, message: "pure layers import no I/O" })) },
      ],
      "no-restricted-globals": ["error", "process", "setTimeout", "setInterval", "fetch"],
    },
  },
  {
    files: ["test/**", "bench/**"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
  {
    // Test files share their worker's modules (vitest.config.ts: isolate: false), so a test must
    // leave no global changed behind it for the next file to meet.
    files: ["test/**"],
    rules: {
      "no-restricted-properties": [
        "error",
        ...["mock", "doMock", "stubGlobal", "stubEnv", "useFakeTimers"].map((property) => ({
          object: "vi",
          property,
          message: "test files share their worker's modules and globals: use the real module, or a port (FakeClock)",
        })),
      ],
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "AssignmentExpression > MemberExpression.left[object.object.name='process'][object.property.name='env']",
          message: "test files share their worker's process.env: pass an env to what the test starts",
        },
        {
          selector:
            "UnaryExpression[operator='delete'] > MemberExpression[object.object.name='process'][object.property.name='env']",
          message: "test files share their worker's process.env: pass an env to what the test starts",
        },
        {
          selector: "AssignmentExpression > MemberExpression.left[object.property.name='prototype']",
          message: "test files share their worker's globals: patch no prototype",
        },
      ],
    },
  },
  { files: ["**/*.js", "**/*.cjs"], ...tseslint.configs.disableTypeChecked },
  {
    // CommonJS: the dependency-cruiser config, and the loader bin/telecode.js requires for `telecode run`.
    files: ["**/*.cjs"],
    languageOptions: {
      sourceType: "commonjs",
      globals: { module: "writable", require: "readonly", __dirname: "readonly" },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
