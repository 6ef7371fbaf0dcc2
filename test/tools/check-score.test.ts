// The scorecard's merge rules: evidence of a violation is never outranked by another probe's pass, and a row
// whose cited text has no normative keyword (tier "none") or only grants a permission (MAY) is never failed.
import { describe, expect, it } from "vitest";
import type { Checklist } from "../../tools/check/checklist.ts";
import { createScorecard, fail, na, NO_KEYWORD, pass } from "../../tools/check/score.ts";

const checklist: Checklist = {
  version: 1,
  catalogue: "test",
  entries: [
    { id: "R-MUST", tier: "MUST", statement: "A response repeats the request's id exactly.", side: "both" },
    { id: "R-NONE", tier: "none", statement: "(No keyword; lifecycle diagram.) The agent exits.", side: "agent" },
    { id: "R-MAY", tier: "MAY", statement: "May do it.", side: "agent" },
  ],
  tier: (id) => ({ "R-MUST": "MUST", "R-NONE": "none", "R-MAY": "MAY" })[id] ?? "?",
};
const outcome = (card: ReturnType<typeof createScorecard>, id: string) => card.rows("unprobed").find((r) => r.id === id);

describe("check's scorecard", () => {
  it.each([
    ["a fail, then another probe's pass", [fail("2^53+1 answered 2^53"), pass]],
    ["a pass, then another probe's fail", [pass, fail("2^53+1 answered 2^53")]],
    ["an n/a, a fail, then a pass", [na("refused"), fail("2^53+1 answered 2^53"), pass]],
  ] as const)("keeps the fail of a MUST row after %s", (_name, verdicts) => {
    const card = createScorecard(checklist);
    for (const v of verdicts) card.score("R-MUST", v);
    expect(outcome(card, "R-MUST")).toEqual({ id: "R-MUST", tier: "MUST", outcome: "fail", evidence: "2^53+1 answered 2^53" });
  });

  it("turns a fail of a row without a normative keyword into an n/a carrying the note, and lists the note", () => {
    const card = createScorecard(checklist);
    card.score("R-NONE", fail("did not exit within 5 s"));
    expect(outcome(card, "R-NONE")).toEqual({ id: "R-NONE", tier: "none", outcome: "n/a", evidence: `${NO_KEYWORD}; noted: did not exit within 5 s` });
    expect(card.notes).toEqual(["R-NONE (no normative keyword) noted: did not exit within 5 s"]);
  });

  it("keeps showing what broke a row of tier none when another probe later passes it", () => {
    const card = createScorecard(checklist);
    card.score("R-NONE", pass);
    card.score("R-NONE", fail("answered twice"));
    card.score("R-NONE", pass);
    expect(outcome(card, "R-NONE")).toEqual({ id: "R-NONE", tier: "none", outcome: "n/a", evidence: `${NO_KEYWORD}; noted: answered twice` });
  });

  it("never fails a MAY row: the would-be evidence is a note", () => {
    const card = createScorecard(checklist);
    card.score("R-MAY", fail("did it"));
    expect(outcome(card, "R-MAY")?.outcome).toBe("not run");
    expect(card.notes).toEqual(["R-MAY (MAY) cannot be violated; noted: did it"]);
  });
});
