// An album's parts arrive one update each, in any order, with no sign of the last one: they
// are joined in the order they were sent once none came for a while (on a fake clock).
import { describe, expect, it } from "vitest";
import { ALBUM_WAIT_MS, AlbumCollector, joinAlbum, type Album } from "../../../src/telegram/bridge/messages/album.js";
import { createFakeClock } from "../../support/fake-clock.js";

describe("joinAlbum", () => {
  it("orders the parts as they were sent and takes the caption from whichever part has it", () => {
    const album = joinAlbum([
      { messageId: 12, caption: "", item: "c" },
      { messageId: 10, caption: "", item: "a" },
      { messageId: 11, caption: " compare these ", item: "b" },
    ]);
    expect(album).toEqual({ caption: "compare these", items: ["a", "b", "c"] });
  });
});

describe("AlbumCollector", () => {
  it("hands an album on once no part came for the wait, each album of each chat on its own", () => {
    const clock = createFakeClock(0);
    const albums: Album<string>[] = [];
    const collector = new AlbumCollector<string>(clock, (album) => albums.push(album));
    collector.add("1:g1", { messageId: 2, caption: "", item: "b" });
    collector.add("2:g1", { messageId: 7, caption: "other chat", item: "x" });
    clock.advance(ALBUM_WAIT_MS - 1);
    collector.add("1:g1", { messageId: 1, caption: "both", item: "a" });
    clock.advance(1);
    expect(albums).toEqual([{ caption: "other chat", items: ["x"] }]);
    // The first chat's album waits a whole wait after its latest part.
    clock.advance(ALBUM_WAIT_MS - 2);
    expect(albums).toHaveLength(1);
    clock.advance(1);
    expect(albums[1]).toEqual({ caption: "both", items: ["a", "b"] });
  });
});
