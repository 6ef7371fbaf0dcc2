/**
 * Figure 17 — the SDK drop-in: the bench's SDK reference agent (`sdkAgentApp`
 * of `lib/peers.ts`, written against `@agentclientprotocol/sdk` 2.4.0) run
 * unchanged on the compatibility package (`compat/sdk/`, loaded in place of
 * the SDK by the resolve hook `compat/sdk/dev/register.mjs`) against the
 * same agent on the real SDK. Two measures:
 * - prompts/s of the agent process over real stdio pipes, driven exactly as
 *   figure (10) drives it (`lib/driver.ts`, 256 in flight): 1 KB prompts
 *   answered at once, and small messages (one "hello" prompt per session,
 *   two awaited `session/update`s and the answer each); peers alternate in
 *   the same rounds, and the row `ratio to sdk (same round)` is the
 *   package's prompts/s over the SDK's in each round;
 * - prompts/s of what users run: `bench/outside/sdk-ref-agent.mjs` in an
 *   install of the real SDK and in an install of the packed package, driven
 *   as the outside driver drives it (one prompt in flight per session);
 * - heap per held `session/prompt`: figure (4)'s measurement (`heap.ts
 *   --only=sdk`) run once in a process on the real SDK and once in a
 *   process on the package, with 8,000 held prompts (the package keeps the
 *   core's `maxInFlight` of 8,192, so figure 4's 10,000 would be refused).
 *
 *   node --expose-gc --import tsx bench/sdk-drop-in.ts [--quick] [--prompts=20000] [--small-prompts=40000] [--user-prompts=20000]
 */
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sessionRun } from "./lib/session-driver.ts";
import { addRoundRatios, arg, emit, QUICK, Recorder, rotate, type FigureResult } from "./lib/harness.ts";
import { checkOutput, Driver, promptLines, type Case } from "./lib/driver.ts";
import { HELLO_UPDATES, helloLine, line } from "./lib/messages.ts";
import { seconds } from "./lib/processes.ts";

const IN_FLIGHT = 256;
const ROUNDS = QUICK ? 1 : 7;
const HELD = QUICK ? 1_000 : 8_000;
const SDK = "sdk";
const PACKAGE = "sdk on the compatibility package";
const register = fileURLToPath(new URL("../compat/sdk/dev/register.mjs", import.meta.url));
const script = (name: string) => fileURLToPath(new URL(name, import.meta.url));
/** Node's arguments that load the package in place of the SDK (none for the SDK itself). */
const swap = (peer: string): string[] => (peer === PACKAGE ? ["--import", register] : []);

const CASES: Case[] = [
  { name: `session/prompt (1 KB text), ${IN_FLIGHT} in flight`, prompts: Number(arg("prompts") ?? (QUICK ? 4_000 : 20_000)), line: (id) => line("prompt", id), mode: [], linesPerPrompt: 1 },
  {
    name: `session/prompt "hello", one per session, ${IN_FLIGHT} sessions in flight, ${HELLO_UPDATES.length} session/updates + answer each`,
    prompts: Number(arg("small-prompts") ?? (QUICK ? 8_000 : 40_000)),
    line: helloLine,
    mode: ["stream"],
    linesPerPrompt: HELLO_UPDATES.length + 1,
  },
];

const rec = new Recorder();
const peers = [SDK, PACKAGE];
for (const c of CASES) {
  const drivers: Record<string, Driver> = {};
  for (const peer of peers) {
    const driver = new Driver([process.execPath, ["--import", "tsx", ...swap(peer), script("./lib/agent-process.ts"), "sdk", ...c.mode]]);
    await driver.initialize();
    const output = await driver.run(promptLines(c, IN_FLIGHT), IN_FLIGHT, true);
    rec.verify(`${peer} stdio prompt${c.mode.length > 0 ? " (small messages)" : ""}`, checkOutput(c, output, IN_FLIGHT));
    drivers[peer] = driver;
  }
  const lines = promptLines(c, c.prompts);
  for (const driver of Object.values(drivers)) await driver.run(lines, IN_FLIGHT);
  for (let round = 0; round < ROUNDS; round++) {
    for (const peer of rotate(peers, round)) {
      (globalThis as { gc?: () => void }).gc?.();
      const s = await seconds(() => (drivers[peer] as Driver).run(lines, IN_FLIGHT));
      rec.add(c.name, peer, c.prompts / s);
    }
  }
  for (const driver of Object.values(drivers)) driver.close();
  addRoundRatios(rec, c.name, SDK);
  rec.notes.push(`${c.name}: ${c.prompts} prompts per round`);
}

