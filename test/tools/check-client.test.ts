// `acp-router check --client -- <client command with {agent}>`: the example client and an SDK-built client pass,
// and each scripted broken client fails exactly the one row of its defect.
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { scoreClient, type ClientReport } from "../../tools/check-client/main.ts";
import { LIST_CURSOR } from "../../tools/check-client/agent.ts";
import { NO_KEYWORD } from "../../tools/check/score.ts";
import { acpRouter, exampleClient, repoRoot, runCommand } from "./support.ts";

const clients = `${repoRoot}test/fixtures/clients`;
const tsx = import.meta.resolve("tsx");
const scripted = (defect?: string) => [process.execPath, `${clients}/scripted-client.mjs`, ...(defect ? [defect] : []), "--agent", "{agent}"];
const score = (command: readonly string[]) => scoreClient(command, { timeoutMs: 3000 });
const failed = (card: ClientReport) => card.rows.filter((r) => r.outcome === "fail").map((r) => `${r.id} ${r.evidence}`);
const failedIds = (card: ClientReport) =>
  card.rows
    .filter((r) => r.outcome === "fail")
    .map((r) => r.id)
    .sort();
const row = (card: ClientReport, id: string) => card.rows.find((r) => r.id === id);
/** The line check's agent sends for the big-id probe. */
const BIG_LINE = '{"jsonrpc":"2.0","id":9007199254740993,"method":"_acp-router.check/id","params":{"probe":"id"}}';
/** The interoperability section's findings of a card: [id, outcome] pairs. */
const interop = (card: ClientReport) => card.sections?.find((x) => x.id === "interoperability")?.findings.map((f) => [f.id, f.outcome]);
/** ACP-CANCEL-109's fail on a client that shuts down with check's pending terminal/wait_for_exit never answered. */
const DROPPED =
  /^check's agent sent \{"jsonrpc":"2\.0","id":"check-\d+","method":"terminal\/wait_for_exit",.*\} for a command that runs until the client ends it, the user cancelled the turn \(SIGINT, then the client's session\/cancel\), and ended the turn with it pending; the client then closed the agent's stdin \d+ ms after it was sent without ever answering it: a request cancelled by shutdown should be answered -32800$/;

/** The share of the observable rows judged (pass, fail, or n/a with its reason); rows no traffic can decide are "not observable", with their reason, and left out. */
const judged = (card: ClientReport) => {
  const observable = card.rows.filter((r) => r.outcome !== "not observable");
  expect(card.rows.filter((r) => r.outcome === "not observable").every((r) => (r.evidence ?? "") !== "")).toBe(true);
  return observable.filter((r) => r.outcome === "pass" || r.outcome === "fail" || (r.outcome === "n/a" && (r.evidence ?? "") !== "")).length / observable.length;
};

/** The outcome of an id beyond 2^53 refused with an error and id null. */
const REFUSED = "refused with an error and id null (acp-router's own policy for an id it cannot hold; the spec names none)";

/** Rows every run of a client that answers permissions at once and tolerates every probe passes. */
const CORE_PASSES = [
  "ACP-AGENTCAP-101",
  "ACP-AGENTCAP-103",
  "ACP-AGENTCAP-111",
  "ACP-CANCEL-103",
  "ACP-CANCEL-110",
  "ACP-CANCEL-205",
  "ACP-EXT-001",
  "ACP-EXT-104",
  "ACP-INFO-PARSE-001",
  "ACP-INFO-INVALIDREQ-001",
  "ACP-INIT-101",
  "ACP-INIT-105",
  "ACP-JSONRPC-001",
  "ACP-JSONRPC-004",
  "ACP-JSONRPC-005",
  "ACP-JSONRPC-104",
  "ACP-META-102",
  "ACP-PERM-103",
  "ACP-PROMPT-105",
  "ACP-SESSION-103",
  "ACP-SESSION-108",
  "ACP-SHUTDOWN-101",
  "ACP-TRANSPORT-101",
  "ACP-TRANSPORT-106",
];

