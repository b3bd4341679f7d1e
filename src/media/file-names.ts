// File names and paths Telecode accepts: a sender's name made safe to save, the names tried
// when it is taken (name, name_1, …), the deny globs and the allowed types. Pure.
import picomatch from "picomatch";

/** What `files.deny_globs` holds by default: secrets and repository internals. */
export const DEFAULT_DENY_GLOBS: readonly string[] = Object.freeze([
  ".env*",
  "*.pem",
  "*.key",
  "*.p12",
  "*.pfx",
  "*.kdbx",
  "id_rsa*",
  "id_dsa*",
  "id_ecdsa*",
  "id_ed25519*",
  ".netrc",
  ".npmrc",
  ".pypirc",
  ".git/**",
  ".ssh/**",
  ".aws/**",
  ".gnupg/**",
]);

/** Most file systems take 255 bytes per name. */
const MAX_NAME_BYTES = 255;

/**
 * Characters that could move a name out of its folder or disguise it: path separators (also
 * their look-alikes), NUL and control characters, bidirectional overrides, zero-width marks,
 * and the characters Windows refuses.
 */
const UNSAFE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f/\\<>:"|?*\u2044\u2215\u29f8\uff0f\uff3c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * A name that is safe to create inside a folder: the last path part of `raw` (NFC), unsafe
 * characters replaced by `_`, no leading or trailing spaces, never `.` or `..`, at most 255
 * bytes (the extension kept). `fallback` when nothing usable is left.
 */
export function sanitiseFileName(raw: string, fallback = "file"): string {
  const lastPart = raw.normalize("NFC").split(/[/\\]/).pop() ?? "";
  let name = lastPart.replace(UNSAFE, "_").trim();
  if (/^\.+$/.test(name) || name === "") name = fallback;
  return truncateName(name);
}

/**
 * `name` with `suffix` put before its extension, at most 255 bytes: the stem loses whole
 * characters from its end, and an extension of up to 16 characters is kept.
 */
function truncateName(name: string, suffix = ""): string {
  const { stem, extension } = splitName(name);
  if (Buffer.byteLength(name + suffix) <= MAX_NAME_BYTES) return stem + suffix + extension;
  const keep = extension.length <= 16 ? extension : "";
  return cutToBytes(stem, MAX_NAME_BYTES - Buffer.byteLength(suffix + keep)) + suffix + keep;
}

/** The longest start of `text` that fits in `maxBytes` of UTF-8, never half a character. */
function cutToBytes(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const ch of text) {
    bytes += Buffer.byteLength(ch);
    if (bytes > maxBytes) break;
    end += ch.length;
  }
  return text.slice(0, end);
}

function splitName(name: string): { stem: string; extension: string } {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? { stem: name.slice(0, dot), extension: name.slice(dot) } : { stem: name, extension: "" };
}

/**
 * The n-th name to try for `name`: `report.pdf`, `report_1.pdf`, `report_2.pdf`, … A name
 * already at 255 bytes gives up the end of its stem to the number, so each n names a new file.
 */
export function numberedName(name: string, n: number): string {
  return n === 0 ? name : truncateName(name, `_${n}`);
}

/**
 * A test for paths relative to a root (with `/`): the first glob that matches the path or any
 * trailing part of it (`*.pem` matches `certs/a.pem`, `.git/**` matches `sub/.git/config`),
 * case-insensitively, dot files included. Undefined when none does.
 */
export function denyMatcher(globs: readonly string[]): (relativePath: string) => string | undefined {
  // Compiled at the first path, not here: a session makes its matcher before it spawns the CLI,
  // and compiling the globs (~1 ms) would delay every first turn for a check most never need.
  let tests: { glob: string; test: (path: string) => boolean }[] | undefined;
  return (relativePath) => {
    tests ??= globs.map((glob) => ({ glob, test: picomatch(glob, { dot: true, nocase: true }) }));
    const parts = relativePath.split("/").filter((part) => part !== "" && part !== ".");
    for (let start = 0; start < parts.length; start++) {
      const tail = parts.slice(start).join("/");
      const hit = tests.find((t) => t.test(tail));
      if (hit !== undefined) return hit.glob;
    }
    return undefined;
  };
}

/**
 * Whether a file's type is allowed by `files.allowed_types`: `*` allows all; `image/*` a
 * family of MIME types; `application/pdf` one; `.log` an extension (case-insensitive).
 */
export function isAllowedType(name: string, mimeType: string, allowed: readonly string[]): boolean {
  const type = mimeType.toLowerCase();
  const lowerName = name.toLowerCase();
  return allowed.some((entry) => {
    const rule = entry.toLowerCase();
    if (rule === "*" || rule === "*/*") return true;
    if (rule.startsWith(".")) return lowerName.endsWith(rule) && lowerName.length > rule.length;
    if (rule.endsWith("/*")) return type.startsWith(rule.slice(0, -1));
    return type === rule;
  });
}
