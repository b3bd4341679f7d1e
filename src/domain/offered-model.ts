// A model the CLI offers (its initialize reply lists them) and which one a name means: what
// /model, its buttons and the cost caps all look up. Pure.
import { pricesInDescription, type OfferedPrices } from "./cost-estimate.js";

export type OfferedModel = Readonly<{
  /** The name to pass: "default", "opus", "sonnet", … */
  name: string;
  /** The model it stands for now ("claude-opus-5-5"), when the CLI says. */
  resolvesTo?: string;
  /** The CLI's one-line description ("Opus 5.5 · Best for everyday, complex tasks · $4/$20 per Mtok"). */
  description?: string;
}>;

/** The name the CLI calls "default": it stands for whatever the CLI's default is now. */
export const DEFAULT_MODEL_NAME = "default";

/**
 * The offered model `name` means (any case): the one of that name, else one that resolves to
 * it, "default" last (it may stand for any model).
 */
export function offeredModel(models: readonly OfferedModel[], name: string): OfferedModel | undefined {
  const wanted = name.toLowerCase();
  const resolves = (m: OfferedModel): boolean => m.resolvesTo?.toLowerCase() === wanted;
  return (
    models.find((m) => m.name.toLowerCase() === wanted) ??
    models.find((m) => m.name !== DEFAULT_MODEL_NAME && resolves(m)) ??
    models.find(resolves)
  );
}

/**
 * A model's prices as the running CLI states them in its list of models ("… · $4/$20 per
 * Mtok"); `offers` is that list, undefined before a CLI has given one.
 */
export function pricesOfOffers(offers: () => readonly OfferedModel[] | undefined): OfferedPrices {
  return (model) => {
    const offered = offeredModel(offers() ?? [], model);
    return offered?.description === undefined ? undefined : pricesInDescription(offered.description);
  };
}
