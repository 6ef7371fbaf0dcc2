/**
 * The package tier's global setup: what every package test needs, made once
 * per run. It packs the library (`npm pack`, whose `prepack` is the one build
 * of the run), unpacks the tarball beside it for the tests that load the
 * published files under plain Node, and readies the consumer projects' dev
 * tools in their cache (see tools-cache.ts). The tests read the paths with
 * `inject("tarball" | "packed" | "consumerTools")`.
 */
import { execFile } from "node:child_process";
import { mkdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";
import { consumerToolSpecs, packLibrary, readmeSection } from "./consumer-support.ts";
import { toolsCache } from "./tools-cache.ts";

declare module "vitest" {
  interface ProvidedContext {
    /** The packed library, `.tmp/pack/acp-router-<version>.tgz`. */
    tarball: string;
    /** The tarball unpacked: the folder holding the published package.json, dist/ and schemas/. */
    packed: string;
    /** The consumer tools' cache folder (its node_modules holds the tools). */
    consumerTools: string;
  }
}

const root = fileURLToPath(new URL("../../", import.meta.url));

export default async function setup(project: TestProject): Promise<void> {
  const section = readmeSection(await readFile(join(root, "README.md"), "utf8"), "## The workflow");
  const [tarball, consumerTools] = await Promise.all([packLibrary(root), toolsCache(root, consumerToolSpecs(section.steps))]);
  const unpacked = join(root, ".tmp", "pack", "unpacked");
  await rm(unpacked, { recursive: true, force: true });
  await mkdir(unpacked, { recursive: true });
  await promisify(execFile)("tar", ["-xzf", tarball, "-C", unpacked]);
  project.provide("tarball", tarball);
  project.provide("packed", join(unpacked, "package"));
  project.provide("consumerTools", consumerTools);
}
