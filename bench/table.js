// Prints rows as a Markdown table (so numbers can be pasted into the README as they are).
import process from "node:process";

/** rows: objects with the same keys; the first row's keys are the columns. */
export function printTable(rows) {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]);
  const cells = rows.map((row) => columns.map((column) => String(row[column] ?? "")));
  const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((row) => row[i].length)));
  const line = (values) => `| ${values.map((value, i) => value.padEnd(widths[i])).join(" | ")} |`;
  process.stdout.write(
    `${line(columns)}\n|${widths.map((w) => "-".repeat(w + 2)).join("|")}|\n${cells.map(line).join("\n")}\n`,
  );
}
