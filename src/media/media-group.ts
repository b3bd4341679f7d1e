// A media group (several photos or files sent at once) arrives as one Telegram message per
// item sharing a media_group_id; this joins the parts into one request. The waiting (the
// debounce until the last part arrived) is the transport's. Pure.

export type MediaGroupPart<T> = Readonly<{ messageId: number; caption: string; item: T }>;

export type MediaGroup<T> = Readonly<{
  /** The first non-empty caption in message order (Telegram shows it under the group). */
  caption: string;
  /** The message the group answers to: its first part. */
  firstMessageId: number;
  items: readonly T[];
}>;

/** Joins parts received in any order, in the order they were sent. */
export function joinMediaGroup<T>(parts: readonly MediaGroupPart<T>[]): MediaGroup<T> {
  const ordered = [...parts].sort((a, b) => a.messageId - b.messageId);
  return {
    caption: ordered.find((part) => part.caption.trim() !== "")?.caption.trim() ?? "",
    firstMessageId: ordered[0]?.messageId ?? 0,
    items: ordered.map((part) => part.item),
  };
}
