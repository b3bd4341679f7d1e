// Which decisions are open and how closed ones ended, so a late tap gets the right words:
// "already answered" after an answer, "no longer pending" after withdrawal, timeout or session
// end. Pure and bounded (old closed entries are forgotten; an unknown id is "no longer pending").
import type { AnswerVerdict } from "./prompt-types.js";

export type ClosedHow = "answered" | "expired";

export type PendingBook = {
  open: ReadonlySet<string>;
  closed: ReadonlyMap<string, ClosedHow>;
  /** Closed entries kept, oldest dropped first. */
  maxClosed: number;
};

export function emptyPendingBook(maxClosed = 1000): PendingBook {
  return { open: new Set(), closed: new Map(), maxClosed };
}

export function openDecision(book: PendingBook, id: string): PendingBook {
  const open = new Set(book.open);
  open.add(id);
  return { ...book, open };
}

/** Closes `id` once; closing an already closed or unknown id changes nothing. */
export function closeDecision(book: PendingBook, id: string, how: ClosedHow): PendingBook {
  if (!book.open.has(id)) return book;
  const open = new Set(book.open);
  open.delete(id);
  const closed = new Map(book.closed);
  closed.set(id, how);
  while (closed.size > book.maxClosed) {
    const oldest = closed.keys().next().value;
    if (oldest === undefined) break;
    closed.delete(oldest);
  }
  return { ...book, open, closed };
}

/** "accepted" means the decision is open and the answer may be delivered. */
export function verdictFor(book: PendingBook, id: string): AnswerVerdict {
  if (book.open.has(id)) return "accepted";
  return book.closed.get(id) === "answered" ? "already_answered" : "no_longer_pending";
}
