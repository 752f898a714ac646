"use strict";
// hostmcp's MCP App view (SEP-1865, revision 2026-01-26): it speaks JSON-RPC
// with the host over postMessage, and draws the tool result the host passes
// in ui/notifications/tool-result. Every name in the data (process, function,
// device) is set as text, never parsed as markup.
(() => {
  const PROTOCOL = "2026-01-26";
  const host = window.parent;
  const main = document.getElementById("main");
  const pending = new Map();
  let nextId = 1;
  let hostCaps = {};
  let toolArgs = null;
  let hostTool = ""; // the tool the host opened the view for (hostContext.toolInfo)
  let redraw = null; // draws the current result again at a new width

  // --- the protocol -------------------------------------------------------

  function send(msg) {
    host.postMessage(Object.assign({ jsonrpc: "2.0" }, msg), "*");
  }
  function request(method, params) {
    const id = nextId++;
    send({ id, method, params });
    return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
  }
  function notify(method, params) {
    send({ method, params });
  }

  window.addEventListener("message", (ev) => {
    if (ev.source !== host) return; // only the host speaks to the view
    const m = ev.data;
    if (!m || typeof m !== "object" || m.jsonrpc !== "2.0") return;
    if (m.method === undefined) {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.error) p.reject(new Error(String(m.error.message || "the host answered an error")));
      else p.resolve(m.result || {});
      return;
    }
    onMessage(m);
  });

  function onMessage(m) {
    const params = m.params || {};
    switch (m.method) {
      case "ui/notifications/tool-input":
        toolArgs = params.arguments || {};
        status("The tool is running" + describeArgs(toolArgs) + ".");
        return;
      case "ui/notifications/tool-input-partial":
        return;
      case "ui/notifications/tool-result":
        show(params);
        return;
      case "ui/notifications/tool-cancelled":
        status("The call was cancelled" + (params.reason ? ": " + params.reason : "") + ".");
        return;
      case "ui/notifications/host-context-changed":
        applyContext(params);
        return;
      case "ui/resource-teardown":
      case "ping":
        if (m.id !== undefined) send({ id: m.id, result: {} });
        return;
    }
    if (m.id !== undefined) send({ id: m.id, error: { code: -32601, message: "method not found: " + m.method } });
  }

  // applyContext follows the host's theme, style variables and container,
  // and notes the tool the view was opened for.
  function applyContext(ctx) {
    const info = ctx.toolInfo && ctx.toolInfo.tool;
    if (info && typeof info.name === "string") hostTool = info.name;
    const root = document.documentElement;
    if (ctx.theme === "light" || ctx.theme === "dark") root.dataset.theme = ctx.theme;
    const vars = ctx.styles && ctx.styles.variables;
    if (vars && typeof vars === "object") {
      for (const [k, v] of Object.entries(vars)) {
        if (k.startsWith("--") && typeof v === "string") root.style.setProperty(k, v);
      }
    }
    const dim = ctx.containerDimensions;
    if (dim) {
      if ("height" in dim) root.style.height = "100vh";
      else if (dim.maxHeight) root.style.maxHeight = dim.maxHeight + "px";
      if ("width" in dim) root.style.width = "100vw";
      else if (dim.maxWidth) root.style.maxWidth = dim.maxWidth + "px";
    }
  }

  // reportSize tells the host the page's size, from initialization on, so
  // that a host sizing a flexible frame follows the drawing.
  function reportSize() {
    let last = "";
    new ResizeObserver(() => {
      const r = document.documentElement.getBoundingClientRect();
      const size = { width: Math.ceil(r.width), height: Math.ceil(document.documentElement.scrollHeight) };
      const key = size.width + "x" + size.height;
      if (key !== last) {
        last = key;
        notify("ui/notifications/size-changed", size);
      }
    }).observe(document.documentElement);
  }

  let lastWidth = 0;
  window.addEventListener("resize", () => {
    if (redraw && Math.abs(main.clientWidth - lastWidth) > 1) redraw();
  });

  // --- helpers ------------------------------------------------------------

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = String(text);
    return e;
  }
  function svg(tag, attrs) {
    const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    return e;
  }
  function status(text) {
    main.replaceChildren(el("p", "note", text));
    redraw = null;
  }
  function fmt(n, digits) {
    if (typeof n !== "number" || !isFinite(n)) return "";
    return n.toLocaleString("en-US", { maximumFractionDigits: digits === undefined ? 2 : digits });
  }
  function describeArgs(args) {
    const parts = Object.entries(args || {}).map(([k, v]) => k + " " + JSON.stringify(v));
    return parts.length ? " (" + parts.join(", ") + ")" : "";
  }
  function table(head, rows, numeric) {
    const t = el("table");
    const tr = el("tr");
    head.forEach((h, i) => tr.append(el("th", numeric[i] ? "num" : "", h)));
    t.append(tr);
    for (const r of rows) {
      const row = el("tr");
      r.forEach((c, i) => row.append(el("td", numeric[i] ? "num" : i === 0 ? "name" : "", c)));
      t.append(row);
    }
    return t;
  }

  // envelopeOf is hostmcp's envelope: the structured content, or the same
  // JSON as the first text item for a host that passes only content.
  function envelopeOf(result) {
    const sc = result && result.structuredContent;
    if (sc && typeof sc === "object" && "success" in sc) return sc;
    for (const c of (result && result.content) || []) {
      if (c && c.type === "text") {
        try {
          const v = JSON.parse(c.text);
          if (v && typeof v === "object" && "success" in v) return v;
        } catch (e) {
          /* not the envelope */
        }
      }
    }
    return null;
  }

  // --- a result -----------------------------------------------------------

  const titles = {
    perf_cpu_profile: "CPU profile",
    perf_offcpu_profile: "Off-CPU time",
    perf_sched_latency: "Scheduling delay",
    perf_io_latency: "Block I/O latency",
    perf_bio_latency: "Block I/O latency histogram",
    perf_runq_latency: "Run queue latency histogram",
  };

  // provenanceOf is who answered and when: the result's _meta, where
  // hostmcp puts it so that the model does not pay for it; an older
  // hostmcp had it in the envelope.
  function provenanceOf(result, env) {
    const meta = result && result._meta;
    const p = meta && meta["io.hostmcp/call"];
    return p && typeof p === "object" ? p : env;
  }

  function show(result) {
    const env = envelopeOf(result);
    redraw = null;
    main.replaceChildren();
    if (!env) {
      document.getElementById("title").textContent = "hostmcp";
      status("This result holds no hostmcp answer to draw.");
      return;
    }
    const call = provenanceOf(result, env);
    const tool = call.tool || hostTool;
    document.getElementById("title").textContent = titles[tool] || tool || "hostmcp";
    const meta = [tool, call.host, call.timestamp, call.duration_ms !== undefined ? fmt(call.duration_ms / 1000, 1) + " s" : ""];
    document.getElementById("meta").textContent = meta.filter(Boolean).join(" · ");
    if (!env.success) {
      const e = env.error || {};
      const p = el("p", "error");
      p.append(el("code", "", e.code || "ERROR"), document.createTextNode(" " + (e.message || "")));
      main.append(p);
      if (e.suggestion) main.append(el("p", "note", e.suggestion));
      return;
    }
    let data = env.data;
    if (env.truncated) {
      data = env.data_preview;
      main.append(el("p", "note", "The answer was over the output cap: this draws its preview; the whole of it is in the handle " + (env.handle || "") + "."));
    }
    if (Array.isArray(env.warnings) && env.warnings.length) {
      const ul = el("ul", "warnings");
      env.warnings.forEach((w) => ul.append(el("li", "", w)));
      main.append(ul);
    }
    if (!data || typeof data !== "object") {
      main.append(el("p", "note", "The result has no data to draw."));
      return;
    }
    const draw = views[tool];
    if (!draw) {
      main.append(el("p", "note", "hostmcp has no drawing for " + (tool || "this result") + "; its text answer says it all."));
      return;
    }
    Promise.resolve(draw(data, main)).catch((err) => main.append(el("p", "error", "Drawing failed: " + err.message)));
  }

  const views = {
    perf_cpu_profile: cpuProfile,
    perf_offcpu_profile: offCPU,
    perf_sched_latency: schedLatency,
    perf_io_latency: ioLatency,
    perf_bio_latency: histograms,
    perf_runq_latency: runqLatency,
  };

  // --- CPU profile --------------------------------------------------------

  async function cpuProfile(data, out) {
    const s = data.summary || {};
    const total = s.total_samples || 0;
    const head = [fmt(total, 0) + " samples", data.event, data.sample_rate_hz ? data.sample_rate_hz + " Hz" : "", data.duration_seconds ? fmt(data.duration_seconds) + " s" : ""];
    if (s.idle_samples) head.push(fmt(s.idle_percent) + "% idle");
    out.append(el("p", "note", head.filter(Boolean).join(" · ")));
    if (data.mode === "procfs") {
      out.append(el("p", "note", "perf was not available: CPU shares per process from /proc, without stacks."));
      out.append(shares("Processes", (s.processes || []).map((p) => [p.comm + " (" + p.pid + ")", p.samples, p.percent])));
      return;
    }
    const { stacks, source } = await cpuStacks(data);
    const box = el("section");
    out.append(box, el("p", "note", source));
    flameGraph(box, stacks, { unit: "samples", total: total });
    out.append(el("h2", "", "Top functions (self)"));
    out.append(table(["function", "module", "samples", "%"], (s.top_functions_self || []).map((f) => [f.function, f.module || "", fmt(f.samples, 0), fmt(f.percent)]), [false, false, true, true]));
    out.append(el("h2", "", "Top functions (total)"));
    out.append(table(["function", "module", "samples", "%"], (s.top_functions_total || []).map((f) => [f.function, f.module || "", fmt(f.samples, 0), fmt(f.percent)]), [false, false, true, true]));
  }

  // cpuStacks finds the profile's stacks: in the result when it was asked
  // for them, else in its collapsed artifact read through the host, else the
  // few hottest stacks the summary carries.
  async function cpuStacks(data) {
    if (typeof data.collapsed === "string" && data.collapsed.trim()) {
      return { stacks: parseCollapsed(data.collapsed), source: "Every sampled stack, from the result." };
    }
    const art = (data.artifacts || []).find((a) => a.type === "collapsed");
    let why = "the result names no collapsed stacks";
    if (art && hostCaps.serverResources) {
      try {
        const res = await request("resources/read", { uri: art.uri });
        const c = (res.contents || [])[0] || {};
        const text = typeof c.text === "string" ? c.text : typeof c.blob === "string" ? atob(c.blob) : "";
        if (text.trim()) return { stacks: parseCollapsed(text), source: "Every sampled stack, from the artifact " + art.id + "." };
        why = "the artifact " + art.id + " was empty";
      } catch (err) {
        why = "reading " + art.uri + " failed: " + err.message;
      }
    } else if (art) {
      why = "this host does not read resources for its views";
    }
    const hot = ((data.summary || {}).hottest_stacks || []).map((h) => [h.stack.split(";"), h.samples]);
    return { stacks: hot, source: "Only the hottest stacks the result lists (" + why + "); output_format \"collapsed\" puts every stack in the result." };
  }

  // parseCollapsed reads folded stacks: "root;...;leaf count" per line.
  function parseCollapsed(text) {
    const out = [];
    for (const line of text.split("\n")) {
      const sp = line.lastIndexOf(" ");
      if (sp <= 0) continue;
      const n = Number(line.slice(sp + 1));
      if (n > 0) out.push([line.slice(0, sp).split(";"), n]);
    }
    return out;
  }

  // --- off-CPU time -------------------------------------------------------

  function offCPU(data, out) {
    out.append(el("p", "note", [data.mechanism, fmt(data.duration_seconds) + " s window", (data.tasks_total || 0) + " threads off the CPU"].filter(Boolean).join(" · ")));
    (data.findings || []).forEach((f) => out.append(el("p", "", f)));
    const stacks = [];
    for (const t of data.tasks || []) {
      const who = t.task + " (" + t.tid + ")";
      const waits = t.waits && t.waits.length ? t.waits : [{ reason: t.top_reason || "off CPU", total_ms: t.off_cpu_ms }];
      for (const w of waits) {
        const frames = w.stack && w.stack.length ? w.stack.slice().reverse() : [w.reason];
        if (w.total_ms > 0) stacks.push([[who].concat(frames), w.total_ms]);
      }
    }
    if (stacks.length) {
      const box = el("section");
      out.append(el("h2", "", "Where the listed threads waited (ms)"), box);
      out.append(el("p", "note", "Each thread's waits by reason, on the kernel stack that held the most of that reason's time (at most 8 frames)."));
      flameGraph(box, stacks, { unit: "ms" });
    }
    if (data.top_reasons && data.top_reasons.length) {
      out.append(shares("Wait reasons over every thread (ms)", data.top_reasons.map((r) => [r.reason + (r.kind ? " (" + r.kind + ")" : ""), r.total_ms, null])));
    }
  }

  // --- scheduling delay ---------------------------------------------------

  function schedLatency(data, out) {
    out.append(el("p", "note", [fmt(data.duration_seconds) + " s window", (data.tasks_seen || 0) + " tasks seen"].join(" · ")));
    (data.findings || []).forEach((f) => out.append(el("p", "", f)));
    out.append(shares("Longest wait for a CPU per task (ms)", (data.tasks || []).map((t) => [t.task + (t.tid ? " (" + t.tid + ")" : ""), t.max_delay_ms, null])));
    out.append(table(["task", "runtime ms", "switches", "avg delay ms", "max delay ms"], (data.tasks || []).map((t) => [t.task, fmt(t.runtime_ms), fmt(t.switches, 0), fmt(t.avg_delay_ms, 3), fmt(t.max_delay_ms, 3)]), [false, true, true, true, true]));
  }

  // --- latency histograms -------------------------------------------------

  function ioLatency(data, out) {
    const devs = data.devices || [];
    out.append(el("p", "note", [data.mode, data.mechanism, fmt(data.duration_seconds) + " s"].filter(Boolean).join(" · ")));
    const hists = devs.filter((d) => d.histogram_us).map((d) => Object.assign({}, d.histogram_us, { key: d.device }));
    if (hists.length) {
      hists.forEach((h) => histogram(out, h, "us"));
      return;
    }
    const rows = devs.filter((d) => d.snapshot).map((d) => [d.device, d.snapshot]);
    if (!rows.length) {
      out.append(el("p", "note", "No device did any I/O in the window."));
      return;
    }
    const cols = [["avg_wait_ms", "await ms"], ["r_await_ms", "r_await ms"], ["w_await_ms", "w_await ms"], ["avg_queue_size", "aqu-sz"], ["utilization", "%util"], ["reads_per_sec", "r/s"], ["writes_per_sec", "w/s"]];
    out.append(shares("Average wait per request (ms)", rows.map(([n, s]) => [n, s.avg_wait_ms, null])));
    out.append(table(["device"].concat(cols.map((c) => c[1])), rows.map(([n, s]) => [n].concat(cols.map((c) => fmt(s[c[0]])))), [false].concat(cols.map(() => true))));
  }

  function runqLatency(data, out) {
    histograms(data, out);
    if (data.processes && data.processes.length) {
      out.append(shares("Time waiting for a CPU per process (ms)", data.processes.map((p) => [p.comm + " (" + p.pid + ")", p.total_wait_ms, null])));
    }
  }

  function histograms(data, out) {
    const unit = data.unit || "us";
    out.append(el("p", "note", [data.mechanism, fmt(data.total, 0) + " events", data.histogram_type].filter(Boolean).join(" · ")));
    const hs = data.histograms || [];
    if (!hs.length) out.append(el("p", "note", "Nothing was measured in the window."));
    hs.forEach((h) => histogram(out, h, unit));
  }

  // histogram draws one distribution as a bar per bucket, its width the
  // bucket's share of the fullest one.
  function histogram(out, h, unit) {
    out.append(el("h2", "", (h.key || "all") + " · " + fmt(h.count, 0) + " events"));
    out.append(el("p", "percentiles", ["p50", "p90", "p95", "p99", "max"].filter((k) => h[k] !== undefined).map((k) => k + " ≤ " + fmt(h[k], 0) + " " + unit).join("   ")));
    const buckets = h.buckets || [];
    const most = Math.max(1, ...buckets.map((b) => b.count || 0));
    const grid = el("div", "hist");
    grid.dataset.key = h.key || "all";
    for (const b of buckets) {
      const track = el("div", "track");
      const bar = el("div", "bar" + (b.count ? "" : " empty"));
      bar.dataset.count = String(b.count || 0);
      bar.style.width = ((100 * (b.count || 0)) / most).toFixed(3) + "%";
      track.append(bar);
      grid.append(el("div", "label", fmt(b.min, 0) + " – " + fmt(b.max, 0) + " " + unit), track, el("div", "count", fmt(b.count, 0)));
    }
    out.append(grid);
  }

  // shares draws named values as bars against the largest.
  function shares(title, rows) {
    const box = el("section");
    box.append(el("h2", "", title));
    const most = Math.max(1e-9, ...rows.map((r) => r[1] || 0));
    const grid = el("div", "hist");
    for (const [name, v, pct] of rows) {
      const track = el("div", "track");
      const bar = el("div", "bar" + (v ? "" : " empty"));
      bar.dataset.count = String(v || 0);
      bar.style.width = ((100 * (v || 0)) / most).toFixed(3) + "%";
      track.append(bar);
      grid.append(el("div", "label", name), track, el("div", "count", fmt(v) + (pct !== null && pct !== undefined ? " (" + fmt(pct) + "%)" : "")));
    }
    box.append(grid);
    return box;
  }

  // --- flame graph --------------------------------------------------------

  const ROW = 17;
  const MIN_WIDTH = 0.5; // pixels: narrower frames are left out, as flamegraph.pl does

  // buildTree merges stacks (root first) into one tree of frames.
  function buildTree(stacks) {
    const root = { name: "all", value: 0, kids: new Map(), parent: null };
    for (const [frames, n] of stacks) {
      root.value += n;
      let node = root;
      for (const f of frames) {
        let c = node.kids.get(f);
        if (!c) {
          c = { name: f, value: 0, kids: new Map(), parent: node };
          node.kids.set(f, c);
        }
        c.value += n;
        node = c;
      }
    }
    return root;
  }

  function depthOf(node) {
    let d = 0;
    for (const c of node.kids.values()) d = Math.max(d, depthOf(c));
    return d + 1;
  }

  // color is a warm colour of the name's hash, as flame graphs are drawn:
  // the same function has the same colour everywhere.
  function color(name) {
    let h = 2166136261;
    for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
    const v = (h >>> 0) / 4294967295;
    return "rgb(" + (205 + Math.round(50 * v)) + "," + Math.round(80 + 150 * ((v * 7) % 1)) + "," + Math.round(55 * ((v * 13) % 1)) + ")";
  }

  // flameGraph draws stacks into box, root at the bottom, each frame's width
  // its share of the samples. A click on a frame zooms to it, a click on the
  // root zooms out; the search box marks matching frames and sums them.
  function flameGraph(box, stacks, opts) {
    const root = buildTree(stacks);
    if (!root.value) {
      box.append(el("p", "note", "No stacks to draw."));
      return;
    }
    const bar = el("div", "toolbar");
    const search = el("input");
    search.type = "search";
    search.placeholder = "Search frames (regular expression)";
    const reset = el("button", "", "Reset zoom");
    const found = el("span", "note");
    bar.append(search, reset, found);
    const detail = el("div", "detail", "Click a frame to zoom into it.");
    const holder = el("div");
    box.append(bar, holder, detail);
    let focus = root;

    const describe = (n) => n.name + " — " + fmt(n.value, opts.unit === "ms" ? 2 : 0) + " " + opts.unit + " (" + fmt((100 * n.value) / root.value) + "%)";

    function draw() {
      const width = Math.max(200, holder.clientWidth || main.clientWidth || 800);
      lastWidth = main.clientWidth;
      let ancestors = [];
      for (let n = focus; n; n = n.parent) ancestors.unshift(n);
      const depth = ancestors.length - 1 + depthOf(focus);
      const height = depth * ROW;
      const g = svg("svg", { class: "flame", width: width, height: height, viewBox: "0 0 " + width + " " + height, role: "img" });
      g.dataset.total = String(root.value);
      g.dataset.focus = focus.name;
      const scale = width / focus.value;
      const frame = (n, x, w, level, dim) => {
        const y = height - (level + 1) * ROW;
        const f = svg("g", { class: "frame" + (dim ? " dim" : "") });
        f.dataset.name = n.name;
        f.dataset.value = String(n.value);
        f.dataset.depth = String(level);
        const title = svg("title");
        title.textContent = describe(n);
        const r = svg("rect", { x: x.toFixed(2), y: y, width: w.toFixed(2), height: ROW - 1, rx: 1.5, fill: color(n.name) });
        f.append(title, r);
        const chars = Math.floor((w - 6) / 6.7);
        if (chars >= 3) {
          const t = svg("text", { x: (x + 3).toFixed(2), y: y + ROW - 5 });
          t.textContent = n.name.length > chars ? n.name.slice(0, chars - 2) + ".." : n.name;
          f.append(t);
        }
        f.addEventListener("click", () => {
          focus = n === focus && n.parent ? n.parent : n;
          draw();
        });
        f.addEventListener("mouseenter", () => (detail.textContent = describe(n)));
        g.append(f);
      };
      ancestors.slice(0, -1).forEach((n, i) => frame(n, 0, width, i, true));
      const place = (n, x, level) => {
        const w = n.value * scale;
        if (w < MIN_WIDTH) return;
        frame(n, x, w, level, false);
        let cx = x;
        for (const c of Array.from(n.kids.values()).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
          place(c, cx, level + 1);
          cx += c.value * scale;
        }
      };
      place(focus, 0, ancestors.length - 1);
      holder.replaceChildren(g);
      mark();
    }

    function mark() {
      let re = null;
      if (search.value) {
        try {
          re = new RegExp(search.value);
        } catch (e) {
          found.textContent = "not a regular expression";
          return;
        }
      }
      let sum = 0;
      holder.querySelectorAll("g.frame").forEach((f) => {
        const hit = re !== null && re.test(f.dataset.name);
        f.classList.toggle("match", hit);
      });
      if (re) {
        // A match's samples count once, however deep it recurs.
        const walk = (n, inside) => {
          const hit = re.test(n.name);
          if (hit && !inside) sum += n.value;
          for (const c of n.kids.values()) walk(c, inside || hit);
        };
        walk(root, false);
        found.textContent = "matched " + fmt((100 * sum) / root.value) + "% of " + opts.unit;
      } else {
        found.textContent = "";
      }
    }

    search.addEventListener("input", mark);
    reset.addEventListener("click", () => {
      focus = root;
      draw();
    });
    redraw = draw;
    draw();
  }

  // --- start --------------------------------------------------------------

  request("ui/initialize", {
    protocolVersion: PROTOCOL,
    appInfo: { name: "hostmcp profile view", version: "1" },
    appCapabilities: { availableDisplayModes: ["inline"] },
  })
    .then((res) => {
      hostCaps = res.hostCapabilities || {};
      applyContext(res.hostContext || {});
      notify("ui/notifications/initialized", {});
      reportSize();
    })
    .catch((err) => status("The host refused to start the view: " + err.message));
})();
