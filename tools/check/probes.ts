/**
 * The probes of `acp-router check`, in order, on one agent process:
 * handshake, a session and prompts (text and resource_link), each advertised
 * capability that can be exercised without side effects (session/list),
 * hostile inputs (unparsable line, invalid request, unknown methods and
 * notifications, a malformed envelope), framing (a request split across
 * writes with CRLF), cancellation (session/cancel and $/cancel_request
 * racing a prompt), then shutdown by closing stdin. Each probe records a
 * verdict per requirement id; inspect's rules run on every answer meanwhile.
 */
import { hasCapability } from "../../src/connection/capabilities.ts";
import type { Driver } from "./driver.ts";

export type Verdict = { readonly outcome: "pass" } | { readonly outcome: "fail"; readonly evidence: string } | { readonly outcome: "n/a"; readonly evidence: string };

/** Records one verdict per requirement (a later fail replaces a pass; a pass never replaces a fail). */
export type Score = (id: string, verdict: Verdict) => void;

const pass: Verdict = { outcome: "pass" };
const fail = (evidence: string): Verdict => ({ outcome: "fail", evidence });
const na = (evidence: string): Verdict => ({ outcome: "n/a", evidence });
const show = (v: unknown) => (v === undefined ? "no answer" : JSON.stringify(v).slice(0, 200));
const errorCode = (a: Record<string, unknown> | undefined) => (a?.error as { code?: unknown } | undefined)?.code;
const text = (sessionId: string, t: string) => ({ sessionId, prompt: [{ type: "text", text: t }] });

