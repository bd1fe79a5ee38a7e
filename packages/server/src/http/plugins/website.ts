import fastifyStatic from "@fastify/static";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { resolveSession } from "../../domain/sessions/resolve-session.ts";
import { sessionCookie } from "./auth.ts";
import type { MissingPages } from "./errors.ts";
import { signedInUserScript } from "./signed-in-user-script.ts";

/** Where `npm run build -w @skinmarket/web` writes the website (docs/design/website.md#the-website). */
export const WEBSITE_ROOT = join(import.meta.dirname, "../../../../web/dist");

/**
 * The website's pages: paths the single-page app draws itself. Each answers the same HTML, so a
 * deep link or a reload works; none clashes with the API (`/api/*`, `/account/api/*`, `/ops/api/*`, `/sandbox/*`,
 * `/docs*`, `/openapi*`, `/healthz`, `/readyz`, `/metrics`). `/news/` is the real website's page
 * that tools read the signed-in user from (docs/design/website.md#the-pages-and-how-they-are-served); the app has no news.
 */
export const WEBSITE_PAGES = [
  "/",
  "/news",
  "/goods/*",
  "/signin",
  "/signup",
  "/confirm-email",
  "/me",
  "/me/*",
  "/console",
  "/console/*",
  "/ops",
  "/ops/*",
];

/**
 * Paths of the API and the server's own documents: an unknown path under them keeps the API's
 * JSON "Path Not Found", whoever asks; any other unknown path a browser opens is a page the site
 * does not have.
 */
const NOT_PAGES =
  /^\/(?:api|account\/api|ops\/api|sandbox|docs|openapi|healthz|readyz|metrics|assets)(?:[/.?]|$)/;

/** A request a browser makes for a page: a GET or HEAD accepting HTML, outside `NOT_PAGES`. */
function asksForPage(request: FastifyRequest): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  if (NOT_PAGES.test(request.url)) return false;
  return (request.headers.accept ?? "").includes("text/html");
}

export interface WebsiteOptions {
  /** The built website (`packages/web/dist` unless told). */
  root?: string;
  /** Where item images are read from (`IMAGE_BASE_URL`); none: drawn placeholders. */
  imageBaseUrl?: string | undefined;
  /** Whether the sandbox API is on: the developer console is offered only then. */
  sandbox: boolean;
}

/** What every page tells the app before its script runs; read by `packages/web/src/config.ts`. */
export interface WebsiteSettings {
  imageBaseUrl: string | null;
  sandbox: boolean;
}

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>skinmarket: the website is not built</title></head>
<body><h1>The website is not built</h1>
<p>This server serves the API; the website's files are missing (<code>packages/web/dist</code>).
Build them with <code>npm run build -w @skinmarket/web</code> (<code>npm start</code> does it when
they are missing or older than their sources), then reload.</p>
<p>The API reference is at <a href="/docs">/docs</a>.</p></body></html>
`;

/**
 * Serves the built website on the API's port: its hashed assets under `/assets/` (kept a year,
 * precompressed copies preferred) and the page HTML at every page path, with the settings the
 * app needs written into it. Without a build, the pages answer 404 with a page saying how to
 * build it, and the API works as before.
 */
export async function registerWebsite(
  app: FastifyInstance,
  options: WebsiteOptions,
): Promise<Required<MissingPages>> {
  const root = options.root ?? WEBSITE_ROOT;
  const indexPath = join(root, "index.html");
  const built = existsSync(indexPath);
  const settings: WebsiteSettings = { imageBaseUrl: options.imageBaseUrl ?? null, sandbox: options.sandbox };
  // `<` is escaped so that no value can close the script element.
  const settingsScript = `<script>window.__SKINMARKET__=${JSON.stringify(settings).replaceAll("<", "\\u003c")}</script>`;
  // Read again when a new build replaces it (`npm run dev` rebuilds while the server runs): the
  // page names the hashed assets of its own build.
  let page = { html: NOT_BUILT, modifiedMs: -1 };
  const currentPage = (): string => {
    if (!built) return NOT_BUILT;
    const modifiedMs = statSync(indexPath, { throwIfNoEntry: false })?.mtimeMs ?? page.modifiedMs;
    if (modifiedMs !== page.modifiedMs) {
      const html = inlineStyles(
        readFileSync(indexPath, "utf8").replace("<!--skinmarket-settings-->", settingsScript),
        root,
      );
      page = { html, modifiedMs };
    }
    return page.html;
  };

  // A signed-in visitor's page carries who they are, as the real website's pages do (tools read
  // the nickname from `/` or `/news/`); such an answer is theirs alone, never a shared cache's.
  const answerPage = async (request: FastifyRequest, reply: FastifyReply, status = 200) => {
    const session = await resolveSession(request.ctx, sessionCookie(request));
    const html = currentPage();
    return (
      reply
        .code(built ? status : 404)
        .header("content-type", "text/html; charset=utf-8")
        .header("cache-control", session.ok ? "no-store" : "no-cache")
        .header("x-content-type-options", "nosniff")
        // Never inside another site's frame: a page that buys in two clicks must not be
        // clickjacked (the CSP directive for browsers that read it, the older header for the rest).
        .header("content-security-policy", "frame-ancestors 'none'")
        .header("x-frame-options", "DENY")
        .send(session.ok ? html.replace("</head>", `${signedInUserScript(session.value)}</head>`) : html)
    );
  };

  await app.register(async (website) => {
    website.addHook("onRoute", (route) => {
      route.config = { ...route.config, access: "public", envelope: "official" };
      route.schema = { ...route.schema, hide: true };
    });
    for (const path of WEBSITE_PAGES) website.get(path, (request, reply) => answerPage(request, reply));
    // The same routes whether built or not, so that the app's route list does not depend on it.
    if (!built || !existsSync(join(root, "assets")))
      website.get("/assets/*", (request, reply) => answerPage(request, reply));
    else {
      await website.register(fastifyStatic, {
        root: join(root, "assets"),
        prefix: "/assets/",
        preCompressed: true,
        index: false,
        immutable: true,
        maxAge: "365d",
      });
    }
  });
  // An address the site does not have: its page, which draws "No such page", with a 404.
  return { answer: (request, reply) => (asksForPage(request) ? answerPage(request, reply, 404) : undefined) };
}

/** Style sheets inlined up to this size: one request fewer before the first paint. */
const INLINE_STYLE_LIMIT = 16 * 1024;

/**
 * The build's own small style sheets written into the page, so that the first paint waits for no
 * second request (a render-blocking sheet cost a round trip on a phone's network).
 */
function inlineStyles(html: string, root: string): string {
  return html.replace(
    /<link rel="stylesheet"[^>]*href="\/assets\/([\w.-]+\.css)"[^>]*>/g,
    (link, name: string) => {
      const path = join(root, "assets", name);
      const size = statSync(path, { throwIfNoEntry: false })?.size;
      if (size === undefined || size > INLINE_STYLE_LIMIT) return link;
      return `<style>${readFileSync(path, "utf8").replaceAll("</", "<\\/")}</style>`;
    },
  );
}
