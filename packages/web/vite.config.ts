import { writeFileSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, gzipSync, constants } from "node:zlib";
import { defineConfig, type Plugin } from "vite";

/**
 * Writes a `.br` and a `.gz` copy of every built script and style sheet, which the server sends
 * to browsers that accept them (`@fastify/static`'s `preCompressed`), and prints the gzipped size
 * of the JavaScript the first page loads against its budget (docs/design/website.md#the-website).
 */
function precompress(): Plugin {
  return {
    name: "skinmarket-precompress",
    apply: "build",
    closeBundle() {
      const dist = join(import.meta.dirname, "dist");
      const assets = join(dist, "assets");
      for (const name of readdirSync(assets)) {
        if (!/\.(js|css|svg)$/.test(name)) continue;
        const bytes = readFileSync(join(assets, name));
        writeFileSync(join(assets, `${name}.gz`), gzipSync(bytes, { level: 9 }));
        writeFileSync(
          join(assets, `${name}.br`),
          brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
      const html = readFileSync(join(dist, "index.html"), "utf8");
      const firstPage = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((match) => match[1]!);
      const gzipped = firstPage.reduce((sum, name) => sum + statSync(join(assets, `${name}.gz`)).size, 0);
      const budget = 200 * 1024;
      console.log(
        `first page JavaScript: ${(gzipped / 1024).toFixed(1)} kB gzipped (${firstPage.join(", ")}), budget ${budget / 1024} kB`,
      );
      if (gzipped > budget) throw new Error("the first page's JavaScript is over its 200 kB budget");
    },
  };
}

// Vite reads its configuration from the default export.
// eslint-disable-next-line no-restricted-syntax
export default defineConfig({
  root: import.meta.dirname,
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: { outDir: "dist", emptyOutDir: true, target: "es2022", modulePreload: { polyfill: false } },
  plugins: [precompress()],
});
