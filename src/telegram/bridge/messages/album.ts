// An album (several photos or files sent at once) reaches the bot as one update per item with
// a shared media_group_id and no sign of which is last: the parts are held until none came for
// a short while, then handed on together, in the order they were sent. A long text the app split
// into several messages is held the same way (text.ts).
import type { Clock, TimerHandle } from "../../../ports/index.js";

/** How long after an album's latest part it is taken as complete (Telegram sends them within a second). */
export const ALBUM_WAIT_MS = 1000;

export type AlbumPart<T> = Readonly<{ messageId: number; caption: string; item: T }>;

export type Album<T> = Readonly<{
  /** The first non-empty caption in message order (Telegram shows it under the album). */
  caption: string;
  /** The items in the order they were sent. */
  items: readonly T[];
}>;

/** Joins parts received in any order, in the order they were sent. Pure. */
export function joinAlbum<T>(parts: readonly AlbumPart<T>[]): Album<T> {
  const ordered = [...parts].sort((a, b) => a.messageId - b.messageId);
  return {
    caption: ordered.find((part) => part.caption.trim() !== "")?.caption.trim() ?? "",
    items: ordered.map((part) => part.item),
  };
}

export class AlbumCollector<T> {
  readonly #clock: Clock;
  readonly #onAlbum: (album: Album<T>) => void;
  readonly #open = new Map<string, { parts: AlbumPart<T>[]; timer: TimerHandle }>();

  constructor(clock: Clock, onAlbum: (album: Album<T>) => void) {
    this.#clock = clock;
    this.#onAlbum = onAlbum;
  }

  /** Whether parts of `key` are being held. */
  has(key: string): boolean {
    return this.#open.has(key);
  }

  /** Adds a part of album `key` (chat and media_group_id); the wait starts again. */
  add(key: string, part: AlbumPart<T>): void {
    const open = this.#open.get(key);
    open?.timer.cancel();
    const parts = [...(open?.parts ?? []), part];
    const timer = this.#clock.setTimer(ALBUM_WAIT_MS, () => {
      this.#open.delete(key);
      this.#onAlbum(joinAlbum(parts));
    });
    this.#open.set(key, { parts, timer });
  }
}
