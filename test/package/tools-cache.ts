/**
 * The consumer projects' dev tools (typescript, ts-morph, tsx, esbuild, zod,
 * …), installed once into a cached folder under `.tmp/` and linked into each
 * consumer project the package tests create (npm and pnpm alike).
 *
 * The cache is made from this repository's own `node_modules`, as its
 * lockfile lays it out: every package the tools need, at the path the
 * lockfile gives it, is copied (nested `node_modules` included), so the copy
 * resolves exactly as the repository does. No registry is asked, ever: a
 * tool the repository does not have at the pinned version is an error that
 * says so. The folder is named by a hash of what it holds, so a warm cache is
 * reused as it is and a lockfile change makes a new one.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdir, readdir, readFile, readlink, rename, rm, symlink, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";

interface LockEntry {
  readonly version?: string;
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { readonly optional?: boolean }>;
  readonly bin?: Record<string, string>;
}

type Lock = Readonly<Record<string, LockEntry>>;

/** Where `name` resolves from the package at lockfile path `from` ("" is the root), by Node's walk up the folders. */
function resolveIn(lock: Lock, from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = `${base === "" ? "" : `${base}/`}node_modules/${name}`;
    if (lock[candidate] !== undefined) return candidate;
    if (base === "") return undefined;
    const cut = base.lastIndexOf("/node_modules/");
    base = cut < 0 ? "" : base.slice(0, cut);
  }
}

/** The lockfile paths of `tools` and everything they need (optional dependencies only where installed). */
export function closure(root: string, lock: Lock, tools: readonly string[]): string[] {
  const seen = new Set<string>();
  const visit = (from: string, name: string, optional: boolean): void => {
    const path = resolveIn(lock, from, name);
    if (path === undefined || !existsSync(join(root, path))) {
      if (optional) return;
      throw new Error(`the package tests need ${name} (required from ${from || "the consumer project"}), which this repository's node_modules lacks: run npm ci`);
    }
    if (seen.has(path)) return;
    seen.add(path);
    const entry = lock[path] as LockEntry;
    for (const dep of Object.keys(entry.dependencies ?? {})) visit(path, dep, false);
    for (const dep of Object.keys(entry.optionalDependencies ?? {})) visit(path, dep, true);
    for (const dep of Object.keys(entry.peerDependencies ?? {})) visit(path, dep, entry.peerDependenciesMeta?.[dep]?.optional === true);
  };
  for (const tool of tools) visit("", tool, false);
  return [...seen].sort();
}

/** `name@version` → name (a scoped name keeps its leading `@`). */
export function specName(spec: string): string {
  const at = spec.lastIndexOf("@");
  return at > 0 ? spec.slice(0, at) : spec;
}

/**
 * The cache folder holding `specs` (exact `name@version` pins), made from
 * `root`'s node_modules when it is not there yet; returns its path.
 */
export async function toolsCache(root: string, specs: readonly string[]): Promise<string> {
  const lock = (JSON.parse(await readFile(join(root, "package-lock.json"), "utf8")) as { packages: Lock }).packages;
  for (const spec of specs) {
    const have = lock[`node_modules/${specName(spec)}`]?.version;
    if (`${specName(spec)}@${have}` !== spec) throw new Error(`the package tests pin ${spec}, but this repository's lockfile has ${specName(spec)}@${have ?? "nothing"}: align the two`);
  }
  const paths = closure(root, lock, specs.map(specName));
  const key = createHash("sha256")
    .update(paths.map((p) => `${p}@${lock[p]?.version}`).join("\n"))
    .digest("hex")
    .slice(0, 16);
  const dir = join(root, ".tmp", "consumer-tools", key);
  if (existsSync(join(dir, "complete"))) return dir;

  // Built beside its final name and renamed into place, so a run that stops halfway leaves no half cache.
  const building = `${dir}.building-${process.pid}`;
  await rm(building, { recursive: true, force: true });
  for (const path of paths) await cp(join(root, path), join(building, path), { recursive: true, filter: (src) => !relative(join(root, path), src).startsWith("node_modules") });
  for (const path of paths) {
    if (path.split("/node_modules/").length !== 1) continue; // bins are linked for top-level packages only, as npm does
    for (const [bin, target] of Object.entries(lock[path]?.bin ?? {})) {
      const link = join(building, "node_modules", ".bin", bin);
      await mkdir(dirname(link), { recursive: true });
      await symlink(relative(dirname(link), join(building, path, target)), link);
    }
  }
  // Which top-level packages each tool needs, so a project gets only what it asked for.
  const isTop = (p: string) => p.split("/node_modules/").length === 1;
  const needs = Object.fromEntries(
    specs.map((spec) => [
      specName(spec),
      closure(root, lock, [specName(spec)])
        .filter(isTop)
        .map((p) => p.slice("node_modules/".length)),
    ]),
  );
  await writeFile(join(building, "needs.json"), `${JSON.stringify(needs, null, 2)}\n`);
  await writeFile(join(building, "complete"), `${paths.join("\n")}\n`);
  await rm(dir, { recursive: true, force: true });
  await rename(building, dir);
  return dir;
}

/**
 * Links the cached tools named by `specs` (and what they need that sits at
 * the top of the cache) into `project/node_modules`, with their bins, and
 * records `specs` in the project's package.json as npm would.
 */
export async function linkTools(cache: string, project: string, specs: readonly string[], dev: boolean): Promise<void> {
  const needs = JSON.parse(await readFile(join(cache, "needs.json"), "utf8")) as Record<string, string[] | undefined>;
  const cached = join(cache, "node_modules");
  const modules = join(project, "node_modules");
  for (const spec of specs) {
    const names = needs[specName(spec)];
    if (names === undefined) throw new Error(`${spec} is not among the cached consumer tools (${Object.keys(needs).join(", ")}): add it to the package tier's tool list`);
    for (const name of names) {
      const link = join(modules, name);
      if (existsSync(link)) continue;
      await mkdir(dirname(link), { recursive: true });
      await symlink(join(cached, name), link);
    }
  }
  for (const bin of await readdir(join(cached, ".bin"))) {
    const target = relative(cached, join(cached, ".bin", await readlink(join(cached, ".bin", bin))));
    const owner = target.startsWith("@") ? target.split("/").slice(0, 2).join("/") : (target.split("/")[0] as string);
    const link = join(modules, ".bin", bin);
    if (!existsSync(join(modules, owner)) || existsSync(link)) continue;
    await mkdir(dirname(link), { recursive: true });
    await symlink(join(cached, target), link);
  }
  const pkgPath = join(project, "package.json");
  const pkg = JSON.parse(await readFile(pkgPath, "utf8")) as Record<string, unknown>;
  const field = dev ? "devDependencies" : "dependencies";
  const deps = { ...((pkg[field] as Record<string, string> | undefined) ?? {}) };
  for (const spec of specs) deps[specName(spec)] = spec.slice(specName(spec).length + 1);
  await writeFile(pkgPath, `${JSON.stringify({ ...pkg, [field]: deps }, null, 2)}\n`);
}
