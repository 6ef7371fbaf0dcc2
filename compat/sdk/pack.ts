/**
 * `npm run pack:sdk`: builds the SDK drop-in as the package of its own it is published as
 * (`acp-router-sdk`: SDK 2.4.0's API on acp-router's core; compat/sdk/README.md) and packs it.
 * The last line printed is the tarball's path, for an `npm:` alias or an `overrides` entry
 * (docs/sdk-drop-in.md) or `npm i <path>`.
 *
 * The drop-in imports acp-router by its public entries only. The package bundles the acp-router
 * it was built from (`bundleDependencies`: `node_modules/acp-router` inside the tarball, with the
 * entries the drop-in imports compiled from this checkout and acp-router's own package.json,
 * its `exports` narrowed to them), so it installs with no other package.
 *
 * Its version says where it comes from: `<SDK version>-acp-router.<acp-router version>`, e.g.
 * `2.4.0-acp-router.0.1.0` is SDK 2.4.0's API on acp-router 0.1.0 (version.ts).
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { acpRouterEntries } from "./dev/acp-router-entries.mjs";
import { entries } from "./dev/entries.mjs";
import { DROP_IN_NAME, dropInVersion, SDK_VERSION } from "./version.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const here = fileURLToPath(new URL("./", import.meta.url));
const out = join(here, "out");
const stage = mkdtempSync(join(tmpdir(), "acp-sdk-compat-"));
const ours = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<string, unknown> & { name: string; version: string; license: string; exports: Record<string, unknown> };

/** The environment of the build's child processes: no inherited `--import` hooks (tsx is not installed where npm packs). */
const { NODE_OPTIONS: _inherited, ...env } = process.env;

/**
 * acp-router's package.json for the bundled copy: its identity and optional peers, its `exports`
 * narrowed to the entries that were built (`built(subpath)`), no scripts or development fields.
 */
function bundledManifest(built: (file: string) => boolean): Record<string, unknown> {
  const exportsMap: Record<string, unknown> = {};
  for (const [subpath, target] of Object.entries(ours.exports)) {
    const file = (target as { default?: unknown } | string | null) !== null && typeof target === "object" ? (target as { default?: unknown }).default : undefined;
    if (typeof file === "string" && built(file)) exportsMap[subpath] = target;
  }
  exportsMap["./package.json"] = "./package.json";
  const keep = ["name", "version", "description", "license", "type", "sideEffects", "engines", "peerDependencies", "peerDependenciesMeta"];
  return { ...Object.fromEntries(keep.filter((key) => ours[key] !== undefined).map((key) => [key, ours[key]])), exports: exportsMap };
}

/** The `acp-router…` specifiers the compiled drop-in imports. */
function importedEntries(dir: string): Set<string> {
  const found = new Set<string>();
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    if (!name.endsWith(".js")) continue;
    for (const match of readFileSync(join(dir, name), "utf8").matchAll(/from "(acp-router(?:\/[^"]+)?)"/g)) found.add(match[1] as string);
  }
  return found;
}

