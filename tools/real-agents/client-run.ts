/**
 * `--client` mode of scorecard.ts: runs the example client's tour
 * (`examples/client.ts --tour --agent "<agent command>"`) on one real agent,
 * offline (`unshare -n`, loopback alone, HOME an empty temporary folder), and
 * measures what issue 20 asks of it: the exit code, the seconds from the
 * client's last printed step to its exit, whether it printed the agent's
 * authentication methods when the agent required authentication, and the
 * agent processes left afterwards.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { folderOf, type RealAgent } from "./agents.ts";
import { scrubPaths } from "./scrub.ts";

/** One agent's client run, as scorecard.ts saves it (real-agents-client.json beside the installs). */
export interface ClientRun {
  readonly agent: RealAgent;
  /** The client's exit code; null when it was ended by a signal (the overall bound). */
  readonly exit: number | null;
  /** Seconds from the client's last printed step (the line before its "Agent …" exit note) to its exit. */
  readonly afterLastStep: number;
  readonly seconds: number;
  /** Whether the run hit the overall bound and was ended. */
  readonly timedOut: boolean;
  /** Whether the agent required authentication (an "Authentication required" answer, or an error naming --auth). */
  readonly authRequired: boolean;
  /** Whether the client printed the agent's authentication methods. */
  readonly authShown: boolean;
  /** The method ids the client printed. */
  readonly methods: readonly string[];
  /** Processes of the run (its session, or naming the agent's folder) still running after the client exited (then ended by process group). */
  readonly left: readonly string[];
  /** The client's last output lines (stdout and stderr interleaved), paths scrubbed. */
  readonly tail: string;
}

/** Overall bound for one client run in seconds, or three times an agent's check timeout when that is longer (default 150: two prompts of the client's own 60 s request timeout, plus start and exit). */
export const CLIENT_BOUND_S = 150;

const quote = (w: string) => `'${w.replace(/'/g, "'\\''")}'`;

/** Processes in session `sid` or whose command line names `folder`, with their process groups. */
function leftovers(sid: number, folder: string): { pid: number; pgid: number; cmd: string }[] {
  const out = execFileSync("ps", ["-e", "-o", "pid=,pgid=,sid=,args="], { encoding: "utf8" });
  return out.split("\n").flatMap((l) => {
    const m = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/.exec(l);
    if (!m || m[4]!.includes("tools/real-agents") || m[4]!.startsWith("ps ")) return [];
    return Number(m[3]) === sid || m[4]!.includes(folder) ? [{ pid: Number(m[1]), pgid: Number(m[2]), cmd: m[4]! }] : [];
  });
}

function killGroups(groups: Iterable<number>): void {
  for (const g of groups) {
    try {
      process.kill(-g, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** Runs the example client's tour on `agent`, installed under `dir`. */
export async function runClientOne(repo: string, dir: string, agent: RealAgent, boundS = Math.max(CLIENT_BOUND_S, (agent.timeout ?? 0) * 3)): Promise<ClientRun> {
  const folder = join(dir, folderOf(agent));
  const [bin, ...args] = agent.command as [string, ...string[]];
  const home = mkdtempSync(join(tmpdir(), "real-agent-home-"));
  const cwd = mkdtempSync(join(tmpdir(), "real-agent-cwd-"));
  const agentLine = [join(folder, bin), ...args].map(quote).join(" ");
  const client = [process.execPath, "--import", "tsx", join(repo, "examples/client.ts"), "--tour", "--cwd", cwd, "--agent", agentLine].map(quote).join(" ");
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TMPDIR: tmpdir(), TERM: "dumb", NO_COLOR: "1" };
  const lines: { at: number; text: string }[] = [];
  const started = performance.now();
  if (!existsSync(join(folder, bin))) throw new Error(`${bin} is missing in ${folderOf(agent)}`);
  // detached: its own session and process group, so every process of the run can be found (sid) and ended (group).
  const child = spawn("unshare", ["-n", "sh", "-c", `ip link set lo up; exec ${client}`], { cwd: repo, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const sid = child.pid ?? -1;
  const collect = (stream: NodeJS.ReadableStream) => {
    let rest = "";
    stream.setEncoding("utf8");
    stream.on("data", (d: string) => {
      const at = performance.now();
      const parts = (rest + d).split("\n");
      rest = parts.pop() ?? "";
      for (const text of parts) lines.push({ at, text });
    });
    stream.on("end", () => rest && lines.push({ at: performance.now(), text: rest }));
  };
  collect(child.stdout);
  collect(child.stderr);
  let timedOut = false;
  const bound = setTimeout(() => {
    timedOut = true;
    killGroups([sid, ...leftovers(sid, folder).map((p) => p.pgid)]);
  }, boundS * 1000);
  const { code, exitedAt } = await new Promise<{ code: number | null; exitedAt: number }>((done) => child.once("exit", (c) => done({ code: c, exitedAt: performance.now() })));
  clearTimeout(bound);
  await new Promise((r) => setTimeout(r, 500));
  const left = leftovers(sid, folder);
  killGroups(new Set(left.map((p) => p.pgid)));
  const exitNote = lines.findIndex((l) => /^Agent (exited|did not exit)/.test(l.text.trim()));
  const printed = lines.filter((l) => l.text.trim() !== "");
  const lastStep =
    exitNote > 0
      ? lines
          .slice(0, exitNote)
          .filter((l) => l.text.trim() !== "")
          .at(-1)
      : printed.at(-1);
  const all = lines.map((l) => l.text).join("\n");
  const listed = all.indexOf("Authentication methods (use --auth ID):");
  // The listing: the header, then one "  id: name (type)…" line per method, ending at the first other line.
  const methods: string[] = [];
  if (listed >= 0)
    for (const l of all.slice(listed).split("\n").slice(1)) {
      const m = /^ {2}([^\s:]+): .*\(([\w-]+)\)/.exec(l);
      if (!m) break;
      methods.push(m[1]!);
    }
  const scrub = (s: string) => scrubPaths(s, { folder, folderName: folderOf(agent), home, cwd, repo });
  return {
    agent,
    exit: code,
    afterLastStep: lastStep === undefined ? (exitedAt - started) / 1000 : (exitedAt - lastStep.at) / 1000,
    seconds: (exitedAt - started) / 1000,
    timedOut,
    authRequired: /authentication required|pick a method with --auth|offered no authentication method/i.test(all),
    authShown: listed >= 0,
    methods,
    left: left.map((p) => scrub(p.cmd)),
    tail: scrub(
      lines
        .slice(-8)
        .map((l) => l.text)
        .join("\n"),
    ),
  };
}
