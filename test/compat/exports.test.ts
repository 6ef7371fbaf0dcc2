// Every name SDK 2.4.0 exports from each entry, types and runtime values alike, is exported by the
// drop-in's same entry: types read with the TypeScript checker from both packages' declarations and
// sources (export-names.ts), values by importing both modules. The one gap, the NES schema's types
// and zod schemas of `./experimental/nes`, is listed exactly (docs/sdk-drop-in.md says why), so the
// test fails when another name goes missing and when that gap closes.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { entries } from "../../compat/sdk/dev/entries.mjs";
import { exportedNames } from "./export-names.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const sdkDir = join(root, "node_modules/acp-sdk-2.4.0");
const sdkExports = (JSON.parse(readFileSync(join(sdkDir, "package.json"), "utf8")) as { exports: Record<string, string | { types: string; import: string }> }).exports;

/** Each SDK entry with a module: its subpath, its declaration file and module file, and the drop-in's source file. */
const pairs = Object.entries(sdkExports).flatMap(([subpath, target]) => {
  if (typeof target === "string") return [];
  const specifier = subpath === "." ? "@agentclientprotocol/sdk" : `@agentclientprotocol/sdk/${subpath.slice(2)}`;
  const source = (entries as Record<string, string | undefined>)[specifier];
  return [{ subpath, types: join(sdkDir, target.types), module: join(sdkDir, target.import), ours: source === undefined ? undefined : join(root, "compat/sdk/src", source) }];
});

/** The NES schema's types and zod schemas: acp-router has no NES schema to generate them from (docs/sdk-drop-in.md). */
const NES_SCHEMA_NAMES = [
  "AcceptNesNotification",
  "ClientNesCapabilities",
  "CloseNesRequest",
  "CloseNesResponse",
  "DidChangeDocumentNotification",
  "DidCloseDocumentNotification",
  "DidFocusDocumentNotification",
  "DidOpenDocumentNotification",
  "DidSaveDocumentNotification",
  "NesCapabilities",
  "NesContextCapabilities",
  "NesDiagnostic",
  "NesDiagnosticSeverity",
  "NesDiagnosticsCapabilities",
  "NesDocumentDidChangeCapabilities",
  "NesDocumentDidCloseCapabilities",
  "NesDocumentDidFocusCapabilities",
  "NesDocumentDidOpenCapabilities",
  "NesDocumentDidSaveCapabilities",
  "NesDocumentEventCapabilities",
  "NesEditHistoryCapabilities",
  "NesEditHistoryEntry",
  "NesEditSuggestion",
  "NesEventCapabilities",
  "NesExcerpt",
  "NesJumpCapabilities",
  "NesJumpSuggestion",
  "NesOpenFile",
  "NesOpenFilesCapabilities",
  "NesRecentFile",
  "NesRecentFilesCapabilities",
  "NesRejectReason",
  "NesRelatedSnippet",
  "NesRelatedSnippetsCapabilities",
  "NesRenameCapabilities",
  "NesRenameSuggestion",
  "NesRepository",
  "NesSearchAndReplaceCapabilities",
  "NesSearchAndReplaceSuggestion",
  "NesSuggestContext",
  "NesSuggestion",
  "NesSuggestionId",
  "NesTextEdit",
  "NesTriggerKind",
  "NesUserAction",
  "NesUserActionsCapabilities",
  "Position",
  "PositionEncodingKind",
  "Range",
  "RejectNesNotification",
  "StartNesRequest",
  "StartNesResponse",
  "SuggestNesRequest",
  "SuggestNesResponse",
  "TextDocumentContentChangeEvent",
  "TextDocumentSyncKind",
  "WorkspaceFolder",
  "validate",
  "zAgentCapabilities",
  "zClientCapabilities",
  "zInitializeRequest",
  "zInitializeResponse",
].sort();

const gapOf = (subpath: string): string[] => (subpath === "./experimental/nes" ? NES_SCHEMA_NAMES : []);

describe("the drop-in's exports, entry by entry, against SDK 2.4.0's", () => {
  it("has a source for every SDK entry", () => {
    expect(pairs.filter((p) => p.ours === undefined).map((p) => p.subpath)).toEqual([]);
  });

  it("exports every name (type or value) each SDK entry declares", () => {
    const names = exportedNames(pairs.flatMap((p) => [p.types, ...(p.ours === undefined ? [] : [p.ours])]));
    for (const p of pairs) {
      const ours = new Set(p.ours === undefined ? [] : names.get(p.ours));
      const missing = (names.get(p.types) ?? []).filter((name) => !ours.has(name));
      expect({ entry: p.subpath, missing }).toEqual({ entry: p.subpath, missing: gapOf(p.subpath) });
    }
  }, 120_000);

  it("exports at run time every value each SDK entry exports", async () => {
    for (const p of pairs) {
      const theirs = Object.keys(await import(p.module)).sort();
      const ours = new Set(p.ours === undefined ? [] : Object.keys(await import(p.ours)));
      const missing = theirs.filter((name) => !ours.has(name));
      expect({ entry: p.subpath, missing }).toEqual({ entry: p.subpath, missing: gapOf(p.subpath).filter((name) => theirs.includes(name)) });
    }
  }, 120_000);
});
