/**
 * `npm run real-clients -- INSTALL_DIR [--install] [--render] [--out FILE]`: runs
 * `acp-router check --client` on each client of CLIENTS and writes
 * docs/real-clients.md (render.ts). The repository's own clients (the example
 * client, the SDK-built fixture) run from the repository; third-party clients
 * are installed under INSTALL_DIR, one folder each (`npm install --no-audit
 * --no-fund pkg@version` with `--install`). Every run is offline: check and
 * the client run inside `unshare -n sh -c 'ip link set lo up; exec …'` (a
 * network namespace with loopback alone: the bridge reaches check over
 * 127.0.0.1 inside it), with HOME an empty temporary folder. The reports are
 * saved as real-clients.json in INSTALL_DIR; nothing of INSTALL_DIR's
 * absolute path is written to the page.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { ClientReport } from "../check-client/main.ts";
import { renderPage, type ClientResult, type RealClient } from "./render.ts";

export type { RealClient };

const repo = fileURLToPath(new URL("../../", import.meta.url));

const node = process.execPath;
const tsx = () => import.meta.resolve("tsx");

export const CLIENTS: readonly RealClient[] = [
  {
    name: "examples/client.ts (acp-router)",
    shown: "node --import tsx examples/client.ts --prompt {prompt} --agent {agent}",
    command: () => [node, "--import", tsx(), join(repo, "examples/client.ts"), "--prompt", "{prompt}", "--agent", "{agent}"],
  },
  {
    name: "SDK-built client (@agentclientprotocol/sdk 2.4.0)",
    shown: "node --import tsx test/fixtures/clients/sdk-client.ts --prompt {prompt} --agent {agent}",
    command: () => [node, "--import", tsx(), join(repo, "test/fixtures/clients/sdk-client.ts"), "--prompt", "{prompt}", "--agent", "{agent}"],
  },
  {
    name: "acpx 0.19.1",
    pkg: { name: "acpx", version: "0.19.1", folder: "acpx" },
    shown: "<install>/acpx/node_modules/.bin/acpx --agent {agent} exec {prompt}",
    command: (dir) => [join(dir, "acpx/node_modules/.bin/acpx"), "--agent", "{agent}", "exec", "{prompt}"],
  },
  {
    name: "acp-factory 0.1.14 (through acp-factory-client.mjs)",
    pkg: { name: "acp-factory", version: "0.1.14", folder: "acp-factory" },
    shown: "node tools/real-clients/acp-factory-client.mjs <install>/acp-factory --agent {agent} --prompt {prompt}",
    command: (dir) => [node, join(repo, "tools/real-clients/acp-factory-client.mjs"), join(dir, "acp-factory"), "--agent", "{agent}", "--prompt", "{prompt}"],
  },
];

const quote = (w: string) => `'${w.replace(/'/g, "'\\''")}'`;

/** Runs check --client on `client` offline; resolves with its report, or why there is none. */
async function runOne(client: RealClient, dir: string, timeoutS: number): Promise<ClientResult> {
  const home = mkdtempSync(join(tmpdir(), "real-client-home-"));
  const check = [node, "--import", tsx(), join(repo, "bin/acp-router.ts"), "check", "--client", "--json", "--fresh-dir", "--timeout", String(timeoutS), "--", ...client.command(dir)].map(quote).join(" ");
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TMPDIR: tmpdir(), TERM: "dumb", NO_COLOR: "1" };
  const started = performance.now();
  const child = spawn("unshare", ["-n", "sh", "-c", `ip link set lo up; exec ${check}`], { cwd: repo, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
  const code = await new Promise<number | null>((done) => child.once("close", done));
  const seconds = Math.round((performance.now() - started) / 1000);
  try {
    return { client, exit: code, seconds, report: JSON.parse(out) as ClientReport };
  } catch {
    return { client, exit: code, seconds, error: `no scorecard (exit ${String(code)}): ${err.trim().split("\n").slice(-3).join(" ").slice(0, 300)}` };
  }
}

function install(dir: string, pkg: NonNullable<RealClient["pkg"]>): void {
  const folder = join(dir, pkg.folder);
  execFileSync("mkdir", ["-p", folder]);
  if (!existsSync(join(folder, "package.json"))) writeFileSync(join(folder, "package.json"), `${JSON.stringify({ name: `real-client-${pkg.folder}`, private: true })}\n`);
  execFileSync("npm", ["install", "--no-audit", "--no-fund", `${pkg.name}@${pkg.version}`], { cwd: folder, stdio: "inherit" });
}

async function main(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...argv], allowPositionals: true, options: { install: { type: "boolean" }, out: { type: "string" }, timeout: { type: "string" }, render: { type: "boolean" } } });
  const dir = positionals[0] === undefined ? undefined : resolve(positionals[0]);
  if (dir === undefined) {
    process.stderr.write("usage: npm run real-clients -- INSTALL_DIR [--install] [--render] [--timeout S] [--out FILE]\n");
    return 2;
  }
  const timeoutS = Number(values.timeout ?? 10);
  const out = values.out ?? join(repo, "docs/real-clients.md");
  // --render: the page again from the saved runs (real-clients.json), nothing run.
  if (values.render) {
    const saved = JSON.parse(readFileSync(join(dir, "real-clients.json"), "utf8")) as (Omit<ClientResult, "client"> & { client: string })[];
    const again = saved.flatMap((r) => {
      const client = CLIENTS.find((c) => c.name === r.client);
      return client === undefined ? [] : [{ ...r, client }];
    });
    writeFileSync(out, renderPage(again, timeoutS));
    process.stderr.write(`wrote ${out}\n`);
    return 0;
  }
  const results: ClientResult[] = [];
  for (const client of CLIENTS) {
    if (client.pkg && values.install) install(dir, client.pkg);
    process.stderr.write(`real-clients: ${client.name}\n`);
    results.push(await runOne(client, dir, timeoutS));
  }
  writeFileSync(
    join(dir, "real-clients.json"),
    `${JSON.stringify(
      results.map((r) => ({ ...r, client: r.client.name })),
      null,
      2,
    )}\n`,
  );
  writeFileSync(out, renderPage(results, timeoutS));
  process.stderr.write(`wrote ${out}\n`);
  return 0;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      process.stderr.write(`real-clients: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
