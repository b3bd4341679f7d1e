// The webhook delivery ids in a real SQLite file: kept across a reopen, newest first, bounded
// per webhook, and a delivery recorded twice stays one row.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore, StoreError, type Store } from "../../src/store/index.js";
import { useTempDirs } from "../support/temp-dirs.js";

const tempDir = useTempDirs("store");
let dir: string;
let store: Store;

beforeEach(() => {
  dir = tempDir();
  store = openStore(dir);
});
afterEach(() => store.close());

describe("webhook deliveries", () => {
  it("are remembered across a reopen, newest first, per webhook", () => {
    store.webhookDeliveries.add("github", "a", 1_000, 100);
    store.webhookDeliveries.add("github", "b", 2_000, 100);
    store.webhookDeliveries.add("deploy", "a", 3_000, 100);
    store.close();
    store = openStore(dir);
    expect(store.webhookDeliveries.recent("github", 10)).toEqual(["b", "a"]);
    expect(store.webhookDeliveries.recent("deploy", 10)).toEqual(["a"]);
    expect(store.webhookDeliveries.recent("other", 10)).toEqual([]);
    expect(store.webhookDeliveries.recent("github", 1)).toEqual(["b"]);
    // One that was not run is forgotten: only that webhook's.
    store.webhookDeliveries.remove("github", "a");
    expect(store.webhookDeliveries.recent("github", 10)).toEqual(["b"]);
    expect(store.webhookDeliveries.recent("deploy", 10)).toEqual(["a"]);
  });

  it("keep only each webhook's newest ids, and a repeat does not count twice", () => {
    for (const id of ["1", "2", "3", "4", "5"]) store.webhookDeliveries.add("github", id, 1_000, 3);
    store.webhookDeliveries.add("github", "5", 2_000, 3);
    store.webhookDeliveries.add("deploy", "x", 1_000, 3);
    expect(store.webhookDeliveries.recent("github", 10)).toEqual(["5", "4", "3"]);
    expect(store.webhookDeliveries.recent("deploy", 10)).toEqual(["x"]);
  });

  it("refuse a bound below 1 or an empty id", () => {
    expect(() => store.webhookDeliveries.add("github", "a", 1_000, 0)).toThrow(StoreError);
    expect(() => store.webhookDeliveries.add("github", "", 1_000, 10)).toThrow(StoreError);
    expect(() => store.webhookDeliveries.recent("github", 0)).toThrow(StoreError);
  });
});
