// Files written whole or not at all, and directories made with the true reason when they
// cannot be, for every layer that keeps files (config, state, caches).
export { writeFileAtomic, writeFileAtomicSync } from "./atomic-write.js";
export { createDirectory } from "./directory.js";
