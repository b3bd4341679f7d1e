// How a key is named in messages: "claude.extra_args", "projects.\"my.app\".path", "x[0]".
// Pure string formatting.

/** A key path as a person writes it in TOML; segments that are not bare keys are quoted. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else {
      const name = String(segment);
      const safe = /^[A-Za-z0-9_-]+$/.test(name) ? name : JSON.stringify(name);
      out += out === "" ? safe : `.${safe}`;
    }
  }
  return out;
}
