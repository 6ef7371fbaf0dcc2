/** Helpers of the package tier: packing the library (once per run, in setup.ts), reading the README's workflow section. */
import { mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { runOk } from "../support/process.ts";

/** A file the README tells the user to write: `<!-- consumer: path -->` before its block. */
export interface ConsumerFile {
  readonly path: string;
  readonly body: string;
}

/** One command line of a `<!-- consumer-commands -->` block. */
export interface Step {
  readonly line: string;
  readonly argv: readonly string[];
}

/** The files, commands (in order) and expected output of the README section starting at `heading`. */
export function readmeSection(readme: string, heading: string): { files: ConsumerFile[]; steps: Step[]; output: string } {
  const start = readme.indexOf(`\n${heading}`);
  if (start < 0) throw new Error(`README has no section "${heading}"`);
  const end = readme.indexOf("\n## ", start + 1);
  const text = readme.slice(start, end < 0 ? undefined : end);
  const files: ConsumerFile[] = [];
  const steps: Step[] = [];
  let output = "";
  const re = /<!-- (consumer: (\S+)|consumer-commands|consumer-output) -->\n\n?```\w*\n([\s\S]*?)```/g; // prettier puts a blank line after the marker
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const body = m[3] as string;
    if (m[2] !== undefined) files.push({ path: m[2], body });
    else if (m[1] === "consumer-output") output = body;
    else for (const line of body.split("\n").filter((l) => l.trim() !== "")) steps.push({ line, argv: line.split(/\s+/) });
  }
  return { files, steps, output };
}

/** Tools the consumer test adds beyond the README's (it also runs the client under tsx, bundled by esbuild, and an extension validated by zod). */
export const extraTools = ["tsx@4.23.15", "esbuild@0.28.2", "zod@4.6.7"] as const;

/** Every `name@version` the README's `npm install` lines name (acp-router itself excepted), then `extraTools`. */
export function consumerToolSpecs(steps: readonly Step[]): string[] {
  const fromReadme = steps.filter((s) => s.argv[0] === "npm" && s.argv[1] === "install").flatMap((s) => s.argv.slice(2).filter((a) => !a.startsWith("--") && a !== "acp-router"));
  return [...fromReadme, ...extraTools];
}

/** Packs the library with `npm pack` (which builds it first) into `.tmp/pack`; resolves to the tarball's path. */
export async function packLibrary(root: string): Promise<string> {
  const dest = join(root, ".tmp", "pack");
  await mkdir(dest, { recursive: true });
  const { stdout } = await runOk("npm", ["pack", "--silent", "--pack-destination", dest], { cwd: root, timeoutMs: 900_000 }); // the build under tsc: minutes on a loaded 2-core machine
  const name = stdout.trim().split("\n").pop() ?? "";
  const files = await readdir(dest);
  if (!files.includes(name)) throw new Error(`npm pack wrote no ${name} (found ${files.join(", ")})`);
  return join(dest, name);
}
