/**
 * `npm run real-agents -- INSTALL_DIR [--install] [--only NAME] [--client] [--render] [--timeout S] [--out FILE]`:
 * runs `acp-router check` on each real agent of agents.ts, installed under
 * INSTALL_DIR (one folder per agent, `npm install --no-audit --no-fund
 * pkg@version` with `--install`; a failed install is recorded), and writes
 * docs/real-agents.md (render.ts). Every agent runs offline: check and the
 * agent run inside `unshare -n sh -c 'ip link set lo up; exec …'` (a
 * network namespace with loopback alone), with HOME set to an empty
 * temporary folder, so no credentials exist. After each run, `ps` is read
 * for any process still running from the agent's folder; one found is
 * recorded on the page and then killed. Nothing of INSTALL_DIR's absolute
 * path is written to the page. `--client` runs the example client's tour on
 * each agent instead (client-run.ts) and writes its section of the page.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { CheckReport } from "../check/main.ts";
import { AGENTS, folderOf, type RealAgent } from "./agents.ts";
import { scrubPaths } from "./scrub.ts";
import { runClientOne, type ClientRun } from "./client-run.ts";
import { renderPage, type AgentRun } from "./render.ts";
import { sdkOf } from "./sdk.ts";

const repo = fileURLToPath(new URL("../../", import.meta.url));

/** Installs `agent` into its folder; resolves with the install's last lines when it failed. */
function install(dir: string, agent: RealAgent): string | undefined {
  const folder = join(dir, folderOf(agent));
  execFileSync("mkdir", ["-p", folder]);
  if (!existsSync(join(folder, "package.json"))) writeFileSync(join(folder, "package.json"), `${JSON.stringify({ name: `real-agent-${agent.name}`, private: true })}\n`);
  try {
    execFileSync("npm", ["install", "--no-audit", "--no-fund", `${agent.pkg}@${agent.version}`], { cwd: folder, stdio: "pipe" });
    return undefined;
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error)
      .trim()
      .split("\n")
      .slice(-3)
      .join(" ");
  }
}

/** Processes whose command line names `folder` (an agent left running). */
function leftovers(folder: string): { pid: number; cmd: string }[] {
  const out = execFileSync("ps", ["-e", "-o", "pid=,args="], { encoding: "utf8" });
  return out.split("\n").flatMap((l) => {
    const m = /^\s*(\d+)\s+(.*)$/.exec(l);
    return m && m[2]!.includes(folder) && !m[2]!.includes("tools/real-agents") ? [{ pid: Number(m[1]), cmd: m[2]! }] : [];
  });
}

/**
 * How long a finished run's processes get to end before they count as left: check ends an agent's
 * process group itself (SIGTERM, then SIGKILL a second later, from its watcher once check has exited),
 * so a process read in that second is still being ended, not left behind.
 */
const SETTLE_MS = 3000;

/** The processes naming `folder` still running SETTLE_MS after the run ended (read every 250 ms until none is). */
async function leftAfterSettling(folder: string): Promise<{ pid: number; cmd: string }[]> {
  const until = performance.now() + SETTLE_MS;
  let left = leftovers(folder);
  while (left.length > 0 && performance.now() < until) {
    await new Promise((r) => setTimeout(r, 250));
    left = leftovers(folder);
  }
  return left;
}

