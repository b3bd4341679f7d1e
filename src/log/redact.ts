// Removes secrets from text that leaves the process (log lines, error messages shown to a
// person): the secrets we know by value, plus anything shaped like a bot token or API key.

const BOT_TOKEN = /(?<![0-9])([0-9]{3,}):[A-Za-z0-9_-]{30,}/g;
const ANTHROPIC_KEY = /sk-ant-[A-Za-z0-9_-]{8,}/g;

/** Secrets shorter than this are not replaced by value: they would redact ordinary words. */
const MIN_SECRET_LENGTH = 8;

function replaceAll(text: string, needle: string, replacement: string): string {
  return needle === "" ? text : text.split(needle).join(replacement);
}

/**
 * Returns `text` with every known secret (also in its JSON-escaped spelling, so JSON lines are
 * covered) and every bot-token- or Anthropic-key-shaped string replaced by a marker.
 * A bot token keeps its numeric bot id, which is public and helps to tell bots apart.
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    out = replaceAll(out, secret, "[redacted]");
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (escaped !== secret) out = replaceAll(out, escaped, "[redacted]");
  }
  return out.replace(BOT_TOKEN, "$1:[redacted]").replace(ANTHROPIC_KEY, "sk-ant-[redacted]");
}
