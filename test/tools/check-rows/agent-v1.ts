/**
 * The v1 agent rows of `npm run test:check-rows` (docs/conformance-catalogue.json and its unstable
 * companion, agent side): the base runs they pass on, and the fault that fails each. The scripted depth
 * stub (test/fixtures/check-depth-agent.mjs) offers every v1 feature check's probes exercise; the mock agent
 * adds terminals that are killed and elicitations; the check stub (check-agent.mjs) connects declared MCP
 * servers. Groups hold faults that touch different messages.
 */
import { breaks, enables, type FaultCase, type PlainPass } from "./modes.ts";

const D = "depth1";

/** Rows a plain base run passes. */
export const V1_PASSES: readonly PlainPass[] = [
  {
    base: D,
    rows: ["ACP-AUTH-002", "ACP-CANCEL-001", "ACP-CANCEL-102", "ACP-CANCEL-105", "ACP-CANCEL-109", "ACP-CANCEL-205", "ACP-CLIENTCAP-001", "ACP-CLIENTCAP-002", "ACP-CLIENTCAP-003", "ACP-CLIENTCAP-101", "ACP-CLIENTCAP-102",
      "ACP-CLOSE-002", "ACP-CONFIG-002", "ACP-CONFIG-003", "ACP-CONFIG-101", "ACP-DELETE-002", "ACP-ERROR-001", "ACP-ERROR-101", "ACP-EXT-001", "ACP-EXT-201", "ACP-FS-101",
      "ACP-INFO-INVALIDREQ-001", "ACP-INFO-PARSE-001", "ACP-INIT-001", "ACP-INIT-002", "ACP-INIT-003", "ACP-INIT-004", "ACP-INIT-103", "ACP-INIT-106", "ACP-INIT-107", "ACP-INIT-109", "ACP-INIT-110",
      "ACP-JSONRPC-001", "ACP-JSONRPC-002", "ACP-JSONRPC-003", "ACP-JSONRPC-004", "ACP-JSONRPC-101", "ACP-JSONRPC-102", "ACP-JSONRPC-103", "ACP-LIST-002", "ACP-LIST-103", "ACP-LIST-107", "ACP-LIST-204",
      "ACP-LOAD-002", "ACP-LOAD-102", "ACP-MCP-101", "ACP-MCP-102", "ACP-META-001", "ACP-META-102", "ACP-PATH-101", "ACP-PATH-102", "ACP-PLAN-103", "ACP-PROMPT-001", "ACP-PROMPT-003", "ACP-PROMPT-101",
      "ACP-RESUME-002", "ACP-SCHEMA-002", "ACP-SESSION-001", "ACP-SESSION-002", "ACP-SESSION-101", "ACP-SESSION-103", "ACP-SESSION-104", "ACP-SESSION-105", "ACP-SESSION-107", "ACP-SESSION-403", "ACP-SESSION-405",
      "ACP-SESSION-408", "ACP-TERM-101", "ACP-TERM-102", "ACP-TERM-104", "ACP-TOOL-102", "ACP-TRANSPORT-001", "ACP-TRANSPORT-002", "ACP-TRANSPORT-203"],
  },
  { base: "mock1", rows: ["ACP-ELICIT-102", "ACP-ELICIT-116", "ACP-ELICIT-123", "ACP-TERM-105"] },
  { base: "agent1", rows: ["ACP-MCP-104"] },
];

