// client.mjs drives hostmcp with the official TypeScript MCP SDK client, so
// the server is checked against a second, independent implementation of the
// protocol and not only against the go-sdk it is built on.
//
// Usage:
//   node client.mjs stdio <binary> <args...>
//   node client.mjs http <url> <token>
//
// It prints one JSON summary line on stdout and exits 0 when every check
// passed; otherwise the summary has ok=false and a list of failures, each
// failure is also written to stderr, and the exit code is 1.
//
// The SDK validates structuredContent against outputSchema itself; the
// checks here repeat that with Ajv on purpose, so a change in the SDK's
// validation (or its silent skipping) cannot hide a schema mismatch.

import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ElicitRequestSchema, EmptyResultSchema, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { StdioClientTransport, getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import Ajv2020Module from "ajv/dist/2020.js";
import Ajv07Module from "ajv";
import addFormatsModule from "ajv-formats";

const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;
const Ajv07 = Ajv07Module.default ?? Ajv07Module;
const addFormats = addFormatsModule.default ?? addFormatsModule;

const ANNOTATIONS = ["title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"];
const CALLS = ["perf_info", "sys_snapshot"];
const REQUEST_TIMEOUT_MS = Number(process.env.HOSTMCP_INTEROP_REQUEST_TIMEOUT_MS || 60000);
const TOTAL_TIMEOUT_MS = Number(process.env.HOSTMCP_INTEROP_TIMEOUT_MS || 120000);

const summary = { ok: false, transport: "", failures: [], rate_limited: { waits: 0, refused_after_wait: 0 } };

function fail(msg) {
  summary.failures.push(msg);
  process.stderr.write(`interop: FAIL: ${msg}\n`);
}

function finish(code) {
  summary.ok = code === 0 && summary.failures.length === 0;
  process.stdout.write(JSON.stringify(summary) + "\n");
  process.exitCode = summary.ok ? 0 : 1;
}

// makeValidatorFactory compiles a schema with the Ajv class matching its
// $schema: draft 2020-12 (or none) with Ajv2020, draft-07 with plain Ajv.
// strict is off because unknown keywords are legal JSON Schema; formats are
// checked (date-time in the envelope's timestamp, for one).
function makeValidatorFactory() {
  const opts = { strict: false, allErrors: true, validateFormats: true };
  const a2020 = new Ajv2020(opts);
  const a07 = new Ajv07(opts);
  addFormats(a2020);
  addFormats(a07);
  return (schema) => {
    const s = String(schema?.$schema ?? "");
    const ajv = s.includes("draft-07") || s.includes("draft-06") ? a07 : a2020;
    const v = ajv.compile(schema);
    return (value) => (v(value) ? null : ajv.errorsText(v.errors, { separator: "; " }));
  };
}

function parseArgs(argv) {
  const [kind, ...rest] = argv;
  if (kind === "stdio" && rest.length >= 1) {
    return { kind, command: rest[0], args: rest.slice(1) };
  }
  if (kind === "http" && rest.length === 2) {
    return { kind, url: rest[0], token: rest[1] };
  }
  throw new Error("usage: node client.mjs stdio <binary> <args...> | http <url> <token>");
}

function makeTransport(t) {
  if (t.kind === "stdio") {
    return new StdioClientTransport({
      command: t.command,
      args: t.args,
      env: { ...getDefaultEnvironment(), ...pick(process.env, ["TMPDIR", "HOSTMCP_REQUIRE_PRIVILEGED"]) },
      stderr: "inherit",
    });
  }
  return new StreamableHTTPClientTransport(new URL(t.url), {
    requestInit: { headers: { Authorization: `Bearer ${t.token}` } },
  });
}

function pick(obj, keys) {
  const out = {};
  for (const k of keys) if (obj[k] !== undefined) out[k] = obj[k];
  return out;
}

async function listAll(fn, key) {
  const items = [];
  let cursor;
  for (let page = 0; page < 100; page++) {
    const res = await fn(cursor ? { cursor } : undefined, { timeout: REQUEST_TIMEOUT_MS });
    items.push(...(res[key] ?? []));
    cursor = res.nextCursor;
    if (!cursor) return items;
  }
  throw new Error(`${key}: more than 100 pages`);
}

function checkAnnotations(tool) {
  const a = tool.annotations;
  if (!a) {
    fail(`${tool.name}: no annotations`);
    return;
  }
  for (const k of ANNOTATIONS) {
    if (!(k in a)) fail(`${tool.name}: annotation ${k} missing`);
  }
  if ("title" in a && (typeof a.title !== "string" || a.title === "")) fail(`${tool.name}: annotation title is empty`);
  for (const k of ANNOTATIONS.slice(1)) {
    if (k in a && typeof a[k] !== "boolean") fail(`${tool.name}: annotation ${k} is ${JSON.stringify(a[k])}, not a boolean`);
  }
}

// describe renders an error for the report; the SDK's HTTP errors carry the
// status code apart from an often empty message.
function describe(e) {
  const msg = e?.message ?? String(e);
  return e?.code !== undefined ? `${msg} (code ${e.code})` : msg;
}

// RATE_RETRIES bounds how often one call is sent again after RATE_LIMITED.
const RATE_RETRIES = 50;

// callTool is client.callTool that honours the server's back-pressure as an
// agent should: a call refused RATE_LIMITED is sent again after
// error.retry_after_ms. The timer's clock is the event loop's, cached at
// millisecond grain, so one millisecond more is waited. A retry refused
// again means the advice was too short; the summary counts both.
async function callTool(client, params, resultSchema, opts) {
  for (let tries = 0; ; tries++) {
    const res = await client.callTool(params, resultSchema, opts);
    const err = res.structuredContent?.error;
    if (err?.code !== "RATE_LIMITED" || tries >= RATE_RETRIES) return res;
    if (tries > 0) summary.rate_limited.refused_after_wait++;
    summary.rate_limited.waits++;
    await new Promise((resolve) => setTimeout(resolve, (err.retry_after_ms ?? 1000) + 1));
  }
}

function sameJSON(a, b) {
  try {
    return JSON.stringify(JSON.parse(a)) === JSON.stringify(b);
  } catch {
    return false;
  }
}

async function callAndValidate(client, tool, validate) {
  const res = await callTool(client, { name: tool.name, arguments: {} }, undefined, { timeout: REQUEST_TIMEOUT_MS });
  const sc = res.structuredContent;
  const out = { success: false, is_error: Boolean(res.isError), validated: false };
  if (!sc || typeof sc !== "object") {
    fail(`${tool.name}: no structuredContent`);
    return out;
  }
  out.success = sc.success === true;
  if (typeof sc.success !== "boolean") fail(`${tool.name}: envelope success is not a boolean`);
  // The call's provenance is in _meta, which clients keep from the model.
  const prov = res._meta?.["io.hostmcp/call"];
  if (prov?.tool !== tool.name) fail(`${tool.name}: _meta provenance is ${JSON.stringify(prov)}`);
  for (const k of ["tool", "tool_version", "timestamp", "duration_ms", "host"]) {
    if (k in sc) fail(`${tool.name}: structuredContent carries ${k}, which belongs in _meta`);
  }
  if (out.is_error === out.success) fail(`${tool.name}: isError=${out.is_error} but success=${out.success}`);
  if (!out.success) fail(`${tool.name}: failed: ${JSON.stringify(sc.error)}`);
  if (validate) {
    const err = validate(sc);
    if (err) fail(`${tool.name}: structuredContent does not match outputSchema: ${err}`);
    else out.validated = true;
  }
  const text = (res.content ?? []).find((c) => c.type === "text");
  if (!text || !sameJSON(text.text, sc)) fail(`${tool.name}: text content is not the envelope JSON`);
  return out;
}

// OUTPUT_CAP is the server's default output cap: every answer's text must
// fit it, handle_read's pages included.
const OUTPUT_CAP = 65536;

// PAGINGS are the ways the client pages a handle to its end: the defaults
// only, and the schema's maximum limit, by lines and by bytes.
const PAGINGS = {
  lines: {},
  bytes: { unit: "bytes" },
  lines_max: { unit: "lines", limit: 2000 },
  bytes_max: { unit: "bytes", limit: 1048576 },
};

// pageHandle reads a handle with handle_read from offset 0, passing only
// next_offset on, until eof; it checks each answer's size against the cap.
async function pageHandle(client, handle, args) {
  let content = "";
  let offset = 0;
  for (let pages = 1; pages <= 5000; pages++) {
    const a = { handle, ...args };
    if (offset > 0) a.offset = offset;
    const res = await callTool(client, { name: "handle_read", arguments: a }, undefined, { timeout: REQUEST_TIMEOUT_MS });
    const sc = res.structuredContent;
    const text = (res.content ?? []).find((c) => c.type === "text")?.text ?? "";
    if (sc?.success !== true || sc.truncated) throw new Error(`handle_read ${JSON.stringify(a)}: ${JSON.stringify(sc?.error ?? sc?.warnings)}`);
    if (Buffer.byteLength(text) > OUTPUT_CAP) throw new Error(`handle_read ${JSON.stringify(a)}: ${Buffer.byteLength(text)} bytes, over the cap`);
    const d = sc.data;
    content += d.content;
    if (d.eof) return { pages, content };
    if (!(d.next_offset > offset)) throw new Error(`handle_read ${JSON.stringify(a)}: next_offset ${d.next_offset} does not advance`);
    offset = d.next_offset;
  }
  throw new Error(`handle ${handle}: no eof after 5000 pages`);
}

// checkLargeResult reads a large file, whose window comes with a handle of
// the whole file: the answer links the handle (resource_link with name,
// mimeType and size), resources/read of the link agrees, resources/list
// lists it, and handle_read pages it back whole in every way.
async function checkLargeResult(client, path) {
  const want = readFileSync(path, "utf8");
  const out = { handle: "", link: null, read_mime: "", listed: false, pagings: {} };
  const res = await callTool(client, { name: "fs_read", arguments: { path } }, undefined, { timeout: REQUEST_TIMEOUT_MS });
  out.handle = res.structuredContent?.data?.handle ?? "";
  if (!out.handle) {
    fail(`fs_read ${path}: no handle: ${JSON.stringify(res.structuredContent?.error)}`);
    return out;
  }
  const uri = `hostmcp://handle/${out.handle}`;
  const link = (res.content ?? []).find((c) => c.type === "resource_link" && c.uri === uri);
  if (!link) fail(`fs_read: no resource_link to ${uri} in ${JSON.stringify((res.content ?? []).map((c) => c.type))}`);
  else out.link = { name: link.name, mimeType: link.mimeType, size: link.size };
  const read = await client.readResource({ uri }, { timeout: REQUEST_TIMEOUT_MS });
  const rc = read.contents?.[0];
  out.read_mime = rc?.mimeType ?? "";
  if (link && (rc?.mimeType !== link.mimeType || Buffer.byteLength(rc?.text ?? "") !== link.size)) {
    fail(`resources/read ${uri}: ${rc?.mimeType}, ${Buffer.byteLength(rc?.text ?? "")} bytes; the link says ${link.mimeType}, ${link.size}`);
  }
  const listed = await client.listResources(undefined, { timeout: REQUEST_TIMEOUT_MS });
  out.listed = (listed.resources ?? []).some((r) => r.uri === uri);
  if (!out.listed) fail(`resources/list lacks ${uri}`);
  for (const [name, args] of Object.entries(PAGINGS)) {
    try {
      const { pages, content } = await pageHandle(client, out.handle, args);
      out.pagings[name] = { pages, whole: content === want };
      if (content !== want) fail(`handle_read ${name}: ${pages} pages put together differ from the file`);
    } catch (e) {
      fail(`handle_read ${name}: ${describe(e)}`);
    }
  }
  return out;
}

// callOversized sends a tools/call over the server's stdio message limit
// (4 MiB by default). The SDK writes "id" last, and these arguments hold an
// "id" of their own: the server must answer under the request's id, found at
// the end of the line, for the call to fail at once instead of timing out.
async function callOversized(client) {
  const args = { id: 999, path: "big.txt", content: "a".repeat(5 << 20) };
  try {
    await callTool(client, { name: "fs_write", arguments: args }, undefined, { timeout: 20000 });
    fail("oversized tools/call: succeeded, want an error");
    return null;
  } catch (e) {
    return { code: e?.code ?? null, message: e?.message ?? String(e) };
  }
}

// recordWire keeps the raw result of each request the client sends, by
// method, before the SDK parses it: the era checks look for fields the
// SDK's schemas may drop.
function recordWire(transport) {
  const sent = new Map();
  const results = new Map();
  const send = transport.send.bind(transport);
  transport.send = (msg, opts) => {
    if (msg?.method && msg.id !== undefined) sent.set(msg.id, msg.method);
    return send(msg, opts);
  };
  let handler;
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    get: () => handler,
    set: (f) => {
      handler = (msg, extra) => {
        if (msg?.id !== undefined && msg.result && sent.has(msg.id)) {
          const m = sent.get(msg.id);
          if (!results.has(m)) results.set(m, []);
          results.get(m).push(msg.result);
        }
        return f?.(msg, extra);
      };
    },
  });
  return (method) => results.get(method) ?? [];
}

