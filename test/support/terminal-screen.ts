// What a person sees: replays a program's terminal output (text, CR/LF, the few cursor and
// erase sequences Telecode and readline use) onto a grid of lines, so tests read the final
// screen instead of the byte stream. Unknown escape sequences are dropped. Test-only.

// eslint-disable-next-line no-control-regex -- matching escape sequences is the point
const ESCAPE = /^\x1b\[(\d*)(?:;(\d*))?([A-Za-z])/;

/** The lines left on screen after `output` (trailing spaces and empty last lines trimmed). */
export function screenOf(output: string): string[] {
  const lines: string[][] = [[]];
  let row = 0;
  let col = 0;
  const line = (): string[] => (lines[row] ??= []);
  for (let i = 0; i < output.length;) {
    const ch = output[i] ?? "";
    if (ch === "\x1b") {
      const match = ESCAPE.exec(output.slice(i));
      if (!match) {
        i += 1;
        continue;
      }
      const n = match[1] === "" || match[1] === undefined ? undefined : Number(match[1]);
      switch (match[3]) {
        case "A":
          row = Math.max(0, row - (n ?? 1));
          break;
        case "B":
          row += n ?? 1;
          break;
        case "C":
          col += n ?? 1;
          break;
        case "D":
          col = Math.max(0, col - (n ?? 1));
          break;
        case "G":
          col = (n ?? 1) - 1;
          break;
        case "K":
          if ((n ?? 0) === 2) lines[row] = [];
          else line().length = Math.min(line().length, col);
          break;
        case "J":
          line().length = Math.min(line().length, col);
          lines.length = row + 1;
          break;
        default:
          break;
      }
      i += match[0].length;
      continue;
    }
    const code = ch.codePointAt(0) ?? 0;
    const char = String.fromCodePoint(code);
    i += char.length;
    if (char === "\r") col = 0;
    else if (char === "\n") row += 1;
    else if (char === "\b") col = Math.max(0, col - 1);
    else if (code >= 0x20) {
      const cells = line();
      while (cells.length < col) cells.push(" ");
      cells[col] = char;
      col += 1;
    }
  }
  const text = Array.from({ length: lines.length }, (_, r) => (lines[r] ?? []).join("").trimEnd());
  while (text.length > 0 && text[text.length - 1] === "") text.pop();
  return text;
}
