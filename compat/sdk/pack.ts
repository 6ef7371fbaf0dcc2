/**
 * `npm run pack:sdk`: builds the compatibility package (`@agentclientprotocol/sdk`, 2.4.0's
 * API on acp-router's core) and packs it. The last line printed is the tarball's path, for
 * `npm i @agentclientprotocol/sdk@file:<path>` or an `overrides` entry (docs/sdk-drop-in.md).
 *
 * The package holds the compiled compatibility sources and the part of acp-router's `src/`
 * they import (the runtime and the generated tables), so it installs with no dependency.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { entries } from "./dev/entries.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const here = fileURLToPath(new URL("./", import.meta.url));
const out = join(here, "out");
const stage = mkdtempSync(join(tmpdir(), "acp-sdk-compat-"));
const ours = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string; license: string };

/** The environment of the build's child processes: no inherited `--import` hooks (tsx is not installed where npm packs). */
const { NODE_OPTIONS: _inherited, ...env } = process.env;

/** The SDK version whose API this package implements (the version it installs as). */
const SDK_VERSION = "2.4.0";

try {
  execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(here, "tsconfig.build.json"), "--outDir", join(stage, "dist")], { stdio: "inherit", env });
  const exportsMap: Record<string, unknown> = {};
  for (const [specifier, file] of Object.entries(entries as Record<string, string>)) {
    const subpath = specifier === "@agentclientprotocol/sdk" ? "." : `./${specifier.slice("@agentclientprotocol/sdk/".length)}`;
    const base = `./dist/compat/sdk/src/${file.replace(/\.ts$/, "")}`;
    exportsMap[subpath] = { types: `${base}.d.ts`, import: `${base}.js`, default: `${base}.js` };
  }
  const schemas = join(root, "schemas/@agentclientprotocol/sdk/schema");
  for (const version of ["v1", "v2"]) {
    mkdirSync(join(stage, "schema", version), { recursive: true });
    cpSync(join(schemas, version), join(stage, "schema", version), { recursive: true });
  }
  exportsMap["./schema/v1/schema.json"] = "./schema/v1/schema.json";
  exportsMap["./schema/v1/schema.unstable.json"] = "./schema/v1/schema.unstable.json";
  exportsMap["./schema/v2/schema.json"] = "./schema/v2/schema.json";
  exportsMap["./schema/v2/schema.unstable.json"] = "./schema/v2/schema.unstable.json";
  exportsMap["./package.json"] = "./package.json";
  const manifest = {
    name: "@agentclientprotocol/sdk",
    version: SDK_VERSION,
    description: `The API of @agentclientprotocol/sdk ${SDK_VERSION} on acp-router ${ours.version}'s connection core (a drop-in replacement; see acp-router's docs/sdk-drop-in.md).`,
    license: ours.license,
    type: "module",
    sideEffects: false,
    main: "./dist/compat/sdk/src/index.js",
    types: "./dist/compat/sdk/src/index.d.ts",
    exports: exportsMap,
    files: ["dist", "schema", "LICENSE", "README.md"],
    acpRouter: { version: ours.version },
  };
  writeFileSync(join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  copyFileSync(join(root, "LICENSE"), join(stage, "LICENSE"));
  copyFileSync(join(here, "README.md"), join(stage, "README.md"));
  mkdirSync(out, { recursive: true });
  const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", out], { cwd: stage, encoding: "utf8", env }).trim().split("\n").at(-1) as string;
  console.log(join(out, packed));
} finally {
  rmSync(stage, { recursive: true, force: true });
}
