import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { RequestDurations } from "../../src/http/plugins/metrics.ts";

function line(text: string, prefix: string): string | undefined {
  return text.split("\n").find((candidate) => candidate.startsWith(prefix));
}

describe("the request-duration histogram", () => {
  test("counts each observation in its bucket, cumulatively, with sum and count per series", () => {
    const durations = new RequestDurations();
    durations.observe("GET", "/api/market/items", 200, 0.4); // 0.0004 s: first bucket
    durations.observe("GET", "/api/market/items", 200, 3); // 0.003 s: le 0.005
    durations.observe("GET", "/api/market/items", 200, 5); // exactly a bound: counted in it
    durations.observe("GET", "/api/market/items", 200, 4000); // above every bound
    durations.observe("GET", "/api/market/items", 404, 1);
    const text = durations.text();
    const labels = 'method="GET",route="/api/market/items",status_code="200"';
    const bucket = (le: string) => line(text, `http_request_duration_seconds_bucket{le="${le}",${labels}}`);
    assert.equal(bucket("0.001"), `http_request_duration_seconds_bucket{le="0.001",${labels}} 1`);
    assert.equal(bucket("0.005"), `http_request_duration_seconds_bucket{le="0.005",${labels}} 3`);
    assert.equal(bucket("2.5"), `http_request_duration_seconds_bucket{le="2.5",${labels}} 3`);
    assert.equal(bucket("+Inf"), `http_request_duration_seconds_bucket{le="+Inf",${labels}} 4`);
    assert.equal(line(text, `http_request_duration_seconds_count{${labels}}`)?.split(" ")[1], "4");
    const sum = Number(line(text, `http_request_duration_seconds_sum{${labels}}`)?.split(" ")[1]);
    assert.ok(Math.abs(sum - 4.0084) < 1e-9, `sum ${sum}`);
    assert.match(text, /^# TYPE http_request_duration_seconds histogram$/m);
    assert.match(text, /status_code="404"\} 1$/m);
  });

  test("keeps a series per route, method and status, and each series once in the text", () => {
    const durations = new RequestDurations();
    const observations: Array<[string, string, number]> = [
      ["GET", "/a", 200],
      ["HEAD", "/a", 200],
      ["GET", "/a", 404],
      ["GET", "/b", 200],
      ["GET", "/a", 200],
    ];
    for (const [method, route, status] of observations) durations.observe(method, route, status, 1);
    const counts = durations
      .text()
      .split("\n")
      .filter((candidate) => candidate.startsWith("http_request_duration_seconds_count"))
      .sort();
    assert.deepEqual(counts, [
      'http_request_duration_seconds_count{method="GET",route="/a",status_code="200"} 2',
      'http_request_duration_seconds_count{method="GET",route="/a",status_code="404"} 1',
      'http_request_duration_seconds_count{method="GET",route="/b",status_code="200"} 1',
      'http_request_duration_seconds_count{method="HEAD",route="/a",status_code="200"} 1',
    ]);
  });

  test("escapes label values as the text format asks", () => {
    const durations = new RequestDurations();
    durations.observe("GET", 'a"b\\c\nd', 200, 1);
    assert.match(durations.text(), /route="a\\"b\\\\c\\nd"/);
  });
});
