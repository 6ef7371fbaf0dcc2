// ESLint, type-aware (typescript-eslint with the TypeScript project service), for the rules
// that matter most in an async library: a promise nobody awaits or handles is a lost error
// or an unhandled rejection, and a promise where a callback's void was expected is a race.
// Generated folders are skipped: codegen owns them and `codegen --check` guards them.
import { readFileSync } from "node:fs";
import { defineConfig, globalIgnores } from "eslint/config";
import tseslint from "typescript-eslint";

/** The generated folders, from their one declaration (`codegen/tables.json`). */
const generated = JSON.parse(readFileSync(new URL("./codegen/tables.json", import.meta.url), "utf8")).tables.map((t) => `${t.out}/`);

export default defineConfig(
  globalIgnores(["**/node_modules/", "dist/", "docs/api/", "coverage/", ".tmp/", "bench/.build/", ...generated, "test/**/.*/", "test/package/consumer-ext/", "**/*.js", "**/*.mjs", "**/*.cjs"]),
  {
    files: ["**/*.ts"],
    languageOptions: {
      parser: tseslint.parser,
      // The two snippets outside tsconfig.json are checked each in a default project.
      parserOptions: { projectService: { allowDefaultProject: ["docs/snippets/connector-client.ts"] }, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "@typescript-eslint": tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // Every promise is awaited, returned, handled, or marked `void` on purpose.
      "@typescript-eslint/no-floating-promises": ["error", { ignoreVoid: true }],
      // No promise where a void callback or a condition is expected (an event handler's rejection goes nowhere).
      "@typescript-eslint/no-misused-promises": "error",
      // `await` only on thenables: awaiting a plain value hides a wrong type.
      "@typescript-eslint/await-thenable": "error",
      // Type-only imports say so (erasable TypeScript, `verbatimModuleSyntax`).
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      // Only Error objects are thrown and rejected: a stack and a message for every failure.
      "@typescript-eslint/only-throw-error": "error",
      // (Passing on a caught `unknown` is allowed: it is whatever was thrown, not a new non-Error.)
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingUnknown: true }],
      // `return await` inside try/catch, so the catch sees the rejection.
      "@typescript-eslint/return-await": ["error", "in-try-catch"],
    },
  },
  {
    // Tests reject with strings, numbers and plain objects on purpose: that is what they check the library survives.
    files: ["test/**/*.ts"],
    rules: { "@typescript-eslint/prefer-promise-reject-errors": "off" },
  },
);
