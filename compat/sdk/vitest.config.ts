/**
 * Runs test files with `@agentclientprotocol/sdk` replaced by the compatibility package's
 * sources, in the test process (aliases) and in every process it starts (`NODE_OPTIONS`
 * loads the resolve hook). `npm run test:sdk-compat` runs the suite's SDK interop tests so.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { entries } from "./dev/entries.mjs";

const source = (file: string) => fileURLToPath(new URL(`./src/${file}`, import.meta.url));
const register = fileURLToPath(new URL("./dev/register.mjs", import.meta.url));
// Longest first, so `@agentclientprotocol/sdk/unstable` is not taken for the root entry.
const alias = Object.entries(entries as Record<string, string>)
  .sort(([a], [b]) => b.length - a.length)
  .map(([find, file]) => ({ find: new RegExp(`^${find.replaceAll("/", "\\/")}$`), replacement: source(file) }));

export default defineConfig({
  root: fileURLToPath(new URL("../../", import.meta.url)),
  resolve: { alias },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import tsx --import ${register}`.trim() },
  },
});
