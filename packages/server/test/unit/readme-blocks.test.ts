import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { expectedOutput, parseReadme } from "../support/readme-blocks.ts";

describe("the README's shell blocks", () => {
  const markdown = [
    "Start it:",
    "",
    "<!-- readme-test: serve -->",
    "```sh",
    "npm ci && npm start",
    "```",
    "",
    "```sh",
    "# a comment, not a command",
    'S="npm run -s skinmarket -- admin"',
    "$S deposit $USER_ID balance 500",
    "#   balance 500.00  margin 0.00",
    "curl -s -X POST http://127.0.0.1:8080/x \\",
    "  -d '{}'",
    '#   {"a":1,',
    '#    "b":...}   (a remark)',
    "```",
    "",
    "<!-- readme-test: skip: needs PostgreSQL -->",
    "```sh",
    "createdb skinmarket",
    "```",
    "```ts",
    "not shell",
    "```",
  ].join("\n");

  test("finds each sh block with its mode", () => {
    assert.deepEqual(
      parseReadme(markdown).map((block) => block.mode),
      ["serve", "run", "skip"],
    );
  });

  test("splits a block into commands, joining continued lines and leaving comments out", () => {
    const commands = parseReadme(markdown)[1]!.commands;
    assert.deepEqual(
      commands.map((command) => command.text),
      [
        'S="npm run -s skinmarket -- admin"',
        "$S deposit $USER_ID balance 500",
        "curl -s -X POST http://127.0.0.1:8080/x \\\n  -d '{}'",
      ],
    );
    assert.equal(commands[0]!.expected, undefined);
  });

  test("matches shown output ignoring whitespace, with ... for anything and remarks left out", () => {
    const [, deposit, curl] = parseReadme(markdown)[1]!.commands;
    assert.match("balance500.00margin0.00wallet0.00", deposit!.expected!);
    assert.doesNotMatch("balance50.00margin0.00", deposit!.expected!);
    assert.match('{"a":1,"b":[1,2,3]}', curl!.expected!);
    assert.doesNotMatch('{"a":2,"b":[1]}', curl!.expected!);
    assert.doesNotMatch('{"a":1,"b":[1]}(aremark)', expectedOutput(['{"a":1}  (a remark)', "x"]));
  });
});