// checkEra checks the raw results against what the negotiated revision
// defines: outputSchema, structuredContent and titles from 2025-06-18,
// resultType and the list results' ttlMs and cacheScope only from
// 2026-07-28. The server declares no logging (it sends no log messages).
function checkEra(wire, caps) {
  const version = wire("initialize")[0]?.protocolVersion ?? "";
  const structured = version >= "2025-06-18";
  const newest = version >= "2026-07-28";
  const era = { protocol_version: version, tools: 0, with_output_schema: 0, with_title: 0, extras: [] };
  const extra = (where, obj, keys, want) => {
    for (const k of keys) {
      if ((k in obj) !== want) {
        era.extras.push(`${where}.${k}`);
        fail(`${where}: ${k} ${want ? "missing, though" : "present, though not"} defined by ${version}`);
      }
    }
  };
  for (const list of wire("tools/list")) {
    extra("tools/list", list, ["resultType", "ttlMs", "cacheScope"], newest);
    for (const tool of list.tools ?? []) {
      era.tools++;
      if ("outputSchema" in tool) era.with_output_schema++;
      if ("title" in tool) era.with_title++;
      extra(`tool ${tool.name}`, tool, ["outputSchema", "title"], structured);
    }
  }
  const calls = wire("tools/call");
  if (calls.length === 0) fail("no tools/call result was recorded");
  for (const res of calls) {
    extra("tools/call", res, ["structuredContent"], structured);
    extra("tools/call", res, ["resultType"], newest);
  }
  era.logging = "logging" in caps;
  if (era.logging) fail("logging declared, though the server sends no log messages");
  summary.era = era;
}

