import { it } from "vitest";
import { TABLE, probedRows, neverWhy, CATALOGUE } from "./check-rows/table.ts";
it("try", () => {
  const { agent, client } = probedRows();
  for (const [side, set] of [["agent", agent], ["client", client]] as const) {
    const missing = [...set].filter((id) => !TABLE.some((r) => r.id === id && r.side === side) && neverWhy(id, side) === undefined);
    console.log(side, missing.length, missing.map((id) => `${id}(${CATALOGUE.get(id)?.tier})`).join(" "));
  }
  const nofault = TABLE.filter((r) => r.fail.fault === "" || r.pass === "");
  console.log("incomplete", nofault.map((r) => `${r.side}:${r.id}:${r.pass === "" ? "nopass" : "nofault"}`).join(" "));
});
