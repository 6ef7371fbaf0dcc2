/**
 * The v2 agent rows of `npm run test:check-rows` (docs/conformance-catalogue-v2.json and its unstable
 * companion, agent side): the mock agent offers what check's v2 probes exercise (the exercise turns, resume
 * with replay, config options, permissions); the scripted v2 stub (check-v2-agent.mjs) offers the unstable
 * methods, and its `unstable-broken` mode breaks them.
 */
import { breaks, enables, type FaultCase, type PlainPass } from "./modes.ts";

const M = "mock2";
const U = "v2stub:unstable";

/** Rows a plain base run passes. */
export const V2_PASSES: readonly PlainPass[] = [
  {
    base: M,
    rows: ["ACP-TRANSPORT-301", "ACP-TRANSPORT-302", "ACP-TRANSPORT-303", "ACP-JSONRPC-301", "ACP-JSONRPC-302", "ACP-JSONRPC-303", "ACP-JSONRPC-305", "ACP-JSONRPC-306", "ACP-JSONRPC-307", "ACP-JSONRPC-308", "ACP-JSONRPC-310", "ACP-JSONRPC-312",
      "ACP-INIT-303", "ACP-INIT-306", "ACP-INIT-307", "ACP-INIT-308", "ACP-INIT-309", "ACP-INIT-310", "ACP-INIT-382", "ACP-SESSION-302", "ACP-SESSION-303", "ACP-SESSION-304", "ACP-SESSION-306", "ACP-SESSION-307", "ACP-SESSION-308",
      "ACP-SESSION-309", "ACP-SESSION-310", "ACP-SESSION-313", "ACP-SESSION-323", "ACP-SESSION-325", "ACP-LIST-301", "ACP-LIST-302", "ACP-LIST-306", "ACP-PROMPT-301", "ACP-PROMPT-302", "ACP-PROMPT-303", "ACP-PROMPT-304",
      "ACP-PROMPT-305", "ACP-PROMPT-306", "ACP-PROMPT-307", "ACP-PROMPT-308", "ACP-PROMPT-310", "ACP-PROMPT-311", "ACP-PROMPT-312", "ACP-PROMPT-315", "ACP-CANCEL-302", "ACP-CANCEL-303", "ACP-CANCEL-306", "ACP-CANCEL-309",
      "ACP-CANCEL-316", "ACP-CANCEL-317", "ACP-PERM-301", "ACP-PERM-302", "ACP-PERM-303", "ACP-PERM-304", "ACP-TOOL-302", "ACP-TOOL-303", "ACP-TERM-301", "ACP-TERM-302", "ACP-TERM-303", "ACP-PLAN-303", "ACP-PLAN-307",
      "ACP-CONFIG-301", "ACP-CONFIG-302", "ACP-CONFIG-303", "ACP-CONFIG-304", "ACP-CONFIG-312", "ACP-CONFIG-313", "ACP-ELICIT-305", "ACP-EXT-302", "ACP-EXT-303", "ACP-EXT-304", "ACP-EXT-311", "ACP-PATH-301"],
  },
  { base: U, rows: ["ACP-PROMPT-309", "ACP-SESSION-505", "ACP-SESSION-507", "ACP-SESSION-508", "ACP-SESSION-513", "ACP-SESSION-517", "ACP-SESSION-518", "ACP-SESSION-519", "ACP-AUTH-501", "ACP-PROVIDERS-502"] },
];

