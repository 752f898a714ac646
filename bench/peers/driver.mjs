// driver.mjs times MCP calls through the official TypeScript SDK client, the
// client issue 20's figures were measured with, for the benchmarks in bench/
// (ts_driver.go starts it). The go-sdk client the other benchmarks use
// spends more CPU decoding an answer than the server spends making it, so a
// benchmark through it measures the client as much as the server.
//
// Usage: node driver.mjs <server command> <args...>
//
// It starts the server with StdioClientTransport, connects a Client, lists
// the tools once (as a real client does: the SDK then validates every
// structuredContent against its tool's outputSchema), and prints one line:
//   {"ready":true,"tools":N,"pid":SERVER_PID}
// Then it reads one JSON request a line on stdin and answers each with one
// line on stdout, in order:
//   {"tool":"fs_read","args":{...}}  ->  {"ms":1.23,"bytes":12345,"isError":false}
//   {"ping":true}                    ->  {"ms":0.31}
// ms is performance.now() around the SDK's callTool (or ping): sending,
// waiting, parsing and validating the answer, as a client sees it. bytes is
// the result's size as JSON, re-encoded after the call. With "show":true in
// a request the answer carries the result too. A call that throws (a
// protocol error, an answer the SDK refuses) answers {"error":"..."}; the
// driver goes on. It exits when stdin closes, closing the client, which
// ends the server.

import { createInterface } from "node:readline";
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

function answer(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

async function serve(client, line) {
  const req = JSON.parse(line);
  if (req.ping) {
    const start = performance.now();
    await client.ping();
    return { ms: performance.now() - start };
  }
  if (typeof req.tool !== "string") {
    throw new Error(`a request names a tool or asks for a ping: ${line.slice(0, 200)}`);
  }
  const start = performance.now();
  const result = await client.callTool({ name: req.tool, arguments: req.args ?? {} });
  const ms = performance.now() - start;
  const out = { ms, bytes: Buffer.byteLength(JSON.stringify(result)), isError: result.isError === true };
  if (req.show) {
    out.result = result;
  }
  return out;
}

async function main() {
  const [command, ...args] = process.argv.slice(2);
  if (!command) {
    throw new Error("usage: node driver.mjs <server command> <args...>");
  }
  const transport = new StdioClientTransport({ command, args, stderr: "inherit" });
  const client = new Client({ name: "hostmcp-bench-ts", version: "1" });
  await client.connect(transport);
  const { tools } = await client.listTools();
  answer({ ready: true, tools: tools.length, pid: transport.pid });

  // One request at a time: the next line is read only after this one is
  // answered, so calls never overlap.
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    if (line.trim() === "") {
      continue;
    }
    try {
      answer(await serve(client, line));
    } catch (err) {
      answer({ error: String(err?.message ?? err) });
    }
  }
  await client.close();
}

main().catch((err) => {
  process.stderr.write(`driver: ${err?.stack ?? err}\n`);
  answer({ error: String(err?.message ?? err) });
  process.exitCode = 1;
});
