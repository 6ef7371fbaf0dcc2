/**
 * The outside driver's pattern (`../shared/bench/stdio-throughput.mjs`), for figure 17: an agent
 * process gets `initialize`, `window` sessions (`session/new` each), then `prompts` "hello" prompts
 * with one in flight per session, each sent when that session's previous one was answered; every
 * line it writes is parsed, and an answer other than `end_turn` fails the run. One process per
 * run, as a user's editor starts its agent.
 */
import { spawn } from "node:child_process";

/** Runs `command` once; resolves with prompts/s over the `prompts` timed prompts (after one warm-up prompt per session). */
export function sessionRun(command: readonly [string, readonly string[], string], prompts: number, window = 256): Promise<number> {
  const [file, args, cwd] = command;
  const child = spawn(file, args, { cwd, stdio: ["pipe", "pipe", "inherit"] });
  child.stdin.on("error", () => {});
  const waiters = new Map<number, (message: { result?: { sessionId?: string; stopReason?: string }; error?: unknown }) => void>();
  let pending = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    pending += chunk;
    for (let newline = pending.indexOf("\n"); newline >= 0; newline = pending.indexOf("\n")) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line === "") continue;
      const message = JSON.parse(line) as { id?: number; method?: string };
      if (message.method !== undefined) continue;
      const waiter = waiters.get(message.id as number);
      waiters.delete(message.id as number);
      waiter?.(message as never);
    }
  });
  const call = (id: number, method: string, params: object) =>
    new Promise<{ result?: { sessionId?: string; stopReason?: string }; error?: unknown }>((resolve) => {
      waiters.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  const prompt = (id: number, sessionId: string) => call(id, "session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] });
  return (async () => {
    try {
      await call(0, "initialize", { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: "figure-17", version: "0" } });
      const sessions: string[] = [];
      for (let k = 0; k < window; k++) sessions.push(String((await call(1 + k, "session/new", { cwd: cwd, mcpServers: [] })).result?.sessionId));
      let next = 100_000;
      await Promise.all(sessions.map((s) => prompt(next++, s)));
      let sent = 0;
      let done = 0;
      let bad = 0;
      const start = process.hrtime.bigint();
      await new Promise<void>((resolve) => {
        const turn = (sessionId: string) => {
          if (sent === prompts) return;
          sent++;
          void prompt(next++, sessionId).then((answer) => {
            if (answer.result?.stopReason !== "end_turn") bad++;
            if (++done === prompts) resolve();
            else turn(sessionId);
          });
        };
        for (const s of sessions) turn(s);
      });
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      if (bad > 0) throw new Error(`${bad} prompts were not answered end_turn`);
      return prompts / seconds;
    } finally {
      child.stdin.end();
      setTimeout(() => child.kill("SIGKILL"), 1000).unref();
    }
  })();
}
