/**
 * Root fields that a published ACP schema defined and a later one withdrew.
 * A field on this list is not a custom field: an agent pinned to an SDK
 * whose schema had it sends it as protocol data, so `check` reports it as a
 * note naming the schema that had it, never as a violation of
 * ACP-SCHEMA-002 ("no custom fields at the root of a spec-defined type").
 *
 * How the list was made: every minor version of `@agentclientprotocol/sdk`
 * on npm (0.4.5 … 2.4.0, the newest patch of each; `npm pack`), each
 * `schema/**.json` it ships, the properties of the types check compares
 * (InitializeResponse, NewSessionResponse, LoadSessionResponse,
 * PromptResponse, SessionNotification) against the v1 stable and unstable
 * schemas of the pinned SDK 2.4.0. Before 1.3.0 the package shipped one
 * `schema/schema.json`, with the unstable methods in it.
 */

/** One withdrawn field: the type, the field, the schemas that defined it, the release that dropped it. */
export interface WithdrawnField {
  readonly type: string;
  readonly field: string;
  readonly definedIn: string;
  readonly withdrawnIn: string;
}

export const WITHDRAWN_FIELDS: readonly WithdrawnField[] = [
  { type: "NewSessionResponse", field: "models", definedIn: "@agentclientprotocol/sdk 0.4.5–0.23.0, schema/schema.json (the unstable session model selection)", withdrawnIn: "0.24.0 (2026-06-04)" },
  { type: "LoadSessionResponse", field: "models", definedIn: "@agentclientprotocol/sdk 0.4.5–0.23.0, schema/schema.json (the unstable session model selection)", withdrawnIn: "0.24.0 (2026-06-04)" },
  { type: "PromptResponse", field: "userMessageId", definedIn: "@agentclientprotocol/sdk 0.15.0–0.24.0, schema/schema.json (unstable message ids)", withdrawnIn: "absent from 0.25.1 on" },
];

/** The withdrawn field `field` of `type`, if a published schema had it. */
export const withdrawn = (type: string, field: string): WithdrawnField | undefined => WITHDRAWN_FIELDS.find((w) => w.type === type && w.field === field);