// checkProgress calls a sampling tool with a progress callback: what
// arrives must strictly increase and stay within its total.
async function checkProgress(client) {
  const seen = [];
  await callTool(client, { name: "perf_use_check", arguments: { interval_ms: 1200 } }, undefined, {
    timeout: REQUEST_TIMEOUT_MS,
    onprogress: (p) => seen.push(p),
  });
  const out = { count: seen.length, increasing: true, within_total: true };
  seen.forEach((p, i) => {
    if (i > 0 && p.progress <= seen[i - 1].progress) out.increasing = false;
    if (p.total !== undefined && p.progress > p.total) out.within_total = false;
  });
  if (!out.increasing || !out.within_total) fail(`progress: ${JSON.stringify(seen)}`);
  summary.progress = out;
}

// setBadLevel sends logging/setLevel with a level the protocol does not
// name; the answer must be invalid params.
async function setBadLevel(client) {
  try {
    await client.request({ method: "logging/setLevel", params: { level: "bogus" } }, EmptyResultSchema, { timeout: REQUEST_TIMEOUT_MS });
    fail("logging/setLevel bogus: accepted");
    return null;
  } catch (e) {
    return e?.code ?? null;
  }
}

// checkConfirm deletes a tree recursively, which hostmcp's default
// [confirm] asks a person about: the dry run must say it would ask; the
// client, which declares form elicitation, declines the first question
// (the tree must still be there) and accepts the second. Where the server
// cannot ask (HTTP before 2026-07-28), both calls answer
// CONFIRMATION_REQUIRED.
async function checkConfirm(client, path, asked) {
  const out = { dry_run_needs: false, asked, declined_code: "", present_after_decline: false, accepted_success: false, accepted_code: "" };
  const del = (extra) => callTool(client, { name: "fs_delete", arguments: { path, recursive: true, ...extra } }, undefined, { timeout: REQUEST_TIMEOUT_MS });
  const dry = await del({ dry_run: true });
  out.dry_run_needs = dry.structuredContent?.data?.plan?.needs_confirmation === true;
  const declined = await del({});
  out.declined_code = declined.structuredContent?.error?.code ?? "";
  const listed = await callTool(client, { name: "fs_list", arguments: { path } }, undefined, { timeout: REQUEST_TIMEOUT_MS });
  out.present_after_decline = listed.structuredContent?.success === true;
  const accepted = await del({});
  out.accepted_success = accepted.structuredContent?.success === true;
  out.accepted_code = accepted.structuredContent?.error?.code ?? "";
  return out;
}

