import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { gzipSync } from "node:zlib";
import { WEBSITE_PAGES } from "../../src/http/plugins/website.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const PAGE = `<!doctype html><html><head><!--skinmarket-settings--><link rel="stylesheet" crossorigin href="/assets/index-abc.css"></head><body><div id="app"></div></body></html>`;
const STYLE = "main { color: #e8eaed; }";
const SCRIPT = "console.log('skinmarket');\n";

/** A website build as `npm run build -w @skinmarket/web` writes it, in a folder of its own. */
async function fakeBuild(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "skinmarket-web-"));
  await mkdir(join(root, "assets"));
  await writeFile(join(root, "index.html"), PAGE);
  await writeFile(join(root, "assets", "index-abc.js"), SCRIPT);
  await writeFile(join(root, "assets", "index-abc.css"), STYLE);
  await writeFile(join(root, "assets", "index-abc.js.gz"), gzipSync(SCRIPT));
  await writeFile(join(root, "secret.txt"), "not an asset");
  return root;
}

function settingsOf(html: string): unknown {
  const match = /<script>window.__SKINMARKET__=(.*?)<\/script>/.exec(html);
  assert.ok(match, "the page carries its settings");
  return JSON.parse(match[1]!);
}

describe("the website, served on the API's port", () => {
  let root: string;
  let t: TestApp;
  before(async () => {
    root = await fakeBuild();
    t = await createTestApp({ website: { root, imageBaseUrl: "https://cdn.example/cs2" } });
  });
  after(async () => {
    await t.close();
    await rm(root, { recursive: true, force: true });
  });

  test("every page path answers the app's HTML with its settings, deep links included", async () => {
    for (const url of [
      "/",
      "/goods/13918",
      "/signin",
      "/me",
      "/me/purchases",
      "/console",
      "/console/offers",
    ]) {
      const response = await t.app.inject({ method: "GET", url });
      assert.equal(response.statusCode, 200, url);
      assert.match(String(response.headers["content-type"]), /^text\/html/);
      assert.equal(response.headers["cache-control"], "no-cache");
      assert.deepEqual(settingsOf(response.body), { imageBaseUrl: "https://cdn.example/cs2", sandbox: true });
    }
    assert.ok(WEBSITE_PAGES.includes("/goods/*"));
  });

  test("the build's small style sheet is written into the page: no second request before the first paint", async () => {
    const response = await t.app.inject({ method: "GET", url: "/" });
    assert.ok(response.body.includes(`<style>${STYLE}</style>`));
    assert.ok(!response.body.includes('rel="stylesheet"'));
  });

  test("hashed assets are kept a year and sent precompressed to browsers that take it", async () => {
    const plain = await t.app.inject({ method: "GET", url: "/assets/index-abc.js" });
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.body, SCRIPT);
    assert.match(String(plain.headers["cache-control"]), /max-age=31536000.*immutable/);
    const gzipped = await t.app.inject({
      method: "GET",
      url: "/assets/index-abc.js",
      headers: { "accept-encoding": "gzip" },
    });
    assert.equal(gzipped.headers["content-encoding"], "gzip");
  });

  test("the API keeps its paths and its error model beside the pages", async () => {
    const unknown = await t.app.inject({ method: "GET", url: "/api/market/no_such_route" });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().code, "Path Not Found");
    const missingAsset = await t.app.inject({ method: "GET", url: "/assets/nothing.js" });
    assert.equal(missingAsset.statusCode, 404);
    const health = await t.app.inject({ method: "GET", url: "/healthz" });
    assert.deepEqual(health.json(), { status: "ok" });
    const posted = await t.app.inject({ method: "POST", url: "/", payload: {} });
    assert.equal(posted.statusCode, 404, "a page takes no writes");
  });

  test("an address the site does not have is its page with a 404; the API's paths and a program keep Path Not Found", async () => {
    const html = { accept: "text/html,application/xhtml+xml,*/*;q=0.8" };
    for (const url of ["/markt", "/goods", "/me-inventory/x?y=1"]) {
      const page = await t.app.inject({ method: "GET", url, headers: html });
      assert.equal(page.statusCode, 404, url);
      assert.match(String(page.headers["content-type"]), /^text\/html/, url);
      assert.deepEqual(settingsOf(page.body), { imageBaseUrl: "https://cdn.example/cs2", sandbox: true });
    }
    for (const [method, url, headers] of [
      ["GET", "/markt", {}],
      ["GET", "/markt", { accept: "application/json" }],
      ["POST", "/markt", html],
      ["GET", "/api/market/no_such_route", html],
      ["GET", "/account/api/nothing", html],
      ["GET", "/sandbox/nothing", html],
      ["GET", "/openapi.yaml.bak", html],
    ] as const) {
      const answer = await t.app.inject({ method, url, headers });
      assert.equal(answer.statusCode, 404, `${method} ${url}`);
      assert.equal(answer.json().code, "Path Not Found", `${method} ${url}`);
    }
  });

  test("nothing outside the assets folder is served, however the path is written", async () => {
    for (const url of [
      "/assets/../secret.txt",
      "/assets/%2e%2e/secret.txt",
      "/assets/..%2fsecret.txt",
      "/secret.txt",
    ]) {
      const response = await t.app.inject({ method: "GET", url });
      assert.notEqual(response.statusCode, 200, url);
      assert.ok(!response.body.includes("not an asset"), url);
    }
  });

  test("the pages are not operations: the OpenAPI document leaves them out", async () => {
    const document = (await t.app.inject({ method: "GET", url: "/openapi.json" })).json();
    for (const path of Object.keys(document.paths as object)) {
      const page =
        ["/", "/signin", "/me", "/console"].includes(path) || /^\/(goods|me|console|assets)\//.test(path);
      assert.ok(!page, path);
    }
  });
});

