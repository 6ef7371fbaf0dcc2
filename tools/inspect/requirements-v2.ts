/**
 * The v2 conformance-catalogue entries (docs/conformance-catalogue-v2.json)
 * that inspect's v2 rules report and check scores on a v2 agent, copied as
 * `requirements.ts` copies the v1 ones; test/tools/rules.test.ts fails when
 * they drift from the catalogue.
 */

/** One catalogue entry: its RFC 2119 tier ("none" when the cited text has no keyword: a note, never a violation), its first citation and its statement. */
export interface Requirement {
  readonly tier: "MUST" | "MUST NOT" | "SHOULD" | "SHOULD NOT" | "MAY" | "none";
  readonly citation: string;
  readonly statement: string;
}

/** v2 entries by id (ids numbered from 301, so they never collide with v1's). */
export const V2_ENTRIES: Readonly<Record<string, Requirement>> = {
  "ACP-CANCEL-302": { tier: "MUST", citation: "docs/protocol/v2/prompt-lifecycle.mdx:503; docs/protocol/v2/prompt-lifecycle.mdx:510", statement: "After aborting on session/cancel, the agent sends an idle state_update with the cancelled stop reason." },
  "ACP-CANCEL-303": {
    tier: "MUST",
    citation: "docs/protocol/v2/cancellation.mdx:20; schema.json#/anyOf/2/properties/params/anyOf/0/anyOf/0",
    statement: "The receiver of $/cancel_request still sends a response for the original request: a normal result, the method's cancellation result, or -32800.",
  },
  "ACP-CANCEL-306": { tier: "MUST", citation: "docs/protocol/v2/prompt-lifecycle.mdx:514", statement: "Updates the agent sends after session/cancel come before the idle state_update that reports the cancellation; none follow it." },
  "ACP-EXT-302": { tier: "MUST", citation: "docs/protocol/v2/extensibility.mdx:65", statement: "On receiving a custom request, an implementation responds with the provided id." },
  "ACP-EXT-303": { tier: "SHOULD", citation: "docs/protocol/v2/extensibility.mdx:109", statement: "Implementations ignore unrecognized notifications." },
  "ACP-INIT-301": { tier: "MUST", citation: "docs/protocol/v2/initialization.mdx:24; docs/protocol/v2/session-setup.mdx:8", statement: "Before a session can be created, the client initializes the connection with initialize." },
  "ACP-INIT-303": { tier: "MUST", citation: "docs/protocol/v2/initialization.mdx:86; docs/protocol/v2/initialization.mdx:94", statement: "Client and agent agree on a protocol version; an agent that supports the requested version answers it, otherwise it answers the latest version it supports." },
  "ACP-INIT-306": { tier: "MUST", citation: "docs/protocol/v2/initialization.mdx:104", statement: "Client and agent treat every capability omitted in initialize as unsupported." },
  "ACP-INIT-307": { tier: "MUST", citation: "docs/protocol/v2/initialization.mdx:248", statement: "Both client and agent provide their implementation information in the info field." },
  "ACP-JSONRPC-302": { tier: "MUST", citation: "schema.json#/$defs/RequestId", statement: "The receiver replies with the same id value it received." },
  "ACP-JSONRPC-305": { tier: "MUST", citation: "docs/protocol/v2/transports.mdx:57", statement: "A batch is an array with at least one value; an empty array gets a single -32600 response with id null, not a response array." },
  "ACP-JSONRPC-306": { tier: "SHOULD", citation: "docs/protocol/v2/transports.mdx:62; docs/protocol/v2/transports.mdx:64", statement: "The receiver answers a batch with one array holding the responses, after all of its requests have been processed; a response exists for each request." },
  "ACP-JSONRPC-307": { tier: "MUST NOT", citation: "docs/protocol/v2/transports.mdx:66", statement: "The receiver never replies to a notification, including a notification within a batch." },
  "ACP-JSONRPC-308": { tier: "MUST NOT", citation: "docs/protocol/v2/transports.mdx:71", statement: "When a batch has no response to send (all notifications), the receiver returns no empty array; it returns nothing." },
  "ACP-JSONRPC-309": { tier: "none", citation: "docs/protocol/v2/transports.mdx:73", statement: "(Declarative.) Invalid entries of a non-empty batch get their own -32600 response with id null, and do not make the whole batch fail." },
  "ACP-PROMPT-301": { tier: "MUST", citation: "docs/protocol/v2/prompt-lifecycle.mdx:109", statement: "The agent answers session/prompt once it has accepted the prompt; completion is reported by state_update notifications, not by the response." },
  "ACP-PROMPT-302": { tier: "MUST", citation: "docs/protocol/v2/prompt-lifecycle.mdx:332", statement: "When the agent is ready for a new prompt it reports idle with a state_update, with the stop reason when the transition ends foreground work." },
  "ACP-PROMPT-303": {
    tier: "MUST",
    citation: "docs/protocol/v2/prompt-lifecycle.mdx:119; schema.json#/$defs/PromptResponse",
    statement: "After accepting a prompt, the agent reports where the user message was inserted: a user_message or user_message_chunk update carrying the messageId of the session/prompt answer.",
  },
  "ACP-SESSION-301": {
    tier: "none",
    citation: "schema.json#/$defs/SessionCapabilities; docs/protocol/v2/initialization.mdx:104",
    statement: "(Declarative.) Supplying capabilities.session {} advertises the baseline session methods (session/new, list, resume, close, prompt, cancel, update); omitted, they are unsupported.",
  },
  "ACP-TRANSPORT-302": { tier: "MUST NOT", citation: "docs/protocol/v2/transports.mdx:25; docs/protocol/v2/transports.mdx:23", statement: "stdio messages (requests, notifications, responses or batch arrays) are delimited by \\n and never contain an embedded newline." },
  "ACP-TRANSPORT-303": { tier: "MUST NOT", citation: "docs/protocol/v2/transports.mdx:27", statement: "The agent writes nothing to its stdout except valid ACP messages." },
};
