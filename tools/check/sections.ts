/**
 * The parts of a `check` report that are not spec rows: findings a user
 * should see that no requirement decides, each section with its own title,
 * a paragraph saying what it holds and why it is not a verdict, and its
 * findings. They never count in the totals, in "MUST failed" or in the exit
 * status. The first is the interoperability section (request ids beyond
 * ±(2^53−1), probes-ids.ts); a section on how the agent ends (exit time after
 * stdin closes, processes left behind) is the next one planned. A renderer
 * (text, JSON, JUnit, the real-agents and real-clients pages) shows every
 * section it is given in order, so a new section needs no renderer change.
 */

/** One finding of a section: what was tried, what came back, and the lines that show it. */
export interface Finding {
  /** A stable key within the section (`id 9007199254740993`). */
  readonly id: string;
  /** The finding in a few words (`answered with id 9007199254740992`). */
  readonly outcome: string;
  /** The lines sent and received, quoted (long lines cut at 2 KB with a pointer to the record). */
  readonly evidence: string;
}

/** A section of a report apart from the spec rows. */
export interface ReportSection {
  /** A stable key (`interoperability`), for tools reading the JSON. */
  readonly id: string;
  readonly title: string;
  /** What the section holds and why its findings are not verdicts, with the sources it relies on. */
  readonly about: string;
  readonly findings: readonly Finding[];
}

/** The text form of the sections, for `check`'s plain output: a title line, the paragraph, one line per finding. */
export function renderSectionsText(sections: readonly ReportSection[]): string[] {
  const out: string[] = [];
  for (const s of sections) {
    out.push("", `${s.title}:`, `  ${s.about}`);
    for (const f of s.findings) out.push(`  - ${f.id}: ${f.outcome}. ${f.evidence}`);
  }
  return out;
}

/** The markdown form of the sections, for the real-agents and real-clients pages: a bold title, the paragraph, a list of findings. */
export function renderSectionsMarkdown(sections: readonly ReportSection[], cell: (s: string) => string): string[] {
  const out: string[] = [];
  for (const s of sections) {
    if (s.findings.length === 0) continue;
    out.push(`${s.title} (not counted in the totals or the exit status):`, "", cell(s.about), "");
    for (const f of s.findings) out.push(`- **${cell(f.id)}**: ${cell(f.outcome)}. ${cell(f.evidence)}`);
    out.push("");
  }
  return out;
}
