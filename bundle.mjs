// The browser client's modules (app/web/js) as one minified module, app/web/dist/main.js,
// so a phone loads the client in one request instead of one per module. Run by
// `make web` (and so by `make run` and `make test`) and by the Dockerfile.
//
// Beside it, app/web/dist/sources holds a digest of the modules it was made from; the
// server (app/api/webfiles.py) computes the same digest and serves the bundle only while
// the two agree, so an edited module is never hidden behind an old bundle.
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";

const WEB = "app/web";

/** SHA-256 over each module's path (under app/web) and bytes, in path order; the first
 * 16 hex digits. app/api/webfiles.py `sources_digest` is the same function. */
function sourcesDigest() {
  const paths = readdirSync(`${WEB}/js`, { recursive: true })
    .map((p) => `js/${String(p).split("\\").join("/")}`)
    .filter((p) => p.endsWith(".js"))
    .sort();
  const hash = createHash("sha256");
  for (const path of paths) {
    hash.update(`${path}\0`);
    hash.update(readFileSync(`${WEB}/${path}`));
    hash.update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

const digest = sourcesDigest();
await build({
  entryPoints: [`${WEB}/js/main.js`],
  bundle: true,
  minify: true,
  format: "esm",
  sourcemap: true,
  sourcesContent: false, // the map points at the modules, which the server serves too
  legalComments: "none",
  outfile: `${WEB}/dist/main.js`,
  logLevel: "warning",
});
writeFileSync(`${WEB}/dist/sources`, `${digest}\n`);
