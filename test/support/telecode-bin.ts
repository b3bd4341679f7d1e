// The built `telecode` (bin/telecode.js, on the dist/ that `npm test` builds first), for tests that
// run it as a process of its own, as a person or a service manager would.
import { resolve } from "node:path";

export const telecodeBin = resolve(import.meta.dirname, "../../bin/telecode.js");
