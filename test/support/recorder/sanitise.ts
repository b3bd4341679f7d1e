// Makes a raw recording safe to commit and stable to re-record: machine paths become the
// fixed /home/user paths of the shared recordings, and values that change on every run (ids,
// times, pids, the fake API's port) become placeholders. One sanitiser per scenario, fed its
// lines in order, so the same id gets the same placeholder in every file of the scenario.
// What is normalised, and why, is listed in SANITISED_VALUES (written into each README).

/** The machine paths of a recording and the fake API's port ("" for any port on 127.0.0.1). */
export type MachinePlace = { root: string; home: string; project: string; tmp: string; apiPort: string };

export const SANITISED_VALUES = [
  "paths: project → /home/user/project, HOME → /home/user, the project's slug → -home-user-project, the CLI's temp dir → /tmp/claude-XXXX (as in the shared recordings)",
  "uuids (session, message, request, hook and prompt ids) → 00000000-0000-4000-8000-00000000000N, numbered in order of first appearance, so the same id stays the same across lines and runs",
  "task and agent ids → the same length, first letter kept, the rest a counter (a0000000000000001); cron job ids → 00000001",
  "file names the CLI makes up: plan files → plan-N.md, persisted tool output → output-N.txt, the backup of a settings file that is not JSON → .claude.json.corrupted.1767225600000",
  "timestamps → 2026-01-01T00:00:00.000Z; duration_ms, duration_api_ms, ttft_ms, retry_delay_ms → 0; nextFireAt, scheduledFor, scheduled_for → 1767225600000; the clock times the CLI writes in cron and wake-up results (Next run: …, scheduled for HH:MM:SS (in Ns)) → fixed values",
  "the CLI's pid (initialize answer, messaging socket) → 10000; the fake API's port → PORT",
  "not normalised: the ms of transcript entries and meta durations (diagnostic only: no golden reads them), token counts and costs (fixed by the scripted replies)",
];

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g;
const PLAN_FILE = /(\/\.claude\/plans\/)([A-Za-z0-9_-]+)\.md/g;
const TOOL_RESULT_FILE = /(\/tool-results\/)([A-Za-z0-9_-]+)\.txt/g;
const ZEROED = /"(duration_ms|duration_api_ms|ttft_ms|retry_delay_ms)":\d+(?:\.\d+)?/g;
const EPOCHS = /"(nextFireAt|scheduledFor|scheduled_for)":\d+/g;
/** The backup the CLI makes of a settings file that is not JSON, named by the epoch ms. */
const CORRUPTED_BACKUP = /(\.corrupted\.)\d{13}\b/g;
const ID_KEYS = new Set(["task_id", "agent_id", "agentId", "taskId"]);
const FIXED_EPOCH_MS = 1767225600000;

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Strings under keys that name CLI-made ids, and a cron job's id, anywhere in a parsed line. */
function collectIds(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) collectIds(item, into);
  else if (typeof value === "object" && value !== null) {
    const object = value as Record<string, unknown>;
    for (const [key, inner] of Object.entries(object)) {
      if (ID_KEYS.has(key) && typeof inner === "string" && inner.length >= 6) into.add(inner);
      else collectIds(inner, into);
    }
    if (typeof object["humanSchedule"] === "string" && typeof object["id"] === "string") into.add(object["id"]);
  }
}

export class Sanitiser {
  readonly #paths: [RegExp, string][];
  readonly #uuids = new Map<string, string>();
  readonly #ids = new Map<string, string>();
  readonly #files = new Map<string, string>();
  readonly #keep: ReadonlySet<string>;

  constructor(place: MachinePlace, keep: readonly string[] = []) {
    const slug = (path: string): string => path.replace(/[^A-Za-z0-9]/g, "-");
    // Longest first: the project and the temp dir live inside the workspace root.
    this.#paths = [
      [new RegExp(`${escape(place.tmp)}/claude-\\d+`, "g"), "/tmp/claude-XXXX"],
      [new RegExp(escape(slug(place.project)), "g"), "-home-user-project"],
      [new RegExp(escape(place.project), "g"), "/home/user/project"],
      [new RegExp(escape(place.home), "g"), "/home/user"],
      [new RegExp(escape(place.tmp), "g"), "/tmp"],
      [new RegExp(escape(place.root), "g"), "/tmp/workspace"],
      [new RegExp(`127\\.0\\.0\\.1:${place.apiPort === "" ? "\\d+" : place.apiPort}\\b`, "g"), "127.0.0.1:PORT"],
      [/"pid":\d+/g, '"pid":10000'],
      [/(\/tmp\/claude-XXXX\/)\d+\.sock/g, "$110000.sock"],
      // 2.1.321 and later keep the messaging socket in a folder of its own: /tmp/cc-socks/PID.sock.
      [/(\/tmp\/cc-socks\/)\d+\.sock/g, "$110000.sock"],
    ];
    this.#keep = new Set(keep);
  }

  /** Learns the CLI-made ids a stdout line carries (call for every line, in order, before `clean`). */
  learn(line: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return;
    }
    const found = new Set<string>();
    collectIds(parsed, found);
    for (const id of found) {
      if (this.#ids.has(id)) continue;
      const counter = String(this.#ids.size + 1);
      // A cron job id is 8 random hex digits; task and agent ids start with a letter naming their kind.
      const keep = /^[0-9a-f]{8}$/.test(id) ? "" : id.slice(0, 1);
      this.#ids.set(id, `${keep}${counter.padStart(Math.max(id.length - keep.length, counter.length), "0")}`);
    }
  }

  /** A generated file name → "KIND-N", numbered in order of first appearance. */
  #fileName(kind: string, name: string): string {
    let placeholder = this.#files.get(name);
    if (placeholder === undefined) this.#files.set(name, (placeholder = `${kind}-${this.#files.size + 1}`));
    return placeholder;
  }

  /** The line with every machine path and volatile value replaced. */
  clean(line: string): string {
    let text = line;
    for (const [pattern, replacement] of this.#paths) text = text.replace(pattern, replacement);
    text = text.replace(UUID, (uuid) => {
      if (this.#keep.has(uuid)) return uuid;
      let placeholder = this.#uuids.get(uuid.toLowerCase());
      if (placeholder === undefined) {
        placeholder = `00000000-0000-4000-8000-${String(this.#uuids.size + 1).padStart(12, "0")}`;
        this.#uuids.set(uuid.toLowerCase(), placeholder);
      }
      return placeholder;
    });
    for (const [id, placeholder] of this.#ids) if (text.includes(id)) text = text.split(id).join(placeholder);
    text = text
      .replace(PLAN_FILE, (_match, dir: string, name: string) => `${dir}${this.#fileName("plan", name)}.md`)
      .replace(TOOL_RESULT_FILE, (_match, dir: string, name: string) => `${dir}${this.#fileName("output", name)}.txt`);
    return text
      .replace(ISO_TIME, "2026-01-01T00:00:00.000Z")
      .replace(ZEROED, '"$1":0')
      .replace(EPOCHS, `"$1":${FIXED_EPOCH_MS}`)
      .replace(CORRUPTED_BACKUP, `$1${FIXED_EPOCH_MS}`)
      .replace(/Next run: [A-Z][a-z]{2} \d{1,2} \d{1,2}:\d{2}(?:am|pm)/g, "Next run: Jan 1 12:00am")
      .replace(/scheduled for \d{2}:\d{2}:\d{2} \(in \d+s\)/g, "scheduled for 00:00:00 (in 60s)");
  }
}
