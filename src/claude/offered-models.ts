// The models the CLI offers, from its initialize reply (`models`: the names `--model` and
// set_model take, such as "opus", and what each resolves to). Never throws on odd shapes.
import type { OfferedModel } from "../domain/index.js";

export type { OfferedModel };

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
