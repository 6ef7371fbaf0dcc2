/**
 * Splits a command line such as `npx tsx "my agent.ts" --flag` into words,
 * the way a POSIX shell would for the simple cases: whitespace separates
 * words, 'single' and "double" quotes group, a backslash escapes the next
 * character (outside single quotes). No variables, globs or pipes.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] as string;
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      else word += ch;
    } else if (ch === "\\" && i + 1 < line.length && (quote === undefined || /["\\$`]/.test(line[i + 1] as string))) {
      word += line[++i];
      inWord = true;
    } else if (quote === '"') {
      if (ch === '"') quote = undefined;
      else word += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote !== undefined) throw new Error(`unterminated ${quote} quote in: ${line}`);
  if (inWord) words.push(word);
  return words;
}
