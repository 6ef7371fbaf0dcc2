/**
 * `@agentclientprotocol/sdk/experimental/nes` (2.4.0's next-edit-suggestion entry) on acp-router's
 * core: everything `/unstable` exports, with the NES methods (`nes/*`, `document/*`) added to
 * `methods.agent` and `AGENT_METHODS`. acp-router has no NES table (the NES schema is in no schema
 * package the code generator reads), so these methods are custom methods here: an agent handles
 * them with `onRequest(method, parser, handler)` / `onNotification(…)`, and a client calls them with
 * `request` / `notify` (docs/sdk-drop-in.md).
 *
 * @module
 */
import { AGENT_METHODS as UNSTABLE_AGENT_METHODS } from "./constants-v1-unstable.ts";
import { unstableMethods } from "./methods-v1.ts";

export * from "./unstable.ts";

/** The unstable v1 method names, with the NES methods under `methods.agent.nes` and `methods.agent.document`. */
export const methods = {
  ...unstableMethods,
  agent: {
    ...unstableMethods.agent,
    nes: { start: "nes/start", suggest: "nes/suggest", close: "nes/close", accept: "nes/accept", reject: "nes/reject" },
    document: { didOpen: "document/didOpen", didChange: "document/didChange", didClose: "document/didClose", didSave: "document/didSave", didFocus: "document/didFocus" },
  },
} as const;

/** Every method the agent handles, keyed the SDK's way, NES methods included. */
export const AGENT_METHODS = {
  ...UNSTABLE_AGENT_METHODS,
  nes_start: methods.agent.nes.start,
  nes_suggest: methods.agent.nes.suggest,
  nes_close: methods.agent.nes.close,
  nes_accept: methods.agent.nes.accept,
  nes_reject: methods.agent.nes.reject,
  document_did_open: methods.agent.document.didOpen,
  document_did_change: methods.agent.document.didChange,
  document_did_close: methods.agent.document.didClose,
  document_did_save: methods.agent.document.didSave,
  document_did_focus: methods.agent.document.didFocus,
} as const;
