/**
 * A text at least this long may be the first part of a longer one the app split (at 4,096
 * characters, or a little before, at a line break or a space): the parts that follow it
 * within a second are joined to it.
 */
export const SPLIT_TEXT_CHARS = 3800;
