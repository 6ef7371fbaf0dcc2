// DESIGN §10: the runtime never imports a table. Reads every import of the runtime folders
// (src/connection, src/transport, src/remote, src/versions, src/extensions) and of the shared
// runtime modules, and asserts none reaches a generated folder.
import { describe, expect, it } from "vitest";
import { filesIn, importsOf } from "../support/imports.ts";

const RUNTIME_FOLDERS = ["src/connection", "src/transport", "src/remote", "src/versions", "src/extensions", "src/validation", "src/jsonrpc"];
const RUNTIME_FILES = ["src/protocol.ts", "src/bind.ts", "src/decode.ts", "src/row.ts", "src/context.ts", "src/runtime.ts", "src/peer-caller.ts", "src/errors.ts"];

const isTable = (target: string) => /(^|\/)generated(\/|$)/.test(target) || /^src\/(v2|unstable)\/index\.ts$/.test(target) || target === "src/index.ts";

describe("the runtime's module graph", () => {
  const files = [...RUNTIME_FOLDERS.flatMap(filesIn), ...RUNTIME_FILES];

  it("reads the imports of every runtime file", () => {
    expect(files.length).toBeGreaterThan(60);
    expect(importsOf("src/connection/pipeline.ts")).toContain("src/connection/lanes.ts");
    // The check itself sees a table import where there is one.
    expect(importsOf("src/serve-stdio-v1.ts").some(isTable)).toBe(true);
  });

  it("has no file that imports a generated folder or an entry that loads one", () => {
    const offending = files.flatMap((file) => importsOf(file).filter(isTable).map((target) => `${file} → ${target}`));
    expect(offending).toEqual([]);
  });
});