/** The faults that fail the v2 agent rows, and the pass-faults that give a base what a row needs. */
export const V2_FAULTS: readonly FaultCase[] = [
  // Wire and batches (the same probes as v1, under their v2 ids).
  breaks("null-zero-id", ["ACP-JSONRPC-302"], M, "wire"),
  breaks("answer-notes", ["ACP-JSONRPC-307", "ACP-EXT-303"], M, "wire"),
  breaks("drop-framed", ["ACP-TRANSPORT-302"], M, "wire"),
  breaks("junk-stdout", ["ACP-TRANSPORT-303"], M, "wire"),
  breaks("replacement-char", ["ACP-TRANSPORT-301"], M, "wire"),
  breaks("batch-not-array", ["ACP-JSONRPC-306"], M, "wire"),
  breaks("empty-array-for-notifications", ["ACP-JSONRPC-308"], M, "wire"),
  breaks("batched-lifecycle", ["ACP-JSONRPC-310"], M, "wire"),
  breaks("silent-custom", ["ACP-EXT-302"], M, "wire-2"),
  breaks("response-for-notification", ["ACP-JSONRPC-312"], M, "wire-2"),
  breaks("empty-batch-silent", ["ACP-JSONRPC-305"], M, "wire-3"),
  breaks("null-request-id", ["ACP-JSONRPC-301"], M, "request-ids"),
  breaks("reused-request-id", ["ACP-JSONRPC-303"], M, "request-ids-2"),
  // Initialization.
  breaks("v1-shaped-initialize", ["ACP-INIT-382", "ACP-INIT-303", "ACP-INIT-307", "ACP-INIT-308"], M, "init"),
  breaks("echo-9999", ["ACP-INIT-303"], M, "init-2"),
  breaks("custom-root-field-v2", ["ACP-EXT-304"], M, "init-2"),
  breaks("no-capabilities-object", ["ACP-INIT-309"], M, "init-3"),
  breaks("elicitation-ungated", ["ACP-INIT-306", "ACP-ELICIT-305"], M, "init-2"),
  breaks("resource-link-refused", ["ACP-INIT-310"], M, "init-2"),
  // Auth methods.
  enables("pass:v2-auth", ["ACP-AUTH-301", "ACP-AUTH-303", "ACP-AUTH-308"], M, "auth"),
  breaks("auth-login-missing", ["ACP-AUTH-301", "ACP-AUTH-303"], M, "auth-2"),
  enables("pass:terminal-env", ["ACP-AUTH-309"], M, "auth-3"),
  breaks("pass:terminal-env", ["ACP-AUTH-308"], M, "auth-3"),
  breaks("terminal-env-repeated", ["ACP-AUTH-309"], M, "auth-4"),
  // The prompt turn and its states.
  breaks("ack-without-message-id", ["ACP-PROMPT-301", "ACP-PROMPT-308"], M, "turn-ack"),
  breaks("no-user-message", ["ACP-PROMPT-303", "ACP-PROMPT-310"], M, "turn-user"),
  breaks("idle-without-stop-reason", ["ACP-PROMPT-302", "ACP-PROMPT-311", "ACP-PROMPT-312"], M, "turn-idle"),
  breaks("no-running-state", ["ACP-PROMPT-304", "ACP-PROMPT-306"], M, "turn-running"),
  breaks("chunk-without-message-id", ["ACP-PROMPT-305"], M, "turn-chunks"),
  breaks("stuck-after-requires-action", ["ACP-PROMPT-307"], M, "turn-stuck"),
  breaks("nonstandard-states", ["ACP-PROMPT-315"], M, "turn-states"),
  breaks("prompt-error-after-insert", ["ACP-PROMPT-309"], U, "turn-insert"),
  enables("pass:error-stop-reason", ["ACP-PROMPT-314"], M, "turn-error"),
  breaks("error-stop-reason-bare", ["ACP-PROMPT-314"], M, "turn-error-2"),
  enables("pass:background", ["ACP-PROMPT-318"], M, "turn-background"),
  breaks("background-dropped", ["ACP-PROMPT-318"], M, "turn-background-2"),
  enables("pass:image-refused", ["ACP-PROMPT-321"], M, "content"),
  breaks("image-refused-internal", ["ACP-PROMPT-321"], M, "content-2"),
  // Cancellation and permissions.
  breaks("cancel-idle-end-turn", ["ACP-CANCEL-302", "ACP-CANCEL-316"], M, "cancel"),
  breaks("cancel-request-error", ["ACP-CANCEL-303"], M, "cancel"),
  breaks("chunk-after-cancelled-idle", ["ACP-CANCEL-306"], M, "cancel-2"),
  breaks("permission-unknown-outcome-proceeds", ["ACP-PERM-301"], M, "permissions"),
  breaks("permission-unknown-option-proceeds", ["ACP-PERM-303"], M, "permissions"),
  breaks("permission-cancelled-proceeds", ["ACP-PERM-302", "ACP-CANCEL-309"], M, "permissions"),
  breaks("cancel-capability-kept", ["ACP-CANCEL-317"], M, "permissions"),
  breaks("duplicate-option-ids", ["ACP-PERM-304"], M, "permissions-2"),
  breaks("no-in-progress", ["ACP-TOOL-303"], M, "permissions-3"),
  enables("pass:command-subject", ["ACP-TOOL-306"], M, "subject"),
  breaks("command-subject-relative", ["ACP-TOOL-306"], M, "subject-2"),
  // Tool calls, terminals, plans, patches, commands, icons, trace context, extensions.
  breaks("tool-without-title", ["ACP-TOOL-302"], M, "updates"),
  breaks("terminal-without-command", ["ACP-TERM-302"], M, "updates"),
  breaks("terminal-relative-cwd-v2", ["ACP-TERM-303"], M, "updates"),
  breaks("plan-without-id", ["ACP-PLAN-303"], M, "updates"),
  breaks("location-relative", ["ACP-PATH-301"], M, "updates"),
  breaks("command-name-with-space", ["ACP-EXT-311"], M, "updates"),
  breaks("terminal-id-reused", ["ACP-TERM-301"], M, "updates-2"),
  breaks("plan-entries-partial", ["ACP-PLAN-307"], M, "updates-2"),
  enables("pass:git-patch", ["ACP-DIFF-304", "ACP-DIFF-305"], M, "patch"),
  breaks("git-patch-prefixed", ["ACP-DIFF-304"], M, "patch-2"),
  breaks("git-patch-with-envelope", ["ACP-DIFF-305"], M, "patch-3"),
  enables("pass:https-icon", ["ACP-EXT-312"], M, "icon"),
  breaks("icon-plain-http", ["ACP-EXT-312"], M, "icon-2"),
  enables("pass:traceparent-v2", ["ACP-META-301"], M, "icon"),
  breaks("bad-traceparent-v2", ["ACP-META-301"], M, "icon-2"),
  enables("pass:advertised-extension-v2", ["ACP-EXT-305"], M, "extension"),
  breaks("unadvertised-extension-v2", ["ACP-EXT-305"], M, "extension-2"),
  // Sessions, resume and replay, config options.
  breaks("close-idle-end-turn", ["ACP-SESSION-302", "ACP-SESSION-323"], M, "sessions"),
  breaks("list-filter-ignored", ["ACP-LIST-302"], M, "sessions"),
  breaks("list-cursor-accepted", ["ACP-LIST-306"], M, "sessions"),
  breaks("close-unknown-internal", ["ACP-SESSION-325"], M, "sessions"),
  breaks("list-relative-cwd", ["ACP-SESSION-313"], M, "sessions-2"),
  breaks("list-no-sessions-array", ["ACP-LIST-301"], M, "sessions-3"),
  breaks("same-session-id-v2", ["ACP-SESSION-303"], M, "sessions-4"),
  breaks("close-method-not-found", ["ACP-SESSION-304"], M, "sessions-5"),
  enables("pass:delete", ["ACP-DELETE-302"], M, "sessions-6"),
  breaks("delete-errors-v2", ["ACP-DELETE-302"], M, "sessions-7"),
  enables("pass:mcp-http-refused", ["ACP-SESSION-319"], M, "sessions-6"),
  breaks("mcp-http-refused-internal", ["ACP-SESSION-319"], M, "sessions-7"),
  breaks("resume-replays", ["ACP-SESSION-306"], M, "resume"),
  breaks("unknown-cursor-resumed", ["ACP-SESSION-310"], M, "resume"),
  breaks("resume-drops-replay", ["ACP-SESSION-307"], M, "resume-2"),
  breaks("replay-without-message-ids", ["ACP-SESSION-308"], M, "resume-3"),
  breaks("replay-without-state", ["ACP-SESSION-309"], M, "resume-4"),
  breaks("config-no-current-value", ["ACP-CONFIG-301"], M, "config"),
  breaks("config-set-partial", ["ACP-CONFIG-302"], M, "config-5"),
  enables("pass:connect-mcp", ["ACP-SESSION-320"], M, "mcp"),
  breaks("tool-without-mcp", ["ACP-SESSION-320"], M, "mcp-2"),
  breaks("config-set-method-not-found", ["ACP-CONFIG-303"], M, "config-2"),
  breaks("config-invalid-accepted", ["ACP-CONFIG-304"], M, "config-3"),
  breaks("config-duplicate-values", ["ACP-CONFIG-312"], M, "config-3"),
  breaks("config-null", ["ACP-CONFIG-313"], M, "config-4"),
  // The unstable v2 methods (the scripted v2 stub's own broken mode breaks them all at once).
  breaks("mode:unstable-broken", ["ACP-SESSION-505", "ACP-SESSION-507", "ACP-SESSION-508", "ACP-SESSION-513", "ACP-SESSION-517", "ACP-SESSION-518", "ACP-AUTH-501"], "v2stub", "unstable-broken"),
  breaks("system-prompt-text-refused", ["ACP-SESSION-519"], U, "unstable"),
  breaks("providers-stop-after-set", ["ACP-PROVIDERS-502"], U, "unstable"),
];