/** Runs check on one agent offline; resolves with its report (or why there is none). */
async function runOne(dir: string, agent: RealAgent, timeout: number, asked?: 1): Promise<AgentRun> {
  const folder = join(dir, folderOf(agent));
  const [bin, ...args] = agent.command as [string, ...string[]];
  const base: Omit<AgentRun, "report" | "exit" | "seconds" | "stderrTail" | "left"> = { agent, installError: undefined, ...(asked === undefined ? {} : { asked }) };
  if (!existsSync(join(folder, bin))) return { ...base, installError: `${bin} is missing after npm install`, report: undefined, exit: null, seconds: 0, stderrTail: "", left: [] };
  const home = mkdtempSync(join(tmpdir(), "real-agent-home-"));
  const cwd = mkdtempSync(join(tmpdir(), "real-agent-cwd-"));
  const check = [process.execPath, "--import", "tsx", join(repo, "bin/acp-router.ts"), "check", "--json", "--timeout", String(agent.timeout ?? timeout), "--cwd", cwd, ...(asked === undefined ? [] : ["--protocol", String(asked)]), "--", join(folder, bin), ...args];
  const quoted = check.map((w) => `'${w.replace(/'/g, "'\\''")}'`).join(" ");
  const started = performance.now();
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TMPDIR: tmpdir(), TERM: "dumb", NO_COLOR: "1" };
  const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn("unshare", ["-n", "sh", "-c", `ip link set lo up; exec ${quoted}`], { cwd: repo, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr = (stderr + d).slice(-4000)));
    child.once("close", (code) => done({ code, stdout, stderr }));
  });
  const seconds = (performance.now() - started) / 1000;
  const left = await leftAfterSettling(folder);
  for (const p of left) {
    try {
      process.kill(p.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  let report: CheckReport | undefined;
  try {
    report = JSON.parse(result.stdout) as CheckReport;
  } catch {
    report = undefined;
  }
  const scrub = (s: string) => scrubPaths(s, { folder, folderName: folderOf(agent), home, cwd, repo });
  if (report !== undefined) report = JSON.parse(scrub(JSON.stringify(report))) as CheckReport;
  const sdk = sdkOf(folder, agent.pkg);
  return { ...base, report, exit: result.code, seconds, stderrTail: scrub(result.stderr).trim().split("\n").slice(-3).join("\n"), left: left.map((p) => scrub(p.cmd)), ...(sdk === undefined ? {} : { sdk }) };
}

async function main(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...argv], allowPositionals: true, options: { install: { type: "boolean" }, render: { type: "boolean" }, only: { type: "string", multiple: true }, client: { type: "boolean" }, timeout: { type: "string" }, out: { type: "string" } } });
  const dir = positionals[0];
  if (dir === undefined) {
    process.stderr.write("usage: npm run real-agents -- INSTALL_DIR [--install] [--only NAME]... [--client] [--render] [--timeout SECONDS (default 60)] [--out FILE (default docs/real-agents.md)]\n");
    return 2;
  }
  const root = resolve(dir);
  const timeout = Number(values.timeout ?? 60);
  const out = values.out ?? join(repo, "docs/real-agents.md");
  // The runs are kept beside the installs (not in the repo): `--only` re-runs some agents and keeps the others', `--render` re-renders.
  const data = join(root, "real-agents.json");
  const previous: AgentRun[] = existsSync(data) ? (JSON.parse(readFileSync(data, "utf8")) as AgentRun[]) : [];
  const clientData = join(root, "real-agents-client.json");
  const previousClient: ClientRun[] = existsSync(clientData) ? (JSON.parse(readFileSync(clientData, "utf8")) as ClientRun[]) : [];
  const runs: AgentRun[] = [];
  if (values.render) {
    writeFileSync(out, renderPage(previous, timeout, previousClient));
    return 0;
  }
  if (values.client) {
    const clientRuns: ClientRun[] = [];
    for (const agent of AGENTS) {
      const kept = previousClient.find((r) => r.agent.name === agent.name);
      if (values.only !== undefined && !values.only.includes(agent.name)) {
        if (kept) clientRuns.push(kept);
        continue;
      }
      process.stderr.write(`real-agents: client on ${agent.name}@${agent.version}…\n`);
      const run = await runClientOne(repo, root, agent);
      clientRuns.push(run);
      process.stderr.write(`real-agents: client on ${agent.name}: exit ${String(run.exit)}, ${run.afterLastStep.toFixed(1)} s after its last step, auth ${run.authRequired ? (run.authShown ? "shown" : "NOT shown") : "not required"}, ${run.left.length} process(es) left\n`);
      writeFileSync(clientData, `${JSON.stringify(clientRuns, null, 1)}\n`);
    }
    writeFileSync(clientData, `${JSON.stringify(clientRuns, null, 1)}\n`);
    writeFileSync(out, renderPage(previous, timeout, clientRuns));
    return 0;
  }
  for (const agent of AGENTS) {
    if (values.only !== undefined && !values.only.includes(agent.name)) {
      runs.push(...previous.filter((r) => r.agent.name === agent.name));
      continue;
    }
    const installError = values.install ? install(root, agent) : undefined;
    process.stderr.write(`real-agents: ${agent.name}@${agent.version}${installError ? ` (install failed: ${installError})` : ""}…\n`);
    const run = await runOne(root, agent, timeout);
    runs.push(installError !== undefined && run.report === undefined ? { ...run, installError } : run);
    process.stderr.write(`real-agents: ${agent.name}: protocol ${String(run.report?.protocol)}, exit ${String(run.exit)} in ${run.seconds.toFixed(0)} s, ${run.left.length} process(es) left\n`);
    // An agent that negotiated v2 is scored on v1 too (check --protocol 1), where it speaks both.
    if (run.report?.protocol === 2) {
      const v1 = await runOne(root, agent, timeout, 1);
      runs.push(v1);
      process.stderr.write(`real-agents: ${agent.name} --protocol 1: protocol ${String(v1.report?.protocol)}, exit ${String(v1.exit)} in ${v1.seconds.toFixed(0)} s, ${v1.left.length} process(es) left\n`);
    }
    writeFileSync(data, `${JSON.stringify([...runs, ...previous.filter((r) => !runs.some((x) => x.agent.name === r.agent.name))], null, 1)}\n`);
  }
  writeFileSync(data, `${JSON.stringify(runs, null, 1)}\n`);
  writeFileSync(out, renderPage(runs, timeout, previousClient));
  return 0;
}

process.exit(await main(process.argv.slice(2)));
