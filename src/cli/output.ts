/** How operator commands print: a table for people, JSON for scripts, a clear message for mistakes. */
import { OperatorError } from "../domain/errors.js";

/** A plain text table; every command also has --json. */
export function table(headings: string[], rows: string[][]): string {
  const widths = headings.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ").trimEnd();
  return `${[line(headings), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n")}\n`;
}

export function print(json: boolean | undefined, value: unknown, forPeople: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : forPeople());
}

export function required(value: string | undefined, what: string): string {
  if (value === undefined || value === "") throw new OperatorError(`${what} is required`);
  return value;
}

/** The message for an operator's mistake (exit 2), or undefined for a failure of the bank itself. */
export function operatorMistake(error: unknown): string | undefined {
  if (error instanceof OperatorError) return error.message;
  if (error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS")) {
    return error.message;
  }
  return undefined;
}
