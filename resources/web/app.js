// TWTW players' device page. The state comes from the Judge's machine (only what this
// page may see) as a full state, then merge patches numbered one by one; a lost
// connection reconnects by itself and asks for what it missed (?since=N).
"use strict";
(function () {
  var SVGNS = "http://www.w3.org/2000/svg";
  var SQ3 = Math.sqrt(3);
  var state = null, seq = 0, ws = null, retry = 500, revoked = false;
  var view = null, fitted = false, mapKey = "";
  // declaring (issue 39): what the table says this character may do now (asked after
  // every update; computed on the Judge's machine), the hex or figure tapped, and the
  // answers to this page's requests by number
  var opts = null, picked = null, answers = {}, askTimer = null;
  var $ = function (id) { return document.getElementById(id); };

  function el(name, attrs, text) {
    var e = document.createElementNS(SVGNS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function h(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function applyPatch(target, patch) {
    var out = (target && typeof target === "object" && !Array.isArray(target)) ? Object.assign({}, target) : {};
    Object.keys(patch).forEach(function (k) {
      var v = patch[k];
      if (v === null) delete out[k];
      else if (typeof v === "object" && !Array.isArray(v)) out[k] = applyPatch(out[k], v);
      else out[k] = v;
    });
    return out;
  }

  // -- hex geometry (map units: a hex's outer radius is 1) --
  function pointy() { return state.map.orient === "pointy"; }
  function centre(q, r) {
    return pointy() ? [SQ3 * q + SQ3 / 2 * r, 1.5 * r] : [1.5 * q, SQ3 / 2 * q + SQ3 * r];
  }
  function axial(col, row) {
    return pointy() ? [col - (row - (row & 1)) / 2, row] : [col, row - (col - (col & 1)) / 2];
  }
  function corners(q, r) {
    var c = centre(q, r), start = pointy() ? 0.5 : 0, pts = [];
    for (var i = 0; i < 6; i++) {
      var a = 2 * Math.PI * (start + i) / 6;
      pts.push((c[0] + Math.cos(a)).toFixed(3) + "," + (c[1] + Math.sin(a)).toFixed(3));
    }
    return pts;
  }
  function bounds() {
    var m = state.map, xs = [], ys = [];
    [[0, 0], [m.cols - 1, 0], [0, m.rows - 1], [m.cols - 1, m.rows - 1], [1, 1], [m.cols - 2, m.rows - 2]]
      .forEach(function (cr) { var a = axial(cr[0], cr[1]), c = centre(a[0], a[1]); xs.push(c[0]); ys.push(c[1]); });
    var x0 = Math.min.apply(null, xs) - 1.2, y0 = Math.min.apply(null, ys) - 1.2;
    return [x0, y0, Math.max.apply(null, xs) + 1.2 - x0, Math.max.apply(null, ys) + 1.2 - y0];
  }

  // -- drawing --
  function drawGround() {
    var m = state.map, g = $("ground"), paths = {};
    g.textContent = "";
    if (m.bg) {
      var b = m.bg, img = el("image", { x: b.x, y: b.y, width: b.w, height: b.h, opacity: b.op,
        preserveAspectRatio: "none", "class": "background", href: "background?v=" + b.v });
      if (b.rot) img.setAttribute("transform", "rotate(" + b.rot + " " + b.x + " " + b.y + ")");
      g.appendChild(img);
    }
    for (var row = 0; row < m.rows; row++) {
      var line = m.terrain[row];
      for (var col = 0; col < m.cols; col++) {
        var code = line[col];
        if (code === " ") continue;  // a hex this character has never seen: nothing of it is sent
        var a = axial(col, row);
        paths[code] = (paths[code] || "") + "M" + corners(a[0], a[1]).join("L") + "Z";
      }
    }
    Object.keys(paths).forEach(function (code) {
      g.appendChild(el("path", { d: paths[code], fill: m.colours[code] || "#ccc", "fill-opacity": m.bg ? 0.12 : 1,
        stroke: "#a89472", "stroke-width": 0.03, "class": "hexes" }));
    });
    var w = $("walls");
    w.textContent = "";
    m.walls.forEach(function (f) {
      var pts = f[3].map(function (p) { return p[0] + "," + p[1]; }).join(" ");
      var low = f[2] !== "full", open = f[1] === 1;
      w.appendChild(el("polyline", { points: pts, fill: "none", stroke: open ? "#c9a36b" : (low ? "#7a4a21" : "#2b1a0c"),
        "stroke-width": low ? 0.16 : 0.28, "stroke-dasharray": open ? "0.3 0.2" : "none", "stroke-linecap": "round", "class": "wall" }));
    });
    var lb = $("labels");
    lb.textContent = "";
    m.labels.forEach(function (l) {
      lb.appendChild(el("text", { x: l[0], y: l[1], "font-size": 0.8 * l[3], "text-anchor": "middle", "class": "map-label" }, l[2]));
    });
    m.markers.forEach(function (mk) {
      var c = centre(mk[0], mk[1]);
      lb.appendChild(el("circle", { cx: c[0], cy: c[1], r: 0.35, fill: "#e0b040", stroke: "#2b1a0c", "stroke-width": 0.06, "class": "marker" }));
      if (mk[3]) lb.appendChild(el("text", { x: c[0], y: c[1] + 0.9, "font-size": 0.45, "text-anchor": "middle", "class": "map-label" }, mk[3]));
    });
  }
  function drawFog() {
    var g = $("fog");
    g.textContent = "";
    var runs = state.fog;
    if (!runs) return;
    var m = state.map, i = 0, paths = ["", ""];
    for (var k = 0; k < runs.length; k += 2) {
      var s = runs[k], n = runs[k + 1];
      if (s < 2) {
        for (var j = 0; j < n; j++) {
          var idx = i + j, a = axial(idx % m.cols, Math.floor(idx / m.cols));
          paths[s] += "M" + corners(a[0], a[1]).join("L") + "Z";
        }
      }
      i += n;
    }
    if (paths[0]) g.appendChild(el("path", { d: paths[0], fill: "#0e0b08", "fill-opacity": 0.93, stroke: "#0e0b08", "stroke-width": 0.05, "class": "fog-unknown" }));
    if (paths[1]) g.appendChild(el("path", { d: paths[1], fill: "#0e0b08", "fill-opacity": 0.55, "class": "fog-remembered" }));
  }
  function drawTokens() {
    var g = $("tokens");
    g.textContent = "";
    var toks = state.tokens || {};
    Object.keys(toks).forEach(function (id) {
      var t = toks[id], c = centre(t.q, t.r), grp = el("g", { "class": "token" + (t.me ? " me" : ""), "data-id": id, "data-side": t.side || "" });
      var fill = t.out ? "#8c8c8c" : (t.side === "posse" ? "#2f5f9e" : (t.side === "hombres" ? "#a3302a" : "#6d6d6d"));
      var a = ((pointy() ? 0 : -30) + 60 * t.f) * Math.PI / 180, dx = Math.cos(a), dy = -Math.sin(a);
      grp.appendChild(el("polygon", { points: [c[0] + dx * 0.98, c[1] + dy * 0.98, c[0] + dx * 0.55 - dy * 0.32, c[1] + dy * 0.55 + dx * 0.32,
        c[0] + dx * 0.55 + dy * 0.32, c[1] + dy * 0.55 - dx * 0.32].join(" "), fill: t.me ? "#f2b630" : "#1d140b", "class": "facing" }));
      if (t.me) grp.appendChild(el("circle", { cx: c[0], cy: c[1], r: 0.78, fill: "none", stroke: "#f2b630", "stroke-width": 0.16 }));
      grp.appendChild(el("circle", { cx: c[0], cy: c[1], r: 0.62, fill: fill, stroke: "#fff", "stroke-width": 0.07 }));
      if (t.ini) grp.appendChild(el("text", { x: c[0], y: c[1], "font-size": 0.55, "class": "tok-text" }, t.ini));
      if (t.out) grp.appendChild(el("path", { d: "M" + (c[0] - .4) + "," + (c[1] - .4) + "L" + (c[0] + .4) + "," + (c[1] + .4) +
        "M" + (c[0] + .4) + "," + (c[1] - .4) + "L" + (c[0] - .4) + "," + (c[1] + .4), stroke: "#000", "stroke-width": 0.12 }));
      if (t.wl) grp.appendChild(el("text", { x: c[0] + 0.55, y: c[1] - 0.55, "font-size": 0.45, fill: "#b33a2a", "font-weight": 700 }, String(t.wl)));
      if (t.name) grp.appendChild(el("title", {}, t.name));
      g.appendChild(grp);
    });
  }
  function drawRing() {
    var g = $("ring");
    g.textContent = "";
    if (!state.ring) return;
    var c = centre(state.ring[0], state.ring[1]);
    [[1.05, 0.34, "#000", 0.55], [1.05, 0.2, "#ff4628", 1], [1.45, 0.12, "#ff4628", 1]].forEach(function (k) {
      g.appendChild(el("circle", { cx: c[0], cy: c[1], r: k[0], fill: "none", stroke: k[2], "stroke-width": k[1], "stroke-opacity": k[3], "class": "ring" }));
    });
  }
  function setView(v) {
    view = v;
    $("map").setAttribute("viewBox", v.map(function (x) { return x.toFixed(3); }).join(" "));
  }
  function meCentre() {
    var toks = state && state.tokens || {};
    for (var id in toks) if (toks[id].me) return centre(toks[id].q, toks[id].r);
    return null;
  }
  function fit(onMe) {
    if (!state || !state.map) return;
    var b = bounds(), c = onMe ? meCentre() : null;
    if (c) setView([c[0] - 9, c[1] - 9, 18, 18]); else setView(b);
  }
  function row(tbody, cells, cls) {
    var tr = h("tr");
    cells.forEach(function (x, i) { tr.appendChild(h("td", (cls || [])[i] || "", String(x))); });
    tbody.appendChild(tr);
  }
  function drawSheet() {
    var box = $("sheet");
    box.textContent = "";
    var s = state.sheet;
    if (!s) return;
    var flags = h("div", "flags");
    ["stunned", "concussed", "unconscious", "dead"].forEach(function (k) { if (s[k]) flags.appendChild(h("span", "", k)); });
    box.appendChild(flags);
    box.appendChild(h("h2", "", "Wounds — " + s.level));
    var t = h("table", "wounds"), tb = h("tbody");
    s.wounds.forEach(function (w) { row(tb, [w[0], w[1] ? "●".repeat(w[1]) : "–", w[1]], ["", "pips", "n"]); });
    row(tb, ["Concussion", "", s.conc[0] + " / " + s.conc[1]], ["", "", "n"]);
    t.appendChild(tb); box.appendChild(t);
    box.appendChild(h("h2", "", "Action"));
    var ta = h("table", "action"), tab = h("tbody");
    row(tab, ["AP", s.ap], ["", "n"]);
    if (s.track) {
      var tr = s.track;
      if (tr.ap !== undefined) row(tab, ["AP this round", tr.ap], ["", "n"]);
      if (tr.counters !== undefined) row(tab, ["Counters on the track", tr.counters], ["", "n"]);
      if (tr.spent !== undefined) row(tab, ["Spent", tr.spent], ["", "n"]);
      if (tr.from !== undefined) row(tab, ["Starts on segment", tr.from], ["", "n"]);
      if (tr.speed) row(tab, ["Speed", tr.speed], ["", "n"]);
      if (tr.phase) row(tab, ["Phase", tr.phase], ["", "n"]);
      if (tr.status) row(tab, ["Status", tr.status], ["", "n"]);
    }
    row(tab, ["Posture", s.posture], ["", "n"]);
    ta.appendChild(tab); box.appendChild(ta);
    box.appendChild(h("h2", "", "Weapons"));
    var tw = h("table", "weapons"), twb = h("tbody");
    var hd = h("tr");
    ["", "Loaded", "Cocked", "Readied"].forEach(function (x) { hd.appendChild(h("th", "", x)); });
    twb.appendChild(hd);
    s.weapons.forEach(function (w) {
      var tr = h("tr");
      tr.appendChild(h("td", "", w.name + (w.failure ? " (" + w.failure + ")" : "")));
      tr.appendChild(h("td", "n", String(w.loaded)));
      tr.appendChild(h("td", w.cocked ? "yes" : "no", w.cocked ? "yes" : "no"));
      tr.appendChild(h("td", w.readied ? "yes" : "no", w.readied ? (w.hand ? w.hand + " hand" : "yes") : "no"));
      twb.appendChild(tr);
    });
    tw.appendChild(twb); box.appendChild(tw);
    box.appendChild(h("h2", "", "Skills"));
    var ts = h("table", "skills"), tsb = h("tbody");
    s.skills.forEach(function (k) { row(tsb, [k[0].replace(/_/g, " "), k[2], k[1]], ["", "no", "n"]); });
    ts.appendChild(tsb); box.appendChild(ts);
  }
  function drawStrip() {
    var box = $("strip");
    box.textContent = "";
    if (!state.strip || !state.strip.length) return;
    box.appendChild(h("h2", "", "The posse"));
    var t = h("table"), tb = h("tbody");
    state.strip.forEach(function (e) { row(tb, [e[0], e[1]], ["", "n"]); });
    t.appendChild(tb); box.appendChild(t);
  }
  function render(changed) {
    if (!state) return;
    $("title").textContent = state.title || "";
    document.title = (state.title || "TWTW") + " — TWTW";
    $("clock").textContent = state.clock || "";
    if (state.map && (changed.map || !fitted)) {
      var key = state.map.cols + "x" + state.map.rows + state.map.orient;
      drawGround();
      if (!fitted || key !== mapKey) { fit(state.kind === "character"); fitted = true; mapKey = key; }
    }
    if (state.map && (changed.map || changed.fog)) drawFog();
    if (state.map && (changed.map || changed.tokens)) drawTokens();
    if (state.map && (changed.map || "ring" in changed)) drawRing();
    if (changed.sheet) drawSheet();
    if (changed.strip) drawStrip();
    if (state.map && (changed.map || changed.tokens)) drawReach();
    drawDeclare();
    var table = state.kind === "table";
    $("btn-me").hidden = table;
    $("side").hidden = table && !(state.strip && state.strip.length) && !state.card;
    var card = $("card");
    if (state.card) { card.hidden = false; card.textContent = "Card " + state.card.n + " · shield " + state.card.shield; }
    else card.hidden = true;
  }

  // -- declaring --
  function refKey(c, r) { return c + "," + r; }
  function axialOfRef(col, row) { return axial(col - 1, row - 1); }
  function hexAt(x, y) {
    var q, r;
    if (pointy()) { q = SQ3 / 3 * x - y / 3; r = 2 / 3 * y; } else { q = 2 / 3 * x; r = -x / 3 + SQ3 / 3 * y; }
    var s3 = -q - r, rq = Math.round(q), rr = Math.round(r), rs = Math.round(s3);
    var dq = Math.abs(rq - q), dr = Math.abs(rr - r), ds = Math.abs(rs - s3);
    if (dq > dr && dq > ds) rq = -rr - rs; else if (dr > ds) rr = -rq - rs;
    var col, row;
    if (pointy()) { row = rr; col = rq + (rr - (rr & 1)) / 2; } else { col = rq; row = rr + (rq - (rq & 1)) / 2; }
    return [col + 1, row + 1, rq, rr];
  }
  function drawReach() {
    var g = $("reach");
    g.textContent = "";
    if (!opts || !state || !state.map) return;
    var d = "";
    opts.reach.forEach(function (e) {
      var a = axialOfRef(e[0], e[1]), c = centre(a[0], a[1]);
      d += "M" + corners(a[0], a[1]).join("L") + "Z";
      g.appendChild(el("text", { x: c[0], y: c[1], "class": "reach-ap" }, String(e[2])));
    });
    if (d) g.insertBefore(el("path", { d: d, fill: "#3c8d3c", "fill-opacity": 0.22, stroke: "#1f6e1f",
      "stroke-width": 0.04, "class": "reach" }), g.firstChild);
  }
  function drawPick() {
    var g = $("pick");
    g.textContent = "";
    if (!picked || picked.kind !== "hex") return;
    var a = axialOfRef(picked.ref[0], picked.ref[1]), c = centre(a[0], a[1]);
    g.appendChild(el("circle", { cx: c[0], cy: c[1], r: 0.9, fill: "none", stroke: "#f2b630", "stroke-width": 0.18 }));
  }
  function button(label, ap, why, declare, id) {
    var b = h("button");
    if (id) b.id = id;
    b.type = "button";
    b.appendChild(h("span", "", label));
    if (ap !== null && ap !== undefined) b.appendChild(h("span", "ap", ap + " AP"));
    if (why) { b.appendChild(h("span", "why", why)); b.disabled = true; }
    b.addEventListener("click", function () { send({ declare: declare }); });
    return b;
  }
  function drawDeclare() {
    var box = $("declare");
    box.hidden = !state || state.kind !== "character";
    var p = $("picked"), acts = $("acts");
    p.textContent = ""; acts.textContent = "";
    if (!opts) return;
    if (picked && picked.kind === "hex") {
      var hit = null;
      opts.reach.forEach(function (e) { if (e[0] === picked.ref[0] && e[1] === picked.ref[1]) hit = e; });
      var dest = "[" + picked.ref[0] + ", " + picked.ref[1] + "]";
      p.appendChild(button("Move to " + dest, hit ? hit[2] : null, hit ? null : "Out of reach now.",
        { do: "move", to: picked.ref }, "btn-move"));
    } else if (picked && picked.kind === "token") {
      var t = opts.targets[picked.id], tok = state.tokens[picked.id];
      if (!t && tok) p.appendChild(h("div", "", "Pricing the shot…"));
      if (t && tok) {
        var who = tok.name || picked.id;
        p.appendChild(h("div", "", "Shoot at " + who + (t.tn !== undefined ? " — TN " + t.tn : "")));
        var ul = h("ul", "items");
        (t.tn_items || []).concat(t.ap_items || []).forEach(function (x) { ul.appendChild(h("li", "", x)); });
        p.appendChild(ul);
        p.appendChild(button("Shoot (normal shot)", t.ap, t.why, t.declare, "btn-shoot"));
        p.appendChild(button("Aim", null, null, { do: "aim", target: picked.id }, "btn-aim"));
      }
    }
    // what the run waits for from this character (000 Action Timing / Determine Bonus)
    var turn = $("turn"), t = opts.turn || {};
    turn.textContent = "";
    turn.hidden = !t.able && !t.bid;
    if (t.able) turn.appendChild(h("div", "", "Your turn: you can act now with nothing declared. Declare (tap a hex or a figure), or pass."));
    if (t.bid) turn.appendChild(h("div", "", "AP from the pool for the stack: up to " + t.bid + ". Bid, or no bid."));
    opts.actions.forEach(function (a) {
      var d = a.declare, id = d.do === "pass" ? "btn-pass" : (d.do === "stack_bonus" ? "btn-bid-" + d.ap : undefined);
      var b = button(a.label, d.do === "stack_bonus" ? null : a.ap, a.why, d, id);
      if (d.do === "stack_bonus" || (t.able && d.do === "pass")) turn.appendChild(b); else acts.appendChild(b);
    });
    if (opts.wait) {
      var n = Math.min(opts.wait, 20);
      acts.appendChild(button("Wait until " + n + " counters", null, null, { do: "wait_until", counters: n }));
    }
  }
  function drawRequests() {
    var ul = $("requests");
    ul.textContent = "";
    Object.keys(answers).map(Number).sort(function (a, b) { return b - a; }).slice(0, 8).forEach(function (n) {
      var a = answers[n], li = h("li", a.status);
      li.setAttribute("data-request", String(n));
      li.appendChild(h("span", "st", a.status));
      li.appendChild(h("span", "", a.why || ""));
      ul.appendChild(li);
    });
  }
  function tap(x, y, target) {
    if (!state || state.kind !== "character" || !view) return;
    var g = target && target.closest ? target.closest("g.token") : null;
    if (g && !g.classList.contains("me")) {
      picked = { kind: "token", id: g.getAttribute("data-id") };
      askOptions();
    } else {
      var p = svgPoint(x, y), hx = hexAt(p[0], p[1]);
      picked = { kind: "hex", ref: [hx[0], hx[1]] };
    }
    drawPick();
    drawDeclare();
  }

  // -- the connection --
  function all() { return { map: 1, fog: 1, tokens: 1, sheet: 1, strip: 1, ring: 1 }; }
  function send(x) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(x)); }
  function askOptions() {
    if (!state || state.kind !== "character") return;
    clearTimeout(askTimer);
    askTimer = setTimeout(function () {
      send({ options: picked && picked.kind === "token" ? { target: picked.id } : {} });
    }, 150);
  }
  function onMessage(ev) {
    var msg = JSON.parse(ev.data);
    if (msg.options) { opts = msg.options; drawReach(); drawDeclare(); return; }
    if (msg.request !== undefined) { answers[msg.request] = msg; drawRequests(); return; }
    if (msg.full) { state = msg.full; seq = msg.seq; render(all()); askOptions(); return; }
    if (msg.seq !== seq + 1) { ws.close(); return; }  // a gap: reconnect and catch up
    state = applyPatch(state, msg.patch);
    seq = msg.seq;
    render(msg.patch);
    askOptions();
  }
  function setStatus(on) {
    var s = $("status");
    s.textContent = revoked ? "address revoked" : (on ? "live" : "offline");
    s.className = on ? "on" : "off";
  }
  function connect() {
    var url = new URL("ws?since=" + seq, location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(url.href);
    ws.onopen = function () { retry = 500; setStatus(true); };
    ws.onmessage = onMessage;
    ws.onclose = function (ev) {
      setStatus(false);
      if (ev.code === 4403) { revoked = true; setStatus(false); return; }
      // replaced by a newer page of this device: back when this one is shown again
      if (ev.code === 4409) return;
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 5000);
    };
  }
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && ws && ws.readyState > 1 && !revoked) { retry = 500; connect(); }
  });

  // -- pan and zoom (touch, mouse, wheel) --
  var pointers = {}, pinch = null, down = null;
  function svgPoint(x, y) {
    var r = $("map").getBoundingClientRect();
    var s = Math.max(view[2] / r.width, view[3] / r.height);
    var ox = view[0] + (view[2] - r.width * s) / 2, oy = view[1] + (view[3] - r.height * s) / 2;
    return [ox + (x - r.left) * s, oy + (y - r.top) * s, s];
  }
  function zoomAt(x, y, k) {
    if (!view) return;
    var p = svgPoint(x, y), w = Math.min(Math.max(view[2] / k, 4), 400), kk = view[2] / w;
    setView([p[0] - (p[0] - view[0]) / kk, p[1] - (p[1] - view[1]) / kk, w, view[3] / kk]);
  }
  var svg = $("map");
  svg.addEventListener("pointerdown", function (e) {
    down = Object.keys(pointers).length ? null : [e.clientX, e.clientY, e.target];
    svg.setPointerCapture(e.pointerId); pointers[e.pointerId] = [e.clientX, e.clientY]; pinch = null;
  });
  svg.addEventListener("pointermove", function (e) {
    var prev = pointers[e.pointerId];
    if (!prev || !view) return;
    var ids = Object.keys(pointers);
    if (ids.length === 1) {
      var s = svgPoint(0, 0)[2];
      setView([view[0] - (e.clientX - prev[0]) * s, view[1] - (e.clientY - prev[1]) * s, view[2], view[3]]);
    } else if (ids.length === 2) {
      var other = pointers[ids[0] == e.pointerId ? ids[1] : ids[0]];
      var d = Math.hypot(e.clientX - other[0], e.clientY - other[1]);
      if (pinch) zoomAt((e.clientX + other[0]) / 2, (e.clientY + other[1]) / 2, d / pinch);
      pinch = d;
    }
    pointers[e.pointerId] = [e.clientX, e.clientY];
  });
  function up(e) {
    var p = pointers[e.pointerId];
    delete pointers[e.pointerId]; pinch = null;
    if (e.type === "pointerup" && down && p && Math.hypot(e.clientX - down[0], e.clientY - down[1]) < 10) tap(e.clientX, e.clientY, down[2]);
    down = null;
  }
  svg.addEventListener("pointerup", up);
  svg.addEventListener("pointercancel", up);
  svg.addEventListener("wheel", function (e) { e.preventDefault(); zoomAt(e.clientX, e.clientY, e.deltaY < 0 ? 1.15 : 1 / 1.15); }, { passive: false });
  $("btn-me").addEventListener("click", function () { fit(true); });
  $("btn-fit").addEventListener("click", function () { fit(false); });
  $("btn-in").addEventListener("click", function () { var r = svg.getBoundingClientRect(); zoomAt(r.left + r.width / 2, r.top + r.height / 2, 1.4); });
  $("btn-out").addEventListener("click", function () { var r = svg.getBoundingClientRect(); zoomAt(r.left + r.width / 2, r.top + r.height / 2, 1 / 1.4); });
  connect();
})();
