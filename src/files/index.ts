// Files written whole or not at all, for every layer that keeps one (config, state, caches).
export { writeFileAtomic, writeFileAtomicSync } from "./atomic-write.js";