describe("acp-router check --client", () => {
  it("[ACP-JSONRPC-104] [ACP-TRANSPORT-106] [ACP-SHUTDOWN-101] passes the example client (acp-router's client connection): no MUST fail, ≥ 90 % of the rows judged, fs and a 1 MiB update handled, agent's exit awaited, the big id refused with id null; and the request left pending at its shutdown answered -32800", async () => {
    const card = await score([process.execPath, "--import", tsx, exampleClient, "--protocol", "1", "--prompt", "{prompt}", "--agent", "{agent}"]);
    // acp-router's clean close answers the requests still in flight as cancelled: the terminal/wait_for_exit check's agent
    // left pending through the cancel is answered -32800 when the client shuts down (ACP-CANCEL-109).
    expect({ protocol: card.protocol, passed: card.passed, failed: failedIds(card) }).toEqual({ protocol: 1, passed: true, failed: [] });
    expect(row(card, "ACP-CANCEL-109")?.outcome).toBe("pass");
    expect(row(card, "ACP-JSONRPC-001")?.outcome).toBe("pass");
    // Ids beyond 2^53 are findings of their own section: acp-router's client refuses them with id null, its own policy.
    expect(interop(card)).toEqual([
      ["id 9007199254740993", REFUSED],
      ["id -9007199254740993", REFUSED],
    ]);
    expect(card.sections?.[0]?.findings[0]?.evidence).toBe(`check's agent sent ${BIG_LINE}; the client answered {"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: id must be a string or an integer"}}`);
    // The offers run: no auth.terminal advertised, so no terminal method was offered; no session/list sent.
    expect(row(card, "ACP-AUTH-101")).toMatchObject({ outcome: "n/a", evidence: "the client did not advertise clientCapabilities.auth.terminal, so check's agent offered no terminal auth method (an agent offers one only then)" });
    expect(row(card, "ACP-LIST-106")).toMatchObject({ outcome: "n/a", evidence: "check's agent advertised sessionCapabilities.list in the offers run, and the client sent no session/list" });
    expect(judged(card)).toBeGreaterThanOrEqual(0.9);
    for (const id of [...CORE_PASSES, "ACP-CLIENTCAP-103", "ACP-FS-102"]) expect([id, card.rows.find((r) => r.id === id)?.outcome]).toEqual([id, "pass"]);
    expect(card.rows.find((r) => r.id === "ACP-PERM-101")?.evidence).toBe('the client answered the permission request before the cancel: {"outcome":{"outcome":"selected","optionId":"check-allow"}}');
    expect(card.runs.map((r) => `${r.scenario} ${r.exit}`)).toEqual(["handshake code 0", "updates code 0", "permission code 0", "cancel code 0", "offers code 0", "version code 1"]);
    // The client ran in this folder, its session's cwd: the fs probe wrote its file there and removed it.
    expect(readdirSync(process.cwd()).filter((f) => f.startsWith(".acp-router-check-client-"))).toEqual([]);
    expect({ negotiated: card.negotiated, note: card.notes[0] }).toEqual({ negotiated: { offered: [1], answered: 1 }, note: "negotiated protocol version: 1 (the client offered 1; check's agent answers the offered version when it speaks it: 1 or 2)" });
  }, 60_000);

  it("scores the example client in v2 (its default: it offers 2, check's agent answers 2) on the v2 client-side rows: no fail, ≥ 90 % judged, batches handled, and its fallback to 1 probed", async () => {
    const card = await score([process.execPath, "--import", tsx, exampleClient, "--prompt", "{prompt}", "--agent", "{agent}"]);
    expect({ protocol: card.protocol, catalogue: card.catalogue, passed: card.passed, failed: failed(card) }).toEqual({ protocol: 2, catalogue: "docs/conformance-catalogue-v2.json (ACP v2, client side)", passed: true, failed: [] });
    expect(card.rows.every((r) => /^ACP-[A-Z]+-3\d\d$/.test(r.id))).toBe(true);
    expect(judged(card)).toBeGreaterThanOrEqual(0.9);
    for (const id of ["ACP-INIT-301", "ACP-INIT-305", "ACP-INIT-307", "ACP-INIT-381", "ACP-INIT-382", "ACP-JSONRPC-302", "ACP-JSONRPC-305", "ACP-JSONRPC-306", "ACP-JSONRPC-307", "ACP-JSONRPC-308", "ACP-JSONRPC-309", "ACP-EXT-302", "ACP-PROMPT-381", "ACP-SESSION-381"])
      expect([id, card.rows.find((r) => r.id === id)?.outcome]).toEqual([id, "pass"]);
    expect(card.runs.map((r) => r.scenario)).toEqual(["handshake", "updates", "permission", "cancel", "version", "version-down"]);
    expect(card.negotiated).toEqual({ offered: [2], answered: 2 });
    expect(card.notes).toContain("version-down run: a v2 initialize was answered with protocolVersion 1; the client initialized again with 1");
  }, 90_000);

  it("runs the client in the caller's folder: the README's relative command scores the example client (in v2, its default)", async () => {
    const card = await scoreClient(["node", "--import", "tsx", "examples/client.ts", "--prompt", "{prompt}", "--agent", "{agent}"], { timeoutMs: 3000, cwd: repoRoot });
    expect({ passed: card.passed, failed: failed(card), nothing: card.nothingJudged }).toEqual({ passed: true, failed: [], nothing: false });
    expect({ protocol: card.protocol, judged: judged(card) >= 0.9 }).toEqual({ protocol: 2, judged: true });
    // --fresh-dir: the old behaviour, where the relative path is not found and nothing is judged.
    const fresh = await scoreClient(["node", "--import", "tsx", "examples/client.ts", "--prompt", "{prompt}", "--agent", "{agent}"], { timeoutMs: 3000, cwd: repoRoot, freshDir: true });
    expect(fresh.nothingJudged).toBe(true);
  }, 90_000);

  it("scores a client built on the official SDK, which holds a permission request until the cancel and then answers it cancelled; its two fails are true: an unknown protocol version gone on with, a pending request dropped at shutdown; the big id answered rounded is an interoperability finding", async () => {
    const card = await score([process.execPath, "--import", tsx, `${clients}/sdk-client.ts`, "--prompt", "{prompt}", "--agent", "{agent}"]);
    // The SDK parses ids with JSON.parse and answers the id it got (2^53); its initialize returns whatever version the agent
    // answered, and the client does not look (a SHOULD); its close() leaves the agent's pending requests unanswered (a SHOULD).
    expect({ passed: card.passed, failed: failedIds(card) }).toEqual({ passed: true, failed: ["ACP-CANCEL-109", "ACP-INIT-105"] });
    expect(row(card, "ACP-JSONRPC-001")?.outcome).toBe("pass");
    expect(interop(card)).toEqual([
      ["id 9007199254740993", "answered with id 9007199254740992"],
      ["id -9007199254740993", "answered with id -9007199254740992"],
    ]);
    expect(row(card, "ACP-CANCEL-109")?.evidence).toMatch(DROPPED);
    expect(card.rows.find((r) => r.id === "ACP-INIT-105")?.evidence).toMatch(/^initialize was answered with protocolVersion 65535, and the client went on with session\/new \d+ ms later/);
    for (const id of ["ACP-PERM-101", "ACP-PERM-102", "ACP-PERM-103", "ACP-CANCEL-110", "ACP-CLIENTCAP-103", "ACP-FS-102", "ACP-SHUTDOWN-101", "ACP-EXT-104"]) expect([id, card.rows.find((r) => r.id === id)?.outcome]).toEqual([id, "pass"]);
    expect(judged(card)).toBeGreaterThanOrEqual(0.9);
  }, 60_000);

  it("an SDK-built client that checks the answered version itself (--check-version) passes ACP-INIT-105; ≥ 90 % judged, and only the SDK's own fail (a SHOULD)", async () => {
    const card = await score([process.execPath, "--import", tsx, `${clients}/sdk-client.ts`, "--check-version", "--prompt", "{prompt}", "--agent", "{agent}"]);
    expect({ protocol: card.protocol, passed: card.passed, failed: failedIds(card) }).toEqual({ protocol: 1, passed: true, failed: ["ACP-CANCEL-109"] });
    expect(card.rows.find((r) => r.id === "ACP-INIT-105")?.outcome).toBe("pass");
    expect(judged(card)).toBeGreaterThanOrEqual(0.9);
  }, 60_000);

  it("passes the scripted client without a defect on every row it judges, and judges ≥ 90 % of the rows", async () => {
    const card = await score(scripted());
    expect({ passed: card.passed, failed: failed(card) }).toEqual({ passed: true, failed: [] });
    for (const id of [...CORE_PASSES, "ACP-LIST-101", "ACP-LIST-102", "ACP-LIST-105", "ACP-LIST-106", "ACP-AUTH-101", "ACP-AUTH-102", "ACP-AUTH-103"]) expect([id, card.rows.find((r) => r.id === id)?.outcome]).toEqual([id, "pass"]);
    // The method without type, passed to authenticate: what an agent-type method allows (ACP-AUTH-103 has no keyword: a pass with its note).
    expect(row(card, "ACP-AUTH-103")?.evidence).toBe('the client called authenticate with the method without type (read as type agent, which authenticate serves): {"jsonrpc":"2.0","id":2,"method":"authenticate","params":{"methodId":"check-agent-login"}}');
    expect(row(card, "ACP-CANCEL-109")).toMatchObject({ outcome: "n/a", evidence: "the client did not advertise terminal: check's agent has no request of its own that stays pending until the client ends it" });
    expect(judged(card)).toBeGreaterThanOrEqual(0.9);
    // Rows a probe judges when the traffic shows them carry what was missing, never "no probe".
    expect(card.rows.filter((r) => r.outcome === "not run").map((r) => `${r.id}: ${r.evidence}`)).toEqual([]);
    expect(card.rows.find((r) => r.id === "ACP-CLIENTCAP-103")).toMatchObject({ outcome: "n/a", evidence: "the client advertised no fs or terminal capability" });
    expect(card.rows.find((r) => r.id === "ACP-FS-102")).toMatchObject({ outcome: "n/a", evidence: "the client did not advertise fs.writeTextFile" });
    expect({ negotiated: card.negotiated, notes: card.notes }).toEqual({ negotiated: { offered: [1], answered: 1 }, notes: ["negotiated protocol version: 1 (the client offered 1; check's agent answers the offered version when it speaks it: 1 or 2)"] });
    expect(interop(card)).toEqual([
      ["id 9007199254740993", REFUSED],
      ["id -9007199254740993", REFUSED],
    ]);
  }, 30_000);

  it("[ACP-JSONRPC-001] judges the MUST on ids every implementation holds (nulls-zero-id fails it, quoting both lines) and ids beyond 2^53 once each, as interoperability findings: echoes-big-id (the same digits) and rounds-big-id (2^53) both pass the row; --strict-ids fails rounds-big-id with that one evidence", async () => {
    const echo = await score(scripted("echoes-big-id"));
    expect({ passed: echo.passed, failed: failed(echo), row: row(echo, "ACP-JSONRPC-001")?.outcome }).toEqual({ passed: true, failed: [], row: "pass" });
    expect(interop(echo)).toEqual([
      ["id 9007199254740993", "answered with the same digits"],
      ["id -9007199254740993", "answered with the same digits"],
    ]);
    const rounded = await score(scripted("rounds-big-id"));
    expect({ passed: rounded.passed, failed: failed(rounded), row: row(rounded, "ACP-JSONRPC-001")?.outcome }).toEqual({ passed: true, failed: [], row: "pass" });
    expect(rounded.sections?.[0]?.findings[0]?.evidence).toBe(`check's agent sent ${BIG_LINE}; the client answered {"jsonrpc":"2.0","id":9007199254740992,"error":{"code":-32601,"message":"Method not found: _acp-router.check/id"}}`);
    const strict = await scoreClient(scripted("rounds-big-id"), { timeoutMs: 3000, strictIds: true });
    expect({ passed: strict.passed, failed: failedIds(strict) }).toEqual({ passed: false, failed: ["ACP-JSONRPC-001"] });
    expect(row(strict, "ACP-JSONRPC-001")?.evidence).toBe(
      `--strict-ids (the schema's int64 annotation read as part of the MUST): check's agent sent ${BIG_LINE}; the client answered {"jsonrpc":"2.0","id":9007199254740992,"error":{"code":-32601,"message":"Method not found: _acp-router.check/id"}}: answered with id 9007199254740992, not the same digits; --strict-ids (the schema's int64 annotation read as part of the MUST): check's agent sent {"jsonrpc":"2.0","id":-9007199254740993,"method":"_acp-router.check/id","params":{"probe":"id"}}; the client answered {"jsonrpc":"2.0","id":-9007199254740992,"error":{"code":-32601,"message":"Method not found: _acp-router.check/id"}}: answered with id -9007199254740992, not the same digits`,
    );
    const zero = await score(scripted("nulls-zero-id"));
    expect({ passed: zero.passed, failed: failedIds(zero) }).toEqual({ passed: false, failed: ["ACP-JSONRPC-001"] });
    expect(row(zero, "ACP-JSONRPC-001")?.evidence).toBe(
      'check\'s agent sent {"jsonrpc":"2.0","id":0,"method":"_acp-router.check/id","params":{"probe":"id"}}; the client answered {"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Method not found: _acp-router.check/id"}}: the answer\'s id is null, not 0, an id every JSON implementation holds exactly',
    );
  }, 60_000);

  it("passes the scripted client with terminals (terminal), which answers the terminal/wait_for_exit still pending at its shutdown -32800, and catches drops-pending, which never answers it, on ACP-CANCEL-109 alone", async () => {
    const good = await score(scripted("terminal"));
    expect({ passed: good.passed, failed: failed(good), cancel: row(good, "ACP-CANCEL-109")?.outcome, clientcap: row(good, "ACP-CLIENTCAP-103")?.outcome }).toEqual({ passed: true, failed: [], cancel: "pass", clientcap: "pass" });
    const bad = await score(scripted("drops-pending"));
    expect({ passed: bad.passed, failed: failedIds(bad) }).toEqual({ passed: true, failed: ["ACP-CANCEL-109"] });
    expect(row(bad, "ACP-CANCEL-109")?.evidence).toMatch(DROPPED);
  }, 60_000);

  it.each([
    ["calls-gated", ["ACP-AGENTCAP-111"], true, /^handshake run: client called session\/list but agentCapabilities\.sessionCapabilities\.list was not advertised by the agent/],
    ["ignores-version", ["ACP-INIT-105"], false, /^initialize was answered with protocolVersion 65535, and the client went on with session\/new \d+ ms later instead of closing the connection$/],
    // One observation, two rows (the schema's sentence and the prose's): shown once, on the first, which names the other.
    [
      "auth-terminal",
      ["ACP-AUTH-101", "ACP-AUTH-102"],
      true,
      /^check's agent answered initialize with authMethods \[.*"type":"terminal","id":"check-terminal-login".*\], and the client sent \{"jsonrpc":"2\.0","id":2,"method":"authenticate","params":\{"methodId":"check-terminal-login"\}\}: a terminal method is run outside ACP, never passed to authenticate\. The same fact decides ACP-AUTH-102 \(counted once, here\)$|^the same observation as ACP-AUTH-101, which shows the evidence \(counted once, there\)$/,
    ],
    [
      "writes-existing-only",
      ["ACP-FS-102"],
      true,
      /^check's agent sent fs\/write_text_file \{"path":".*",…\} for a file that did not exist and the client answered error -32603 "Internal error"; the same request for a file that existed was served \(.*\), so the client does not create a missing file$/,
    ],
    ["alters-cursor", ["ACP-LIST-106"], true, `with nextCursor ${JSON.stringify(LIST_CURSOR)}, and the client sent cursor ${JSON.stringify(LIST_CURSOR.trim())}: `],
  ] as const)(
    "catches the scripted client %s on %s alone",
    async (defect, ids, must, evidence: RegExp | string) => {
      const card = await score(scripted(defect));
      expect(failedIds(card)).toEqual([...ids]);
      for (const id of ids) expect(row(card, id)?.evidence).toMatch(evidence);
      expect(card.passed).toBe(!must);
    },
    30_000,
  );

  // Rows whose cited text has no normative keyword (tier none): what breaks them is a note, never a fail, and never the exit status.
  it.each([
    ["ignores-permission", "ACP-PERM-103", /^session\/request_permission got no answer within 3 s$/],
    ["answers-twice", "ACP-JSONRPC-104", /^session\/request_permission #101 was answered 2 times$/],
    ["ignores-cancel", "ACP-CANCEL-110", /^no session\/cancel within 3 s of SIGINT during a running turn$/],
    ["crashes-on-unknown", "ACP-EXT-104", /^the client exited \(code 1\) within 300 ms of an update of unknown kind "mock_future_update"$/],
    ["leaves-stdin-open", "ACP-SHUTDOWN-101", /the client did not wait for the agent's exit|stdin still open|without closing the agent's stdin/],
  ] as const)(
    "notes, never fails, the scripted client %s on %s (no normative keyword)",
    async (defect, id, evidence) => {
      const card = await score(scripted(defect));
      expect({ failed: failed(card), passed: card.passed }).toEqual({ failed: [], passed: true });
      const note = card.notes.find((n) => n.startsWith(`${id} (no normative keyword) noted: `));
      expect(note?.slice(`${id} (no normative keyword) noted: `.length)).toMatch(evidence);
      // The row shows the note as n/a, even where another run passed it (answers-twice: every other request was answered once).
      expect(row(card, id)).toMatchObject({ outcome: "n/a", evidence: expect.stringMatching(new RegExp(`^${NO_KEYWORD}; noted: `)) as string });
      if (defect === "crashes-on-unknown") {
        // The rows the updates run never reached say why, not "no probe".
        expect(row(card, "ACP-EXT-001")).toMatchObject({ outcome: "not run", evidence: expect.stringMatching(/^the client exited \(code 1\) after an update of unknown kind/) as string });
      }
    },
    30_000,
  );

  it("scores the scripted v2 client on the v2 rows with no fail (its batches answered, its fallback to 1 a fresh initialize), and catches v2-ignores-fallback on ACP-INIT-382 alone", async () => {
    const good = await score(scripted("v2"));
    expect({ protocol: good.protocol, failed: failed(good), judged: judged(good) >= 0.9 }).toEqual({ protocol: 2, failed: [], judged: true });
    for (const id of ["ACP-INIT-382", "ACP-JSONRPC-305", "ACP-JSONRPC-306", "ACP-JSONRPC-307", "ACP-JSONRPC-308", "ACP-JSONRPC-309", "ACP-CANCEL-301"]) expect([id, good.rows.find((r) => r.id === id)?.outcome]).toEqual([id, "pass"]);
    const bad = await score(scripted("v2-ignores-fallback"));
    expect(bad.rows.filter((r) => r.outcome === "fail").map((r) => r.id)).toEqual(["ACP-INIT-382"]);
    expect(bad.rows.find((r) => r.id === "ACP-INIT-382")?.evidence).toMatch(/^a v2 initialize was answered with protocolVersion 1, and the client went on outside v1: .*session\/new/);
    expect(bad.passed).toBe(false);
    // A v2 receiver that rejects batches as v1 does: the empty batch is answered right; a batch with a request gets no array (306 fails);
    // its one -32600 answers no notification (307) and is no empty array (308, noted).
    const v1ish = await score(scripted("v2-no-batches"));
    expect(v1ish.rows.filter((r) => r.outcome === "fail").map((r) => r.id)).toEqual(["ACP-JSONRPC-306"]);
    expect(v1ish.notes.some((n) => n.startsWith("ACP-JSONRPC-308: a batch of two notifications was answered ") && n.endsWith("not the empty array the row forbids, so noted"))).toBe(true);
    // ACP-JSONRPC-309 has no normative keyword in the v2 catalogue: the v2 card notes it, never fails it.
    expect(row(v1ish, "ACP-JSONRPC-309")).toMatchObject({ outcome: "n/a", evidence: expect.stringMatching(new RegExp(`^${NO_KEYWORD}; noted: a batch of a request and the number 42 was answered`)) as string });
    expect(v1ish.notes.some((n) => n.startsWith("ACP-JSONRPC-309 (no normative keyword) noted: "))).toBe(true);
  }, 90_000);

  it("a client that never starts the agent: one line, exit 3 (nothing judged), every row not run saying so", async () => {
    const run = await runCommand(acpRouter("check", "--client", "--timeout", "3", "--", process.execPath, "-e", "process.exit(1)", "{agent}"), "", 60_000);
    expect({ code: run.code, lines: run.stdout.toString("utf8").trim().split("\n").length }).toEqual({ code: 3, lines: 1 });
    expect(run.stdout.toString("utf8")).toMatch(/^nothing judged: the client never started the agent in any of the \d+ runs \(first run: client code 1/);
    const card = await score([process.execPath, "-e", "process.exit(1)", "{agent}"]);
    expect({ nothing: card.nothingJudged, rows: new Set(card.rows.map((r) => `${r.outcome}: ${r.evidence}`)) }).toEqual({ nothing: true, rows: new Set(["not run: the client never started the agent"]) });
  }, 60_000);
});

describe("acp-router check --client on the command line", () => {
  it("prints the JSON scorecard with the command and exits 1 when a MUST row failed, 0 when only a row without a normative keyword broke; usage errors exit 2", async () => {
    const run = await runCommand(acpRouter("check", "--client", "--json", "--timeout", "3", "--", ...scripted("calls-gated")), "", 60_000);
    const card = JSON.parse(run.stdout.toString("utf8")) as ClientReport & { command: string[] };
    expect({ code: run.code, command: card.command, failed: card.rows.filter((r) => r.outcome === "fail").map((r) => r.id), runs: card.runs.map((r) => r.scenario) }).toEqual({
      code: 1,
      command: scripted("calls-gated"),
      failed: ["ACP-AGENTCAP-111"],
      runs: ["handshake", "updates", "permission", "cancel", "offers", "version"],
    });
    // A row of tier none never sets the exit status: ignores-permission breaks ACP-PERM-103 (inferred, no keyword), noted, exit 0.
    const noted = await runCommand(acpRouter("check", "--client", "--json", "--timeout", "3", "--", ...scripted("ignores-permission")), "", 60_000);
    const notedCard = JSON.parse(noted.stdout.toString("utf8")) as ClientReport;
    expect({ code: noted.code, failed: notedCard.rows.filter((r) => r.outcome === "fail").map((r) => r.id), perm: notedCard.rows.find((r) => r.id === "ACP-PERM-103")?.outcome }).toEqual({ code: 0, failed: [], perm: "n/a" });
    const usage = await runCommand(acpRouter("check", "--client"), "", 20_000);
    expect({ code: usage.code, stderr: usage.stderr }).toMatchObject({ code: 2, stderr: expect.stringContaining("no client command after --") as string });
  }, 90_000);
});