try {
  // One program: the drop-in's sources and the acp-router sources they reach through acp-router's
  // public names (tsconfig.json `paths`), compiled side by side, the bare `acp-router` imports kept.
  const build = join(stage, "build");
  execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(here, "tsconfig.build.json"), "--outDir", build], { stdio: "inherit", env });
  const pkg = join(stage, "package");
  mkdirSync(pkg, { recursive: true });
  renameSync(join(build, "compat/sdk/src"), join(pkg, "dist"));
  rmSync(join(build, "compat"), { recursive: true, force: true });
  const bundled = join(pkg, "node_modules", ours.name);
  mkdirSync(bundled, { recursive: true });
  renameSync(build, join(bundled, "dist"));
  const bundledPackage = bundledManifest((file) => existsSync(join(bundled, file)));
  writeFileSync(join(bundled, "package.json"), `${JSON.stringify(bundledPackage, null, 2)}\n`);
  // Every acp-router entry the drop-in imports must be in the bundle (and be one of acp-router's public entries).
  const served = new Set(Object.keys(bundledPackage.exports as Record<string, unknown>).map((subpath) => (subpath === "." ? ours.name : `${ours.name}/${subpath.slice(2)}`)));
  for (const specifier of importedEntries(join(pkg, "dist"))) {
    if (!(specifier in (acpRouterEntries as Record<string, string>))) throw new Error(`the drop-in imports ${specifier}, which is no public entry of acp-router`);
    if (!served.has(specifier)) throw new Error(`the drop-in imports ${specifier}, which the bundled acp-router does not have`);
  }
  copyFileSync(join(root, "LICENSE"), join(bundled, "LICENSE"));

  const exportsMap: Record<string, unknown> = {};
  for (const [specifier, file] of Object.entries(entries as Record<string, string>)) {
    const subpath = specifier === "@agentclientprotocol/sdk" ? "." : `./${specifier.slice("@agentclientprotocol/sdk/".length)}`;
    const base = `./dist/${file.replace(/\.ts$/, "")}`;
    exportsMap[subpath] = { types: `${base}.d.ts`, import: `${base}.js`, default: `${base}.js` };
  }
  const schemas = join(root, "schemas/@agentclientprotocol/sdk/schema");
  for (const version of ["v1", "v2"]) {
    mkdirSync(join(pkg, "schema", version), { recursive: true });
    cpSync(join(schemas, version), join(pkg, "schema", version), { recursive: true });
  }
  exportsMap["./schema/v1/schema.json"] = "./schema/v1/schema.json";
  exportsMap["./schema/v1/schema.unstable.json"] = "./schema/v1/schema.unstable.json";
  exportsMap["./schema/v2/schema.json"] = "./schema/v2/schema.json";
  exportsMap["./schema/v2/schema.unstable.json"] = "./schema/v2/schema.unstable.json";
  exportsMap["./package.json"] = "./package.json";
  const manifest = {
    name: DROP_IN_NAME,
    version: dropInVersion(ours.version),
    description: `The API of @agentclientprotocol/sdk ${SDK_VERSION} on acp-router ${ours.version}'s connection core: a drop-in replacement, installed under the SDK's name with an npm alias (see README.md).`,
    license: ours.license,
    type: "module",
    sideEffects: false,
    main: "./dist/index.js",
    types: "./dist/index.d.ts",
    exports: exportsMap,
    files: ["dist", "schema", "LICENSE", "README.md"],
    engines: ours["engines"],
    dependencies: { [ours.name]: ours.version },
    bundleDependencies: [ours.name],
    peerDependencies: { "@modelcontextprotocol/server": "^2.4.0" },
    peerDependenciesMeta: { "@modelcontextprotocol/server": { optional: true } },
    acpRouter: { version: ours.version, sdkApi: SDK_VERSION },
  };
  writeFileSync(join(pkg, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  copyFileSync(join(root, "LICENSE"), join(pkg, "LICENSE"));
  // The README's switching lines name the version being packed.
  writeFileSync(join(pkg, "README.md"), readFileSync(join(here, "README.md"), "utf8").replaceAll(/\d+\.\d+\.\d+-acp-router\.\d+\.\d+\.\d+/g, manifest.version));
  // Packed beside the stage, then moved into out/ in one rename: packs running at once (test files, the suite) never see half a tarball.
  const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", stage], { cwd: pkg, encoding: "utf8", env }).trim().split("\n").at(-1) as string;
  mkdirSync(out, { recursive: true });
  const partial = join(out, `.${packed}.${process.pid}`);
  copyFileSync(join(stage, packed), partial);
  renameSync(partial, join(out, packed));
  console.log(join(out, packed));
} finally {
  rmSync(stage, { recursive: true, force: true });
}
