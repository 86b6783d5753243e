// The botbox replay viewer: draws the frames botbox computed from a replay (the engine re-played
// every move), with play/pause, step, scrub, speed and keyboard controls. No framework, no build.
"use strict";
(function () {
  const READS = 1; // the replay format version this viewer reads
  const $ = (id) => document.getElementById(id);
  let data = null, at = 0, timer = null;
  // The name of the file opened in the page, as a shell word (for the command that decides a move
  // again); null when the page came with its replay.
  let opened = null;
  // Each seat's log lines as elements, and the ones lit for the frame shown.
  let lineElements = [], lit = [];

  function message(text) {
    $("message").textContent = text;
    $("message").hidden = false;
  }

  function cellClass(v) {
    if (v === "#") return "c-hash";
    if (v === "O") return "c-O";
    if (/^[A-Z]$/.test(v)) return "c-upper";
    if (/^[a-z]$/.test(v)) return "c-lower";
    if (v === "1" || v === "2") return "c-" + v;
    return "";
  }

  function drawBoard(board) {
    const host = $("board");
    host.textContent = "";
    if (board.kind === "grid") {
      const table = document.createElement("table");
      const rows = board.rows.length, cols = (board.rows[0] || []).length;
      table.className = "grid";
      // Every board fills the space there is (up to 640 px): its cells sized to fit, 8 to 64 px.
      const room = Math.min(host.clientWidth || 640, 640);
      const cell = Math.max(8, Math.min(64, Math.floor(room / Math.max(cols, rows * 0.75, 1))));
      table.style.setProperty("--cell", cell + "px");
      // A game that gives each cell its look (`styles`) is drawn by it; older frames by the text.
      const styles = board.styles;
      if (styles) table.dataset.styled = "1";
      board.rows.forEach((row, r) => {
        const tr = document.createElement("tr");
        row.forEach((v, c) => {
          const td = document.createElement("td");
          td.textContent = v;
          if (styles) {
            const look = (styles[r] || [])[c] || "";
            td.dataset.style = look;
            for (const name of look.split(" ")) if (name) td.classList.add("s-" + name);
          } else {
            const k = cellClass(v);
            if (k) td.className = k;
          }
          tr.appendChild(td);
        });
        table.appendChild(tr);
      });
      host.appendChild(table);
    } else if (board.kind === "table") {
      const table = document.createElement("table");
      table.className = "seats";
      const head = document.createElement("tr");
      for (const h of board.header) { const th = document.createElement("th"); th.textContent = h; head.appendChild(th); }
      table.appendChild(head);
      board.rows.forEach((row, r) => {
        const tr = document.createElement("tr");
        row.forEach((v, c) => {
          const td = document.createElement("td");
          td.textContent = v;
          const look = (board.styles[r] || [])[c] || "";
          td.dataset.style = look;
          for (const name of look.split(" ")) if (name) td.classList.add("s-" + name);
          tr.appendChild(td);
        });
        table.appendChild(tr);
      });
      host.appendChild(table);
    } else {
      const pre = document.createElement("pre");
      pre.className = "lines";
      pre.textContent = board.lines.join("\n");
      host.appendChild(pre);
    }
  }

  function show(i) {
    at = Math.max(0, Math.min(i, data.frames.length - 1));
    const f = data.frames[at];
    drawBoard(f.board);
    $("board").dataset.frame = String(at);
    const who = f.seat === null || f.seat === undefined ? "" : "seat " + f.seat + " (" + (data.players[f.seat] || "?") + "): ";
    $("move").textContent = at === 0 ? "start" : "move " + f.n + ": " + who + f.text;
    $("board").classList.toggle("omniscient", $("omniscient").checked);
    const omni = $("omniscient").checked && f.hidden;
    $("hidden").hidden = !omni;
    $("hidden").textContent = omni ? f.hidden : "";
    showLog(f);
    showAsked(f);
    $("scrub").value = String(at);
    $("position").textContent = at + " / " + (data.frames.length - 1);
    if (at === data.frames.length - 1 && data.end) $("position").textContent += " · " + data.end;
  }

  // The log lines the frame's move produced, beside it, and lit in the whole log; at the last
  // frame, the faults too.
  function showLog(f) {
    for (const el of lit) el.classList.remove("now");
    lit = [];
    const box = $("move-log");
    box.textContent = "";
    for (const l of f.log || []) {
      const els = (lineElements[l.seat] || []).slice(l.from, l.to);
      if (!els.length) continue;
      const div = document.createElement("div");
      div.className = "logged";
      const who = document.createElement("strong");
      who.textContent = "seat " + l.seat + " (" + (data.players[l.seat] || "?") + ") logged:";
      const pre = document.createElement("pre");
      pre.textContent = els.map((el) => el.textContent).join("\n");
      div.append(who, pre);
      box.appendChild(div);
      for (const el of els) { el.classList.add("now"); lit.push(el); }
    }
    // Scroll each lit seat's log to its first lit line, inside the log box only (not the page).
    const scrolled = new Set();
    for (const el of lit) {
      const pre = el.parentElement;
      if (scrolled.has(pre)) continue;
      scrolled.add(pre);
      pre.scrollTop = Math.max(0, el.offsetTop - pre.clientHeight / 3);
    }
    if (at === data.frames.length - 1) {
      data.faults.forEach((fault, seat) => {
        if (!fault) return;
        const p = document.createElement("p");
        p.className = "fault";
        p.textContent = "seat " + seat + " (" + (data.players[seat] || "?") + ") fault: " + fault;
        box.appendChild(p);
      });
    }
  }

  // What the seat saw at this frame's move, and the command that decides it again.
  function showAsked(f) {
    const a = f.asked;
    $("asked").hidden = !a;
    if (!a) return;
    $("asked-title").textContent = "What seat " + a.seat + " (" + (data.players[a.seat] || "?") + ") saw at move " + a.turn + " (`" + a.function + "`)";
    $("asked-json").textContent = pretty(a.observation, "");
    const line = command(a);
    $("asked-command").hidden = !line;
    $("asked-line").textContent = line;
    $("copy").textContent = "copy";
  }

  // JSON to read: an object a field per line, a list of plain values (a board row) on one line.
  function pretty(v, indent) {
    const inner = indent + "  ";
    if (Array.isArray(v)) {
      if (v.every((x) => x === null || typeof x !== "object")) return JSON.stringify(v);
      return "[\n" + v.map((x) => inner + pretty(x, inner)).join(",\n") + "\n" + indent + "]";
    }
    if (v && typeof v === "object") {
      const keys = Object.keys(v);
      if (!keys.length) return "{}";
      return "{\n" + keys.map((k) => inner + JSON.stringify(k) + ": " + pretty(v[k], inner)).join(",\n") + "\n" + indent + "}";
    }
    return JSON.stringify(v);
  }

  function command(a) {
    const o = data.observed || {};
    const file = o.replay || opened;
    if (!file) return "";
    const web = location.protocol === "http:" || location.protocol === "https:";
    const fetchFirst = o.fetch ? o.fetch + (web ? " --server " + location.origin : "") + " && " : "";
    return fetchFirst + "botbox replay " + file + " --seat " + a.seat + " --turn " + a.turn + " --with my_bot_v2.lua";
  }

  // A shell word for a file name: as it is when safe, else single-quoted.
  function shellWord(name) {
    return /^[A-Za-z0-9._\/+:@,=-]+$/.test(name) ? name : "'" + name.replace(/'/g, "'\\''") + "'";
  }

  function copyCommand() {
    const text = $("asked-line").textContent;
    const done = (said) => { $("copy").textContent = said; };
    const select = () => {
      const range = document.createRange();
      range.selectNodeContents($("asked-line"));
      const sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      done("selected: press Ctrl-C");
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(() => done("copied"), select);
    else select();
  }

  function play() {
    if (timer) { clearInterval(timer); timer = null; $("play").textContent = "play"; return; }
    if (at >= data.frames.length - 1) show(0);
    $("play").textContent = "pause";
    timer = setInterval(() => {
      if (at >= data.frames.length - 1) { play(); return; }
      show(at + 1);
    }, Number($("speed").value));
  }

  function load(d) {
    if (d.format !== "botbox-replay" || d.version !== READS) {
      message("This viewer reads botbox-replay version " + READS + "; this file is " + d.format + " version " + d.version + ".");
      return;
    }
    data = d;
    $("message").hidden = true;
    $("viewer").hidden = false;
    $("title").textContent = d.title;
    document.title = d.title + " · botbox";
    $("scrub").max = String(d.frames.length - 1);
    $("omniscient-label").hidden = !d.frames.some((f) => f.hidden || f.board.kind === "table");
    // A site's links (the league's): only paths on the site itself.
    const onSite = (l) => l && typeof l.href === "string" && l.href.startsWith("/") && !l.href.startsWith("//");
    const anchor = (l) => { const a = document.createElement("a"); a.setAttribute("href", l.href); a.textContent = l.text; return a; };
    const site = d.site || null;
    if (site) {
      const nav = $("site-nav");
      nav.textContent = "";
      for (const l of site.nav || []) if (onSite(l)) nav.appendChild(anchor(l));
      nav.hidden = false;
      const around = $("around");
      around.textContent = "";
      for (const l of site.around || []) if (onSite(l)) around.appendChild(anchor(l));
      around.hidden = false;
    }
    const players = $("players");
    players.textContent = "";
    d.players.forEach((p, seat) => {
      const li = document.createElement("li");
      const l = site && (site.players || [])[seat];
      if (onSite(l)) li.appendChild(anchor(l)); else li.textContent = p;
      players.appendChild(li);
    });
    $("end").textContent = d.end ? "End: " + d.end : "The replay has no end line (the game was cut short).";
    const logs = $("logs");
    logs.textContent = "";
    lineElements = [];
    lit = [];
    d.players.forEach((p, seat) => {
      const div = document.createElement("div");
      div.className = "seat";
      const h = document.createElement("strong");
      h.textContent = "seat " + seat + " (" + p + ")";
      div.appendChild(h);
      const fault = d.faults[seat];
      if (fault) { const f = document.createElement("p"); f.className = "fault"; f.textContent = "fault: " + fault; div.appendChild(f); }
      const lines = d.logs[seat] || [];
      const pre = document.createElement("pre");
      pre.className = "log";
      lineElements[seat] = lines.map((line) => {
        const span = document.createElement("span");
        span.textContent = line;
        pre.appendChild(span);
        return span;
      });
      if (!lines.length) pre.textContent = (d.logs_hidden || [])[seat] ? "(only its owner sees its log lines)" : "(no log lines)";
      div.appendChild(pre);
      logs.appendChild(div);
    });
    show(0);
  }

  // A replay file chosen in the page: its header is checked here, the frames come from botbox.
  function openFile(file) {
    opened = shellWord(file.name);
    file.text().then((text) => {
      const first = text.split("\n", 1)[0];
      let header;
      try { header = JSON.parse(first); } catch (e) { message(file.name + ": line 1 is not JSON"); return; }
      if (header.format !== "botbox-replay") { message(file.name + ": not a botbox replay (format " + JSON.stringify(header.format) + ")"); return; }
      if (header.version !== READS) {
        message(file.name + ": replay format version " + header.version + " is not one this viewer reads (it reads version " + READS + "); a newer botbox wrote it");
        return;
      }
      fetch("frames", { method: "POST", body: text }).then(async (r) => {
        const body = await r.json().catch(() => ({ error: "the server's answer is not JSON" }));
        if (!r.ok) { message(file.name + ": " + (body.error || r.status)); return; }
        load(body);
      }, () => message("opening another file needs `botbox view` running"));
    });
  }

  document.addEventListener("keydown", (e) => {
    if (!data || e.target.tagName === "SELECT" || e.target.tagName === "INPUT" && e.target.type !== "range") return;
    if (e.key === " ") { e.preventDefault(); play(); }
    else if (e.key === "ArrowRight") { e.preventDefault(); show(at + 1); }
    else if (e.key === "ArrowLeft") { e.preventDefault(); show(at - 1); }
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(data.frames.length - 1);
  });
  $("first").onclick = () => show(0);
  $("back").onclick = () => show(at - 1);
  $("forward").onclick = () => show(at + 1);
  $("last").onclick = () => show(data.frames.length - 1);
  $("play").onclick = play;
  $("speed").onchange = () => { if (timer) { play(); play(); } };
  $("scrub").oninput = (e) => show(Number(e.target.value));
  $("omniscient").onchange = () => show(at);
  $("copy").onclick = copyCommand;
  $("file").onchange = (e) => { if (e.target.files[0]) openFile(e.target.files[0]); };

  const inline = $("replay-data").textContent.trim();
  if (inline && inline !== "null") {
    try { load(JSON.parse(inline)); } catch (e) { message("the page's replay data is broken: " + e); }
  } else {
    message("Open a replay file (botbox writes them with --replay-dir).");
  }
})();
