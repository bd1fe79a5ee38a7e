import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { validate } from "@readme/openapi-parser";
import { OPERATIONS } from "@skinmarket/contract";
import { loadCatalog } from "../../src/domain/catalog/load-catalog.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

interface OpenApiParameter {
  name: string;
  required?: boolean;
  schema: { default?: unknown };
}

interface OpenApiOperation {
  operationId: string;
  description?: string;
  parameters?: OpenApiParameter[];
}

describe("operators' routes and the API description", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test("route schemas are compiled when a route first needs them, and every one compiles", async () => {
    const own = await createTestApp();
    try {
      const before = own.app.routeSchemas.pending;
      assert.ok(before > 100, `${before} schemas wait for their routes`);
      const user = await own.createUser();
      const balance = await own.as(user.token, "GET", "/api/market/developer/balance");
      assert.equal(balance.statusCode, 200, balance.body);
      assert.ok(own.app.routeSchemas.pending < before, "the routes asked compiled their schemas");
      own.app.routeSchemas.compileAll();
      assert.equal(own.app.routeSchemas.pending, 0);
      // Compiled ahead of use, they still refuse and answer as before.
      const refusedPage = await own.as(
        user.token,
        "GET",
        "/api/market/developer/buy_order?game=cs2&page_size=abc",
      );
      assert.equal(refusedPage.statusCode, 400, refusedPage.body);
      assert.deepEqual(refusedPage.json(), { code: "Invalid Argument", msg: "page_size: must be integer" });
    } finally {
      await own.close();
    }
  });

  test("/openapi.json is a valid OpenAPI 3.1 document listing every operation", async () => {
    const response = await t.app.inject({ method: "GET", url: "/openapi.json" });
    assert.equal(response.statusCode, 200);
    const document = response.json();
    assert.equal(document.openapi, "3.1.0");
    const result = await validate(structuredClone(document));
    assert.equal(result.valid, true, JSON.stringify(result, null, 2));
    const operationIds = Object.values(
      document.paths as Record<string, Record<string, { operationId?: string }>>,
    )
      .flatMap((methods) => Object.values(methods))
      .map((operation) => operation.operationId);
    for (const operation of OPERATIONS)
      assert.ok(operationIds.includes(operation.id), `${operation.id} is documented`);
    const balance = document.paths["/api/market/developer/balance"].get;
    assert.deepEqual(balance.security, [{ bearerToken: [] }]);
  });

  test("the document describes what a caller sends: defaults optional, 3.1 tuples, named records, described answers", async () => {
    const document = (await t.app.inject({ method: "GET", url: "/openapi.json" })).json();
    assert.equal(document.info.version, "0.1.0");
    assert.equal(document.info.license.identifier, "MIT");
    assert.deepEqual(
      document.servers.map((server: { url: string }) => server.url),
      ["/", "http://127.0.0.1:8080"],
    );
    const text = JSON.stringify(document);
    assert.doesNotMatch(text, /additionalItems|Default Response|x-skinmarket-schema/);
    const operations = Object.values(
      document.paths as Record<string, Record<string, OpenApiOperation>>,
    ).flatMap((methods) => Object.values(methods));
    for (const operation of operations) {
      assert.ok(operation.description, `${operation.operationId} has a description`);
      for (const parameter of operation.parameters ?? [])
        if (parameter.schema.default !== undefined)
          assert.notEqual(
            parameter.required,
            true,
            `${operation.operationId}: ${parameter.name} has a default`,
          );
    }
    const bookQuery = document.paths["/api/market/goods/buy_order"].get.parameters as OpenApiParameter[];
    assert.deepEqual(
      bookQuery.filter((parameter) => parameter.required).map((parameter) => parameter.name),
      ["game", "goods_id"],
    );
    const history = document.paths["/api/market/goods/price_history"].get.responses["200"];
    const point = history.content["application/json"].schema.properties.data.properties.price_history.items;
    assert.equal(point.items, false);
    assert.deepEqual(
      point.prefixItems.map((item: { type: string }) => item.type),
      ["integer", "string"],
    );
    assert.deepEqual(
      document.paths["/api/market/developer/buy_order"].post.responses["200"].content["application/json"]
        .schema,
      { $ref: "#/components/schemas/OwnBuyOrderRecord" },
    );
    assert.ok(document.components.schemas.OwnBuyOrderRecord.properties.price);
    for (const path of ["/healthz", "/readyz", "/metrics"])
      assert.ok(document.paths[path]?.get, `${path} is documented`);
  });

  test("/docs serves the API reference page", async () => {
    const response = await t.app.inject({ method: "GET", url: "/docs/" });
    assert.equal(response.statusCode, 200);
    assert.match(response.headers["content-type"] as string, /text\/html/);
  });

  test("/healthz answers while the process lives; /readyz needs the database and the catalog", async () => {
    assert.deepEqual((await t.app.inject({ method: "GET", url: "/healthz" })).json(), { status: "ok" });
    const notReady = await t.app.inject({ method: "GET", url: "/readyz" });
    assert.equal(notReady.statusCode, 503);
    assert.equal(notReady.json().status, "catalog not loaded");
    const loaded = await loadCatalog(t.ctx);
    assert.ok(loaded.ok);
    const ready = await t.app.inject({ method: "GET", url: "/readyz" });
    assert.equal(ready.statusCode, 200);
    assert.deepEqual(ready.json(), { status: "ready", goods: loaded.value.goodsCount });
  });

  test("/metrics exposes request durations by route pattern, in Prometheus text", async () => {
    await t.app.inject({ method: "GET", url: "/healthz" });
    const response = await t.app.inject({ method: "GET", url: "/metrics" });
    assert.equal(response.statusCode, 200);
    assert.match(response.headers["content-type"] as string, /text\/plain/);
    assert.match(
      response.body,
      /http_request_duration_seconds_count\{method="GET",route="\/healthz",status_code="200"\}/,
    );
    assert.match(response.body, /process_cpu_seconds_total/);
  });
});
