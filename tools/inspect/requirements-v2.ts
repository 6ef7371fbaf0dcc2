/**
 * The v2 conformance-catalogue entries (docs/conformance-catalogue-v2.json)
 * that inspect's v2 rules report, copied as `requirements.ts` copies the v1
 * ones; test/tools/rules.test.ts fails when they drift from the catalogue.
 */
import type { Requirement } from "./requirements.ts";

/** v2 entries by id (ids numbered from 301, so they never collide with v1's). */
export const V2_ENTRIES: Readonly<Record<string, Requirement>> = {
  "ACP-CANCEL-306": { tier: "MUST", citation: "docs/protocol/v2/prompt-lifecycle.mdx:514", statement: "Updates the agent sends after session/cancel come before the idle state_update that reports the cancellation; none follow it." },
  "ACP-INIT-301": { tier: "MUST", citation: "docs/protocol/v2/initialization.mdx:24; docs/protocol/v2/session-setup.mdx:8", statement: "Before a session can be created, the client initializes the connection with initialize." },
  "ACP-INIT-306": { tier: "MUST", citation: "docs/protocol/v2/initialization.mdx:104", statement: "Client and agent treat every capability omitted in initialize as unsupported." },
  "ACP-PROMPT-301": { tier: "MUST", citation: "docs/protocol/v2/prompt-lifecycle.mdx:109", statement: "The agent answers session/prompt once it has accepted the prompt; completion is reported by state_update notifications, not by the response." },
  "ACP-PROMPT-302": { tier: "MUST", citation: "docs/protocol/v2/prompt-lifecycle.mdx:332", statement: "When the agent is ready for a new prompt it reports idle with a state_update, with the stop reason when the transition ends foreground work." },
  "ACP-PROMPT-303": { tier: "MUST", citation: "docs/protocol/v2/prompt-lifecycle.mdx:119; schema.json#/$defs/PromptResponse", statement: "After accepting a prompt, the agent reports where the user message was inserted: a user_message or user_message_chunk update carrying the messageId of the session/prompt answer." },
  "ACP-SESSION-301": { tier: "MUST", citation: "schema.json#/$defs/SessionCapabilities; docs/protocol/v2/initialization.mdx:104", statement: "(Declarative.) Supplying capabilities.session {} advertises the baseline session methods (session/new, list, resume, close, prompt, cancel, update); omitted, they are unsupported." },
};
