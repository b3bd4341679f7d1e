// The models the CLI offers, from its initialize reply (`models`: the names `--model` and
// set_model take, such as "opus", and what each resolves to). Never throws on odd shapes.

export type OfferedModel = Readonly<{
  /** The name to pass: "default", "opus", "sonnet", … */
  name: string;
  /** The model it stands for now ("claude-opus-5-5"), when the CLI says. */
  resolvesTo?: string;
  /** The CLI's one-line description ("Opus 5.5 · Best for everyday, complex tasks · …"). */
  description?: string;
}>;

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** The models an initialize reply lists (empty when it lists none). */
export function offeredModels(reply: Readonly<Record<string, unknown>>): readonly OfferedModel[] {
  const models = reply["models"];
  if (!Array.isArray(models)) return [];
  return models.flatMap((entry: unknown): OfferedModel[] => {
    if (typeof entry !== "object" || entry === null) return [];
    const fields = entry as Record<string, unknown>;
    const name = text(fields["value"]);
    if (name === undefined) return [];
    const resolvesTo = text(fields["resolvedModel"]);
    const description = text(fields["description"]);
    return [
      {
        name,
        ...(resolvesTo === undefined ? {} : { resolvesTo }),
        ...(description === undefined ? {} : { description }),
      },
    ];
  });
}
