/**
 * How operator commands print: a table for people, JSON for scripts, a clear message for mistakes.
 */
import { OperatorError } from "../domain/kernel/errors.js";

/** A plain text table; every command also has --json. */
export function table(headings: string[], rows: string[][]): string {
  const widths = headings.map((h, i) =>
    Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ").trimEnd();
  const ruler = line(widths.map((w) => "-".repeat(w)));
  return `${[line(headings), ruler, ...rows.map(line)].join("\n")}\n`;
}

export function print(json: boolean | undefined, value: unknown, forPeople: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : forPeople());
}

export function required(value: string | undefined, what: string): string {
  if (value === undefined || value === "") throw new OperatorError(`${what} is required`);
  return value;
}

/** The message for an operator's mistake (exit 2), or undefined for a failure of the bank. */
export function operatorMistake(error: unknown): string | undefined {
  return error instanceof OperatorError ? error.message : undefined;
}

const MEANING_COLUMN = 45;

/**
 * One entry of a usage text: the command, then its meaning at column 45 (on the next lines when the
 * command reaches that column); each further meaning line starts at the same column.
 */
export function usageEntry(command: string, ...meaning: string[]): string {
  const indent = " ".repeat(MEANING_COLUMN);
  const head = `  ${command}`;
  const [first, ...more] = meaning;
  const lines = first !== undefined && head.length + 2 <= MEANING_COLUMN
    ? [head.padEnd(MEANING_COLUMN) + first, ...more.map((m) => indent + m)]
    : [head, ...meaning.map((m) => indent + m)];
  return lines.join("\n");
}
