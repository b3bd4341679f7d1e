// The typed error the store throws for failures nobody expects in normal use: a database
// from a newer Telecode, a row that does not read back as what was written, a failed open,
// a data directory another Telecode holds.
import { TypedError } from "../domain/index.js";

export type StoreErrorCode =
  | "store.open_failed"
  | "store.locked"
  | "store.too_new"
  | "store.corrupt_row"
  | "store.not_found"
  | "store.invalid_input";

export class StoreError extends TypedError<StoreErrorCode> {
  override readonly name = "StoreError";
}