describe("the website before it is built", () => {
  let t: TestApp;
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), "skinmarket-web-empty-"));
    t = await createTestApp({ sandbox: false, website: { root } });
  });
  after(async () => {
    await t.close();
    await rm(root, { recursive: true, force: true });
  });

  test("pages answer 404 with a page saying how to build it, and the API still works", async () => {
    const response = await t.app.inject({ method: "GET", url: "/goods/1" });
    assert.equal(response.statusCode, 404);
    assert.match(String(response.headers["content-type"]), /^text\/html/);
    assert.match(response.body, /The website is not built/);
    assert.match(response.body, /npm run build -w @skinmarket\/web/);
    const health = await t.app.inject({ method: "GET", url: "/healthz" });
    assert.equal(health.statusCode, 200);
  });
});

describe("the settings written into the page", () => {
  test("cannot close the script element, whatever the image base says", async () => {
    const root = await fakeBuild();
    const t = await createTestApp({
      website: { root, imageBaseUrl: "https://x.example/</script><script>alert(1)" },
    });
    try {
      const response = await t.app.inject({ method: "GET", url: "/" });
      assert.ok(!response.body.includes("</script><script>alert(1)"));
      assert.deepEqual(settingsOf(response.body), {
        imageBaseUrl: "https://x.example/</script><script>alert(1)",
        sandbox: true,
      });
    } finally {
      await t.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe("the signed-in user written into the page", () => {
  // The test a buff163 client's is_session_alive makes of GET /news/ (Python json.dumps layout).
  const looksSignedIn = (html: string) => html.includes('"user": {"') && html.includes('"nickname": "');
  const userOf = (html: string): unknown => {
    const match = /<script type="application\/json" id="signed-in-user">(.*?)<\/script>/s.exec(html);
    assert.ok(match, "the page carries the signed-in user");
    return JSON.parse(match[1]!);
  };
  let t: TestApp;
  let root: string;
  before(async () => {
    root = await fakeBuild();
    t = await createTestApp({ website: { root } });
  });
  after(async () => {
    await t.close();
    await rm(root, { recursive: true, force: true });
  });

  test("happy: / and /news/ carry the signed-in user's nickname as the tools read it, kept private", async () => {
    const user = await t.createUser({ nickname: "page-reader", password: "page password" });
    const session = await t.signIn(user.nickname, "page password");
    for (const url of ["/", "/news/", "/news"]) {
      const page = await t.web(session, "GET", url);
      assert.equal(page.statusCode, 200, url);
      assert.ok(looksSignedIn(page.body), url);
      assert.deepEqual(userOf(page.body), { user: { nickname: "page-reader", id: user.userId } });
      assert.equal(page.headers["cache-control"], "no-store");
    }
  });

  test("anonymous or with an ended session: no user on the page", async () => {
    for (const cookie of [undefined, "session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"]) {
      const page = await t.app.inject({ method: "GET", url: "/news/", headers: cookie ? { cookie } : {} });
      assert.equal(page.statusCode, 200);
      assert.ok(!looksSignedIn(page.body));
      assert.ok(!page.body.includes("signed-in-user"));
    }
  });

  test("security: a nickname holding </script>, a comment, &, quotes or U+2028 cannot leave the data block", async () => {
    const nickname = 'x</script><!--\u2028&"<b>y';
    await t.createUser({ nickname, password: "page password" });
    const session = await t.signIn(nickname, "page password");
    const page = await t.web(session, "GET", "/news/");
    assert.equal(page.statusCode, 200);
    assert.ok(!page.body.includes("</script><!--"), "the nickname's markup is not in the page as markup");
    assert.ok(!page.body.includes("<b>y") && !page.body.includes("\u2028"));
    assert.equal(page.body.split("</script>").length - 1, page.body.split("<script").length - 1);
    assert.deepEqual(userOf(page.body), {
      user: { nickname, id: (userOf(page.body) as { user: { id: string } }).user.id },
    });
    assert.ok(looksSignedIn(page.body));
  });
});
