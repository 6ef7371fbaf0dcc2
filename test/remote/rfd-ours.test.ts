// The RFD's status-code and header table (rfd-table.ts), every row asserted against our server.
import { describe, expect, it } from "vitest";
import { rfdRows } from "./rfd-table.ts";
import { startServer } from "./support.ts";

describe("our server follows the RFD's routing table", () => {
  it.each(rfdRows.map((row) => [row.rule, row] as const))("%s", async (_rule, row) => {
    const { url } = await startServer();
    expect(await row.probe(url)).toEqual(row.expected);
  });
});