/**
 * What users run: `bench/outside/sdk-ref-agent.mjs` (the SDK's agent app on
 * `ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin))`)
 * in two installs side by side, one with the real SDK 2.4.0 and one with the
 * package packed from this checkout (`compat/sdk/pack.ts`, compiled, as
 * installed), driven as the outside driver drives it (`lib/session-driver.ts`:
 * 256 sessions, one "hello" prompt in flight per session).
 */
async function usersFile(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "figure-17-"));
  try {
    const tarball = execFileSync(process.execPath, ["--import", "tsx", script("../compat/sdk/pack.ts")], { encoding: "utf8" })
      .trim()
      .split("\n")
      .at(-1) as string;
    const installs: Record<string, string> = { [SDK]: join(work, "sdk"), [PACKAGE]: join(work, "package") };
    for (const [peer, dir] of Object.entries(installs)) {
      const target = join(dir, "node_modules/@agentclientprotocol/sdk");
      mkdirSync(join(dir, "node_modules/@agentclientprotocol"), { recursive: true });
      if (peer === SDK) symlinkSync(script("../node_modules/acp-sdk-2.4.0"), target, "dir");
      else {
        mkdirSync(target);
        execFileSync("tar", ["-xzf", tarball, "-C", target, "--strip-components=1"]);
      }
      copyFileSync(script("./outside/sdk-ref-agent.mjs"), join(dir, "sdk-ref-agent.mjs"));
    }
    const name = `bench/outside/sdk-ref-agent.mjs, installed (real SDK; the packed package), 256 sessions, one "hello" prompt in flight each`;
    const prompts = Number(arg("user-prompts") ?? (QUICK ? 2_000 : 20_000));
    for (let round = 0; round < ROUNDS; round++) {
      for (const peer of rotate(peers, round)) rec.add(name, peer, await sessionRun([process.execPath, ["sdk-ref-agent.mjs"], installs[peer] as string], prompts));
    }
    addRoundRatios(rec, name, SDK);
    rec.notes.push(`${name}: ${prompts} prompts per round, one process per round`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
await usersFile();

/** Runs figure 4's SDK measurement in its own process, on the SDK or on the package. */
function heapFigure(peer: string): Promise<FigureResult> {
  const args = ["--expose-gc", "--import", "tsx", ...swap(peer), script("./heap.ts"), "--only=sdk", `--held=${HELD}`, ...(QUICK ? ["--quick"] : [])];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.on("close", (code) => {
      try {
        if (code !== 0) throw new Error(`heap.ts exited ${code}`);
        resolve(JSON.parse(out.trim().split("\n").pop() ?? "") as FigureResult);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

for (const peer of peers) {
  const heap = await heapFigure(peer);
  for (const r of heap.results) for (const value of r.rounds) rec.add(`heap per held ${r.case}, bytes`, peer, value);
  for (const [what, ok] of Object.entries(heap.verified)) rec.verify(`${peer}: ${what}`, ok);
}

rec.notes.push(`prompts/s: the agent process over its stdin/stdout, ${IN_FLIGHT} in flight (a new prompt line for each answer), median of ${ROUNDS} round(s), peers alternating; the ratio rows are the package over the SDK in the same round`);
rec.notes.push(`heap: bench/heap.ts --only=sdk --held=${HELD} in a process of its own per peer (${HELD} prompts held by handlers that keep their params, heapUsed after gc() per prompt)`);
rec.notes.push("both peers run the same source (bench/lib/peers.ts sdkAgentApp / sdkStreamingAgentApp); the package's is loaded through compat/sdk/dev/register.mjs (its TypeScript sources through tsx, no build)");
emit(rec.result({ figure: "sdk-drop-in", title: "SDK reference agent on the compatibility package vs on the real SDK", unit: "prompts/s, bytes", better: "higher", rounds: ROUNDS }));
