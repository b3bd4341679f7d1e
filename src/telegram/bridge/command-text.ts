// Reading what a person typed: bot commands ("/cmd@bot args"), a leading line of one-message
// directives ("/app /plan fix the bug"), near-misses (".new", "/neww") that deserve a hint
// instead of a costly run, and @mentions of the bot. Pure text; no Telegram calls.
import { editDistance, type PermissionMode } from "../../domain/index.js";

/** Whether `text` @mentions `username` (Telegram marks each @mention with an entity). */
export function mentions(
  text: string,
  entities: readonly { type: string; offset: number; length: number }[] | undefined,
  username: string,
): boolean {
  const name = username.toLowerCase();
  return (entities ?? []).some(
    (e) => e.type === "mention" && text.slice(e.offset + 1, e.offset + e.length).toLowerCase() === name,
  );
}

/** "/cmd@bot rest": the command word (lower case), the text after it, and whether it names another bot. */
export type SlashWord = { name: string; args: string; forOtherBot: boolean };

export function readSlashWord(text: string, botUsername: string): SlashWord | undefined {
  const match = /^\/([A-Za-z0-9_.-]{1,64})(?:@([A-Za-z0-9_]{3,64}))?(?=\s|$)/.exec(text.trimStart());
  if (match === null) return undefined;
  const rest = text
    .trimStart()
    .slice(match[0].length)
    .replace(/^[ \t]*\n?/, "")
    .trim();
  const target = match[2];
  return {
    name: match[1]!.toLowerCase(),
    args: rest,
    forOtherBot: target !== undefined && target.toLowerCase() !== botUsername.toLowerCase(),
  };
}

const MODE_WORDS: Readonly<Record<string, PermissionMode>> = {
  default: "default",
  acceptedits: "acceptEdits",
  accept_edits: "acceptEdits",
  plan: "plan",
  "plan-auto": "plan-auto",
  plan_auto: "plan-auto",
  planauto: "plan-auto",
  auto: "auto",
  dontask: "dontAsk",
  dont_ask: "dontAsk",
};

/** A mode as a person may type it ("acceptedits", "plan_auto"); bypassPermissions is never typed in. */
export function modeFromWord(word: string): PermissionMode | undefined {
  return MODE_WORDS[word.toLowerCase()];
}

export type Directives = { project?: string; mode?: PermissionMode; prompt: string };

/**
 * Reads a leading run of `/project` and `/mode` words on the first line. Undefined when the
 * first word is neither (it is then a command or an unknown word).
 */
export function readDirectives(
  text: string,
  projectNames: readonly string[],
  botUsername: string,
): Directives | undefined {
  const [firstLine = "", ...otherLines] = text.trimStart().split("\n");
  const words = firstLine.trim().split(/\s+/);
  const found: Directives = { prompt: "" };
  let used = 0;
  for (const word of words) {
    const slash = readSlashWord(word, botUsername);
    if (slash === undefined || slash.forOtherBot) break;
    const project = projectNames.find((name) => name.toLowerCase() === slash.name);
    const mode = modeFromWord(slash.name);
    if (project !== undefined && found.project === undefined) found.project = project;
    else if (mode !== undefined && found.mode === undefined) found.mode = mode;
    else break;
    used++;
  }
  if (used === 0) return undefined;
  found.prompt = [words.slice(used).join(" "), ...otherLines].join("\n").trim();
  return found;
}

/** The command (of `names`) a near-miss most likely meant: ".new" → "new", "/neww" → "new". */
export function nearestCommand(word: string, names: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const command of names) {
    const distance = editDistance(lower, command);
    const allowed = command.length <= 4 ? 1 : 2;
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { name: command, distance };
  }
  return best?.name;
}

/** ".new" or ".cancel now": a command (of `names`) typed with a dot, answered with a hint rather than run as a task. */
export function dotCommandOf(text: string, names: readonly string[]): string | undefined {
  const trimmed = text.trim();
  const match = /^\.([A-Za-z]{2,16})(?:\s|$)/.exec(trimmed);
  if (match === null || trimmed.split(/\s+/).length > 3) return undefined;
  return nearestCommand(match[1]!, names);
}