/** The faults that fail the v1 agent rows, and the pass-faults that give a base what a row needs. */
export const V1_FAULTS: readonly FaultCase[] = [
  // Wire: each fault touches another answer.
  breaks("no-parse-error", ["ACP-INFO-PARSE-001"], D, "wire"),
  breaks("no-invalid-request", ["ACP-INFO-INVALIDREQ-001"], D, "wire"),
  breaks("unknown-method-internal", ["ACP-JSONRPC-004"], D, "wire"),
  breaks("null-zero-id", ["ACP-JSONRPC-001"], D, "wire"),
  breaks("answer-notes", ["ACP-JSONRPC-003", "ACP-EXT-201"], D, "wire"),
  breaks("array-params-served", ["ACP-JSONRPC-101"], D, "wire"),
  breaks("drop-framed", ["ACP-TRANSPORT-203"], D, "wire"),
  breaks("junk-stdout", ["ACP-TRANSPORT-001"], D, "wire"),
  breaks("replacement-char", ["ACP-TRANSPORT-002"], D, "wire"),
  breaks("silent-custom", ["ACP-EXT-001"], D, "wire-2"),
  breaks("string-error-code", ["ACP-ERROR-101"], D, "wire-2"),
  breaks("result-and-error", ["ACP-JSONRPC-002"], D, "wire-3"),
  breaks("wordy-error", ["ACP-ERROR-001"], D, "wire-4"),
  breaks("fractional-request-id", ["ACP-JSONRPC-103"], D, "wire-4"),
  breaks("object-request-id", ["ACP-JSONRPC-102"], D, "wire-5"),
  // Initialization.
  breaks("answer-version-7", ["ACP-INIT-002"], D, "init"),
  breaks("no-agent-info", ["ACP-INIT-004", "ACP-INIT-110"], D, "init"),
  breaks("terminal-auth-method", ["ACP-AUTH-002"], D, "init"),
  breaks("echo-9999", ["ACP-INIT-003"], D, "init"),
  breaks("init-bad-shape", ["ACP-INIT-103"], D, "init-2"),
  breaks("no-agent-capabilities", ["ACP-INIT-109"], D, "init-3"),
  breaks("init-error", ["ACP-INIT-001"], D, "init-6"),
  // session/new depth and the session probes.
  breaks("drop-meta-session-new", ["ACP-META-102"], D, "session-meta"),
  breaks("refuse-mcp-servers", ["ACP-MCP-101", "ACP-MCP-102"], D, "session"),
  breaks("config-no-current-value", ["ACP-CONFIG-101"], D, "session"),
  breaks("config-set-partial", ["ACP-CONFIG-002"], D, "session"),
  breaks("answer-session-cancel", ["ACP-CANCEL-205"], D, "session"),
  breaks("resource-link-refused", ["ACP-PROMPT-003"], D, "session"),
  breaks("session-new-no-id", ["ACP-SESSION-001"], D, "session-id"),
  breaks("prompt-method-not-found", ["ACP-SESSION-101"], D, "prompt-1"),
  breaks("prompt-no-stop-reason", ["ACP-PROMPT-001"], D, "prompt-2"),
  breaks("prompt-text-refused", ["ACP-PROMPT-101"], D, "prompt-3"),
  breaks("mode:same-session-id", ["ACP-SESSION-002"], D, "same-id"),
  // Session lifecycle.
  breaks("load-drops-agent-text", ["ACP-LOAD-102"], D, "lifecycle"),
  breaks("resume-replays", ["ACP-RESUME-002"], D, "lifecycle"),
  breaks("close-ends-turn", ["ACP-CLOSE-002"], D, "lifecycle"),
  breaks("list-filter-ignored", ["ACP-LIST-002"], D, "lifecycle"),
  breaks("list-cursor-accepted", ["ACP-LIST-107"], D, "lifecycle"),
  breaks("delete-errors", ["ACP-DELETE-002"], D, "lifecycle"),
  breaks("list-relative-cwd", ["ACP-LIST-204", "ACP-SESSION-103"], D, "lifecycle-2"),
  enables("pass:list-absolute-dirs", ["ACP-ADDDIRS-101"], D, "lifecycle-3"),
  breaks("list-relative-dirs", ["ACP-ADDDIRS-101"], D, "lifecycle-4"),
  breaks("list-no-sessions-array", ["ACP-LIST-103"], D, "lifecycle-5"),
  breaks("mode:load-answer-first", ["ACP-LOAD-002"], D, "load-first"),
  // Capability gates and the capabilities run.
  breaks("mode:fs-ungated", ["ACP-CLIENTCAP-001", "ACP-FS-101", "ACP-INIT-107"], D, "fs-ungated"),
  breaks("terminal-ungated", ["ACP-CLIENTCAP-002", "ACP-TERM-101"], D, "gates-terminal"),
  breaks("elicitation-ungated", ["ACP-CLIENTCAP-003"], D, "gates-elicitation"),
  breaks("notice-ungated", ["ACP-CLIENTCAP-101"], D, "gates-notice"),
  breaks("compaction-ungated", ["ACP-CLIENTCAP-102"], D, "gates-compaction"),
  breaks("no-in-progress", ["ACP-TOOL-102"], D, "caps"),
  breaks("fs-relative-path", ["ACP-PATH-101"], D, "caps"),
  breaks("terminal-relative-cwd", ["ACP-TERM-102"], D, "caps"),
  breaks("fs-line-zero", ["ACP-PATH-102"], D, "caps-2"),
  breaks("exit-with-capabilities", ["ACP-INIT-106"], D, "caps-exit"),
  breaks("mode:no-release", ["ACP-TERM-104"], D, "no-release"),
  breaks("mode:plan-unprioritised", ["ACP-PLAN-103"], D, "plan"),
  breaks("mode:spawn-dir-paths", ["ACP-SESSION-104", "ACP-SESSION-105", "ACP-SESSION-107"], D, "spawn-dir"),
  breaks("mode:permission-end-turn", ["ACP-CANCEL-001"], D, "permission-end-turn"),
  // Cancellation and shutdown.
  breaks("cancel-answered-error", ["ACP-CANCEL-102"], D, "cancel"),
  breaks("cancel-request-error", ["ACP-CANCEL-105"], D, "cancel"),
  breaks("exit-on-eof", ["ACP-CANCEL-109"], D, "cancel"),
  // Traffic rows.
  breaks("mode:custom-root-field", ["ACP-SCHEMA-002"], D, "root-field"),
  enables("pass:traceparent", ["ACP-META-101"], D, "meta"),
  breaks("mode:bad-traceparent", ["ACP-META-101"], D, "bad-traceparent"),
  enables("pass:advertised-extension", ["ACP-EXT-103", "ACP-EXT-202"], D, "extension"),
  breaks("mode:unadvertised-extension", ["ACP-EXT-103", "ACP-EXT-202"], D, "unadvertised-extension"),
  // Unstable v1 features the depth stub offers.
  breaks("mode:archive-keeps-running", ["ACP-SESSION-403"], D, "archive"),
  breaks("mode:status-updates", ["ACP-SESSION-405"], D, "status"),
  breaks("list-archive-filter-accepted", ["ACP-SESSION-408"], D, "lifecycle"),
  enables("pass:auth-status", ["ACP-AUTH-401"], D, "auth-status"),
  breaks("auth-status-refused", ["ACP-AUTH-401"], D, "auth-status-refused"),
  enables("pass:providers", ["ACP-PROVIDERS-402"], D, "auth-status"),
  breaks("providers-stop-after-set", ["ACP-PROVIDERS-402"], D, "auth-status-refused"),
  // Config options as modes.
  enables("pass:modes-in-step", ["ACP-CONFIG-111", "ACP-CONFIG-114"], D, "modes"),
  breaks("mode-option-without-modes", ["ACP-CONFIG-111"], D, "modes-2"),
  breaks("modes-out-of-step", ["ACP-CONFIG-114"], D, "modes-3"),
  breaks("mode:boolean-config", ["ACP-CONFIG-003"], D, "boolean-config"),
  // Elicitations and killed terminals (the mock agent's exercise turns).
  breaks("gated-turn-unanswered", ["ACP-ELICIT-102"], "mock1", "elicit"),
  breaks("declined-turn-unanswered", ["ACP-ELICIT-116"], "mock1", "elicit-2"),
  breaks("form-with-url", ["ACP-ELICIT-123"], "mock1", "elicit-3"),
  breaks("kill-without-release", ["ACP-TERM-105"], "mock1", "elicit-3"),
  enables("pass:url-elicitations", ["ACP-ELICIT-117", "ACP-ELICIT-119", "ACP-ELICIT-122"], D, "url"),
  breaks("url-elicitation-ids-reused", ["ACP-ELICIT-117"], D, "url-2"),
  breaks("url-elicitation-plain-http", ["ACP-ELICIT-122"], D, "url-3"),
  breaks("url-elicitation-complete-unknown", ["ACP-ELICIT-119"], D, "url-4"),
  // MCP servers (the check stub connects them; ignore-mcp never starts them and reports a tool call).
  breaks("mode:ignore-mcp", ["ACP-MCP-104"], "agent1", "ignore-mcp"),
];