async function run(t) {
  summary.transport = t.kind;
  // Like Claude Code, the client lists a root of its own (the directory it
  // was started in), which lies outside the server's roots: by default the
  // server must still serve its own roots (client_roots = "ignore").
  const clientRoot = process.env.HOSTMCP_INTEROP_CLIENT_ROOT;
  // With a tree to delete, the client also declares form elicitation, as
  // Claude Code and VS Code do, and answers as a person would: no, then yes.
  const confirmPath = process.env.HOSTMCP_INTEROP_CONFIRM;
  const capabilities = {};
  if (clientRoot) capabilities.roots = { listChanged: true };
  if (confirmPath) capabilities.elicitation = { form: {} };
  const client = new Client({ name: "hostmcp-interop", version: "1.0.0" }, { capabilities });
  if (clientRoot) {
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: `file://${clientRoot}`, name: "cwd" }] }));
  }
  const asked = [];
  if (confirmPath) {
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params.message);
      return { action: asked.length === 1 ? "decline" : "accept" };
    });
  }
  const transport = makeTransport(t);
  const wire = recordWire(transport);
  await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
  try {
    const server = client.getServerVersion();
    const caps = client.getServerCapabilities() ?? {};
    summary.server = server ?? null;
    summary.protocol_version = transport.protocolVersion ?? null;
    summary.capabilities = Object.keys(caps).sort();
    if (!server?.name) fail("initialize: no serverInfo.name");
    for (const c of ["tools", "prompts", "resources"]) {
      if (!caps[c]) fail(`initialize: capability ${c} not advertised`);
    }

    const tools = await listAll((p, o) => client.listTools(p, o), "tools");
    summary.tools = tools.length;
    if (tools.length === 0) fail("tools/list: no tools");
    const compile = makeValidatorFactory();
    const validators = new Map();
    for (const tool of tools) {
      checkAnnotations(tool);
      if (!tool.outputSchema) {
        fail(`${tool.name}: no outputSchema`);
        continue;
      }
      try {
        validators.set(tool.name, compile(tool.outputSchema));
        compile(tool.inputSchema);
      } catch (e) {
        fail(`${tool.name}: schema does not compile: ${e.message}`);
      }
    }
    summary.annotated = tools.filter((tl) => ANNOTATIONS.every((k) => k in (tl.annotations ?? {}))).length;

    summary.calls = {};
    for (const name of CALLS) {
      const tool = tools.find((tl) => tl.name === name);
      if (!tool) {
        fail(`tools/list lacks ${name}`);
        continue;
      }
      try {
        summary.calls[name] = await callAndValidate(client, tool, validators.get(name));
      } catch (e) {
        // The SDK's own outputSchema check throws here; record it and go on
        // so one bad tool does not hide the rest of the report.
        fail(`${name}: tools/call: ${describe(e)}`);
      }
    }

    const readPath = process.env.HOSTMCP_INTEROP_READ;
    if (readPath) {
      const res = await callTool(client, { name: "fs_read", arguments: { path: readPath } }, undefined, { timeout: REQUEST_TIMEOUT_MS });
      const sc = res.structuredContent;
      if (sc?.success !== true) fail(`fs_read ${readPath}: ${JSON.stringify(sc?.error)}`);
      summary.read = sc?.data?.content ?? "";
    }

    checkEra(wire, caps);
    await checkProgress(client);
    summary.set_level_bogus = await setBadLevel(client);
    const bigPath = process.env.HOSTMCP_INTEROP_BIG;
    if (bigPath) summary.large = await checkLargeResult(client, bigPath);

    if (t.kind === "stdio") summary.oversize = await callOversized(client);
    if (confirmPath) summary.confirm = await checkConfirm(client, confirmPath, asked);

    const prompts = await listAll((p, o) => client.listPrompts(p, o), "prompts");
    summary.prompts = prompts.map((p) => p.name).sort();
    if (prompts.length === 0) fail("prompts/list: no prompts");

    const templates = await listAll((p, o) => client.listResourceTemplates(p, o), "resourceTemplates");
    summary.resource_templates = templates.map((r) => r.uriTemplate).sort();
    if (templates.length === 0) fail("resources/templates/list: no templates");
  } finally {
    await client.close();
  }
}

const watchdog = setTimeout(() => {
  fail(`timed out after ${TOTAL_TIMEOUT_MS} ms`);
  finish(1);
  process.exit(1);
}, TOTAL_TIMEOUT_MS);
watchdog.unref();

try {
  await run(parseArgs(process.argv.slice(2)));
  finish(0);
} catch (e) {
  fail(describe(e));
  finish(1);
}
clearTimeout(watchdog);
// Exit explicitly: a transport left half-open after a failure must not keep
// the process, and so the Go test, waiting.
process.exit(process.exitCode);