/** Runs every probe; `cwd` is the absolute directory sent as the session's cwd. */
export async function runProbes(d: Driver, score: Score, cwd: string): Promise<void> {
  const init = await d.request("initialize", { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: "acp-router-check", version: "0.1.0" } }, 30_000);
  const result = init?.result as { protocolVersion?: unknown; agentCapabilities?: unknown } | undefined;
  score("ACP-INIT-001", typeof result?.protocolVersion === "number" ? pass : fail(`initialize answered ${show(init)}`));
  if (result === undefined) return;
  const caps = result.agentCapabilities;

  const created = await d.request("session/new", { cwd, mcpServers: [] });
  const sessionId = (created?.result as { sessionId?: unknown } | undefined)?.sessionId;
  score("ACP-SESSION-001", typeof sessionId === "string" ? pass : fail(`session/new answered ${show(created)}`));
  if (typeof sessionId !== "string") return;

  const hello = await d.request("session/prompt", text(sessionId, "hello"), 30_000);
  const stop = (hello?.result as { stopReason?: unknown } | undefined)?.stopReason;
  score("ACP-PROMPT-001", typeof stop === "string" ? pass : fail(`session/prompt answered ${show(hello)}`));
  score("ACP-PROMPT-101", hello?.result !== undefined ? pass : fail(`a text prompt was answered ${show(hello)}`));
  score("ACP-SESSION-101", hello?.result !== undefined ? pass : fail(`session/prompt answered ${show(hello)}`));
  const link = await d.request("session/prompt", { sessionId, prompt: [{ type: "resource_link", uri: "file:///README.md", name: "README.md" }] }, 30_000);
  score("ACP-PROMPT-003", link?.result !== undefined ? pass : fail(`a resource_link prompt was answered ${show(link)}`));

  if (hasCapability(caps, ["sessionCapabilities", "list"])) {
    const list = await d.request("session/list", {});
    const sessions = (list?.result as { sessions?: unknown } | undefined)?.sessions;
    score("ACP-LIST-103", Array.isArray(sessions) ? pass : fail(`session/list answered ${show(list)}`));
  } else score("ACP-LIST-103", na("sessionCapabilities.list is not advertised"));

  // Hostile inputs: each must be rejected per JSON-RPC, and the connection must stay usable.
  const before = d.lines.length;
  d.write("this is not json\n");
  const parse = await d.waitFor((l) => errorCode(l.body) === -32700, 5000, before);
  score("ACP-INFO-PARSE-001", parse?.body?.id === null ? pass : fail(`a line that is not JSON was answered ${show(parse?.body)}`));
  const mark = d.lines.length;
  d.write('{"jsonrpc":"2.0","id":77}\n');
  const invalid = await d.waitFor((l) => l.body?.id === null || l.body?.id === 77, 5000, mark);
  score("ACP-INFO-INVALIDREQ-001", errorCode(invalid?.body) === -32600 ? pass : fail(`{"jsonrpc":"2.0","id":77} was answered ${show(invalid?.body)}`));
  const unknown = await d.request("session/no_such_method", {});
  score("ACP-JSONRPC-004", errorCode(unknown) === -32601 ? pass : fail(`session/no_such_method was answered ${show(unknown)}`));
  const ext = await d.request("_acp-router.check/no_such_method", {});
  score("ACP-EXT-001", ext !== undefined ? pass : fail("an unknown _ request got no answer"));
  const quiet = d.lines.length;
  d.notify("_acp-router.check/note", { n: 1 });
  d.notify("session/no_such_notification", {});
  const envelope = await d.request("session/prompt", [1]);
  score("ACP-JSONRPC-003", d.lines.slice(quiet).some((l) => l.body?.id === undefined && l.body?.method === undefined) ? fail("a notification was answered") : pass);
  score("ACP-EXT-201", pass);
  score("ACP-JSONRPC-101", errorCode(envelope) === -32600 || errorCode(envelope) === -32602 ? pass : fail(`a request with array params was answered ${show(envelope)}`));

  // Framing: one request split across two writes, ending with CRLF.
  const split = JSON.stringify({ jsonrpc: "2.0", id: 4242, method: "session/prompt", params: text(sessionId, "split") });
  const at = d.lines.length;
  d.write(split.slice(0, 20));
  await new Promise((r) => setTimeout(r, 50));
  d.write(`${split.slice(20)}\r\n`);
  const framed = await d.waitFor((l) => l.body?.id === 4242 && l.body.method === undefined, 30_000, at);
  score("ACP-TRANSPORT-203", framed?.body?.result !== undefined ? pass : fail(`a request split across writes with CRLF was answered ${show(framed?.body)}`));
  score("ACP-JSONRPC-005", framed?.body?.result !== undefined ? pass : fail("the connection stopped serving after hostile inputs"));

  // Cancellation races: session/cancel right behind a prompt; $/cancel_request right behind another.
  const cancelled = d.request("session/prompt", text(sessionId, "slow"), 30_000);
  d.notify("session/cancel", { sessionId });
  const answer = await cancelled;
  score("ACP-CANCEL-102", answer?.result !== undefined ? pass : fail(`a prompt cancelled with session/cancel was answered ${show(answer)}`));
  const stopped = (answer?.result as { stopReason?: unknown } | undefined)?.stopReason;
  score("ACP-CANCEL-001", stopped === "cancelled" || stopped === "end_turn" ? pass : fail(`a cancelled prompt ended with ${show(answer)}`));
  // `$/cancel_request` once the turn is running (its first update, or 5 s): a cancel that reaches
  // an agent before the request it names may rightly be ignored (unknown id), so sending it
  // right behind the request would make this probe depend on the agent's scheduling.
  const from = d.lines.length;
  const second = d.request("session/prompt", text(sessionId, "slow"), 30_000);
  const secondId = d.lastRequestId;
  await d.waitFor((l) => l.body?.method === "session/update", 5_000, from);
  d.notify("$/cancel_request", { requestId: secondId });
  score("ACP-CANCEL-105", (await second) !== undefined ? pass : fail("a prompt cancelled with $/cancel_request was never answered"));

  const code = await d.close();
  score("ACP-SHUTDOWN-001", code !== undefined ? pass : fail("the agent was still running 5 s after its stdin closed"));
}
