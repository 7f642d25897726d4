// wuzi's Learn page: runs the tutorials' algorithms on one position through POST /api/learn
// only, and shows their node counts, times and searched trees (expand, collapse, step through).
"use strict";
const $ = (id) => document.getElementById(id);
const letters = "abcdefghijklmnopqrstuv";
const INF = 1000001, WIN = 1000000, MAX_PLY = 512;

let moves = [];          // the position: moves from the empty board
let results = [];        // the last answer's results
let shown = null;        // the result whose tree is shown
let index = [];          // that tree's nodes by id: {node, parent, end}
let expanded = new Set();
let step = -1;           // -1: the whole tree; else the last node visited so far
let timer = null;
let playing = false;     // tic-tac-toe against the perfect player (until another action)
let replying = false;    // the perfect player is choosing its reply

function dims() {
  const game = $("game").value;
  if (game === "tictactoe") return { w: 3, h: 3, k: 3 };
  if (game === "mnk") return { w: +$("width").value, h: +$("height").value, k: +$("k").value };
  const n = +$("size").value;
  return { w: n, h: n, k: 5 };
}
const nameOf = (x, y, h) => letters[x] + (h - y);

function setStatus(text) { $("status").textContent = text; }

function syncGameControls() {
  const game = $("game").value;
  $("mnk-size").hidden = game !== "mnk";
  $("gomoku-size").hidden = game !== "gomoku";
  drawBoard();
}

/// Winner of the position by k in a row, "draw" when full, else null (for the game vs the AI).
function verdict(list) {
  const { w, h, k } = dims();
  const at = new Map(list.map((m, i) => [m, i % 2]));
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const who = at.get(nameOf(x, y, h));
    if (who === undefined) continue;
    for (const [dx, dy] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
      let n = 1;
      while (n < k && at.get(nameOf(x + dx * n, y + dy * n, h)) === who &&
             x + dx * n < w && y + dy * n >= 0 && y + dy * n < h) n++;
      if (n >= k) return who === 0 ? "X wins" : "O wins";
    }
  }
  return list.length >= w * h ? "draw" : null;
}

function drawBoard(path = [], now = null) {
  const { w, h } = dims();
  const grid = $("grid");
  // The cells are made anew: the keyboard's focus goes back to the same point after a move
  // (not at each step through a search, where it would announce the point every time).
  const keep = path.length === 0 && grid.contains(document.activeElement);
  const focused = keep ? document.activeElement.dataset.name : null;
  grid.innerHTML = "";
  grid.className = w > 9 ? "small" : "";
  grid.style.gridTemplateColumns = `repeat(${w}, auto)`;
  const all = moves.concat(path);
  const gomoku = $("game").value === "gomoku";
  const stone = (i) => (i % 2 === 0 ? (gomoku ? "●" : "X") : (gomoku ? "○" : "O"));
  const at = new Map(all.map((m, i) => [m, i]));
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const name = nameOf(x, y, h);
    const cell = document.createElement("button");
    cell.className = "cell";
    cell.dataset.name = name;
    cell.title = name;
    // The point's name with what is on it: a screen reader reads the label, not the title.
    const on = at.has(name) ? stone(at.get(name)) : null;
    const what = on === null ? "empty" : gomoku ? (on === "●" ? "black stone" : "white stone") : on;
    const onPath = at.has(name) && at.get(name) >= moves.length;
    cell.setAttribute("aria-label", `${name}, ${what}${onPath ? " (on the line being stepped through)" : ""}`);
    if (on !== null) {
      cell.textContent = on;
      if (onPath) cell.classList.add("path");
    }
    if (name === now) cell.classList.add("now");
    cell.addEventListener("click", () => clickCell(name));
    grid.appendChild(cell);
    if (name === focused) cell.focus();
  }
  $("moves").value = moves.join(" ");
}

async function post(body) {
  const r = await fetch("/api/learn", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const json = await r.json();
  if (!r.ok) throw new Error(json.error || r.statusText);
  return json;
}

function request(algorithms, depth, tree) {
  const game = $("game").value;
  const body = { game, moves, depth, algorithms, tree };
  if (tree) body.max_nodes = +$("max-nodes").value;
  if (game === "mnk") Object.assign(body, { width: +$("width").value, height: +$("height").value, k: +$("k").value });
  if (game === "gomoku") Object.assign(body, {
    rule: $("rule").value, size: +$("size").value, candidates: +$("candidates").value, order: $("order").value,
  });
  return body;
}

async function clickCell(name) {
  if (moves.includes(name) || step >= 0) return;
  if (playing) return playTurn(name);
  moves.push(name);
  drawBoard();
}

// ----- Tic-tac-toe against the perfect player -----

function startPlay() {
  $("game").value = "tictactoe";
  syncGameControls();
  moves = []; playing = true; step = -1;
  drawBoard();
  $("play-status").textContent = "You are X: click a square. The AI (the full searcher, to the end of the game) never loses.";
}

// The player is X: a click while the AI chooses its reply, or once the game is over, is
// not a move.
async function playTurn(name) {
  if (replying || verdict(moves) || moves.length % 2 === 1) return;
  moves.push(name);
  drawBoard();
  let end = verdict(moves);
  if (!end) {
    replying = true;
    try {
      const answer = await post({ game: "tictactoe", moves, depth: 9 - moves.length, algorithms: ["engine"], tree: false });
      moves.push(answer.results[0].best_move);
      drawBoard();
    } catch (e) {
      moves.pop(); drawBoard(); // not played: the AI could not answer it
      $("play-status").textContent = e.message; return;
    } finally { replying = false; }
    end = verdict(moves);
  }
  $("play-status").textContent = end ? `${end}. Click "Play tic-tac-toe" for another game.` : "Your move.";
}

// ----- Running the algorithms -----

async function runAlgorithms() {
  playing = false; $("play-status").textContent = "";
  stopSteps(); step = -1;
  const algorithms = [...document.querySelectorAll("#algorithms input:checked")].map((i) => i.value);
  if (!$("depth").value.trim()) { setStatus("Give a depth to search, 1 to 9."); return; }
  const depth = +$("depth").value;
  setStatus("Searching…");
  try {
    const answer = await post(request(algorithms, depth, $("want-tree").checked));
    results = answer.results;
  } catch (e) {
    setStatus(e.message);
    return;
  }
  setStatus(`Depth ${depth}: ${results.map((r) => `${r.algorithm} ${r.nodes} nodes`).join(", ")}.`);
  showResults();
  const select = $("tree-of");
  select.innerHTML = "";
  for (const r of results) if (r.tree) select.add(new Option(r.algorithm, r.algorithm));
  showTree(results.find((r) => r.tree) || null);
  drawBoard();
}

// A decided value is WIN minus the plies from the root to the game's end, at every node of
// the tree: the root's is "win in N"; a node's reads "win at ply N", counted from the root.
function fmt(v, atNode = false) {
  if (v >= INF) return "∞";
  if (v <= -INF) return "-∞";
  const how = atNode ? "at ply" : "in";
  if (v > WIN - MAX_PLY) return `win ${how} ${WIN - v}`;
  if (v < -WIN + MAX_PLY) return `loss ${how} ${WIN + v}`;
  return String(v);
}

function showResults() {
  const out = $("results");
  out.innerHTML = "";
  const table = document.createElement("table");
  table.className = "results";
  table.innerHTML = "<tr><th>algorithm</th><th>best</th><th>score</th><th>nodes</th><th>time (ms)</th><th>principal variation</th></tr>";
  for (const r of results) {
    const tr = document.createElement("tr");
    tr.className = "result";
    tr.dataset.algorithm = r.algorithm;
    for (const [cls, text] of [["name", r.algorithm], ["best", r.best_move || "-"], ["score", fmt(r.score)],
      ["nodes", String(r.nodes)], ["time", (r.micros / 1000).toFixed(2)], ["pv", r.pv.join(" ")]]) {
      const td = document.createElement("td");
      td.className = cls; td.textContent = text;
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
  out.appendChild(table);
  for (const [key, label, cls] of [["nodes", "nodes", ""], ["micros", "time", "time"]]) {
    const most = Math.max(1, ...results.map((r) => r[key]));
    const bars = document.createElement("div");
    bars.className = "bars";
    bars.setAttribute("aria-label", label);
    for (const r of results) {
      const name = document.createElement("span");
      name.textContent = `${r.algorithm} ${label}`;
      const bar = document.createElement("div");
      bar.className = `bar ${cls}`;
      bar.style.width = `${(100 * r[key]) / most}%`;
      bar.title = key === "nodes" ? `${r.nodes} nodes` : `${(r.micros / 1000).toFixed(2)} ms`;
      bars.append(name, bar);
    }
    out.appendChild(bars);
  }
}

// ----- The tree -----

function indexTree(root) {
  index = [];
  const walk = (node, parent) => {
    const entry = { node, parent, end: node.id };
    index[node.id] = entry;
    for (const child of node.children) entry.end = Math.max(entry.end, walk(child, entry));
    return entry.end;
  };
  if (root) walk(root, null);
}

function showTree(result) {
  shown = result;
  indexTree(result && result.tree.root);
  expanded = new Set(index.length ? [0] : []);
  $("view").textContent = result ? (result.tree.view === "first-player" ? "for the first player (max at X, min at O)" : "for the side to move (negamax)") : "";
  renderTree();
}

const visible = (id) => step < 0 || id <= step;
const valueKnown = (id) => step < 0 || index[id].end <= step;

function label(node) {
  const span = document.createElement("span");
  span.className = "label";
  const value = valueKnown(node.id) ? fmt(node.value, true) : "?";
  span.textContent = `${node.move || "root"}  ${value}  [${fmt(node.alpha, true)}, ${fmt(node.beta, true)}]` +
    (node.re_search ? "  (searched again, full window)" : "");
  if (node.caused_cutoff && valueKnown(node.id)) {
    const why = document.createElement("span");
    why.className = "note refutes";
    why.textContent = "✂ good enough: its parent stops here";
    span.appendChild(why);
  }
  if (node.cutoff && valueKnown(node.id)) {
    const note = document.createElement("span");
    note.className = "note cut";
    note.textContent = `cut-off: α ≥ β (${fmt(Math.max(node.alpha, node.value), true)} ≥ ${fmt(node.beta, true)})`;
    span.appendChild(note);
  }
  return span;
}

function renderNode(node) {
  const li = document.createElement("li");
  li.className = "node";
  li.dataset.id = node.id;
  if (node.pv && step < 0) li.classList.add("on-pv");
  if (node.id === step) li.classList.add("now");
  if (node.cutoff && valueKnown(node.id)) li.classList.add("cutoff");
  const kids = node.children.filter((c) => visible(c.id));
  const skipped = valueKnown(node.id) ? node.skipped : [];
  const toggle = document.createElement("button");
  toggle.className = "toggle";
  const open = expanded.has(node.id);
  if (kids.length || skipped.length) {
    toggle.textContent = open ? "▾" : "▸";
    // Named for a screen reader, and still focused after the tree is drawn anew.
    toggle.setAttribute("aria-expanded", String(open));
    toggle.setAttribute("aria-label", `${open ? "collapse" : "expand"} ${node.move || "the root"}`);
    toggle.addEventListener("click", () => {
      if (expanded.has(node.id)) expanded.delete(node.id); else expanded.add(node.id);
      renderTree();
      const again = $("tree").querySelector(`li.node[data-id='${node.id}'] > button.toggle`);
      if (again) again.focus();
    });
  } else {
    // A leaf's toggle only keeps the labels in line: no tab stop, nothing to read.
    toggle.tabIndex = -1;
    toggle.setAttribute("aria-hidden", "true");
  }
  li.append(toggle, label(node));
  if (open && (kids.length || skipped.length)) {
    const ul = document.createElement("ul");
    for (const child of kids) ul.appendChild(renderNode(child));
    for (const mv of skipped) {
      const s = document.createElement("li");
      s.className = "skipped cut";
      s.textContent = `${mv}  skipped: α ≥ β`;
      ul.appendChild(s);
    }
    li.appendChild(ul);
  }
  return li;
}

function renderTree() {
  const tree = $("tree");
  tree.innerHTML = "";
  if (!index.length) {
    tree.textContent = shown ? "" : "Run with 'tree' ticked to see the searched tree.";
    $("step-info").textContent = "";
    return;
  }
  tree.appendChild(renderNode(index[0].node));
  $("step-info").textContent = step < 0 ? `${index.length} nodes` : `node ${step + 1} of ${index.length}`;
  if (step >= 0) {
    const path = [];
    for (let e = index[step]; e.parent; e = e.parent) path.unshift(e.node.move);
    drawBoard(path, index[step].node.move);
    const now = tree.querySelector("li.now");
    if (now) now.scrollIntoView({ block: "nearest" });
  }
}

function goTo(s) {
  if (!index.length) return;
  step = Math.max(0, Math.min(index.length - 1, s));
  for (let e = index[step].parent; e; e = e.parent) expanded.add(e.node.id);
  renderTree();
}

function stopSteps() { if (timer) { clearInterval(timer); timer = null; $("play-steps").textContent = "play"; } }

$("step").addEventListener("click", () => { stopSteps(); goTo(step + 1); });
$("step-back").addEventListener("click", () => { stopSteps(); goTo(step - 1); });
$("play-steps").addEventListener("click", () => {
  if (timer) return stopSteps();
  $("play-steps").textContent = "pause";
  timer = setInterval(() => {
    if (step >= index.length - 1) return stopSteps();
    goTo(step + 1);
  }, 400);
});
$("show-all").addEventListener("click", () => { stopSteps(); step = -1; renderTree(); drawBoard(); });
$("tree-of").addEventListener("change", () => {
  stopSteps(); step = -1;
  showTree(results.find((r) => r.algorithm === $("tree-of").value));
  drawBoard();
});
$("run").addEventListener("click", runAlgorithms);
$("play-ttt").addEventListener("click", startPlay);
$("game").addEventListener("change", () => { moves = []; playing = false; syncGameControls(); });
for (const id of ["width", "height", "k", "size"]) $(id).addEventListener("change", () => { moves = []; drawBoard(); });
$("moves").addEventListener("change", () => {
  playing = false; $("play-status").textContent = ""; // a typed position is not a game
  // Each move by its name ("h8"), as the board draws them: a pair of numbers ("7,7", x and y
  // from the top left) becomes its name, and names written together ("h8i9") come apart.
  // A pair off the board stays as typed, for the server to refuse.
  const { w, h } = dims();
  const tokens = $("moves").value.match(/\d+\s*,\s*\d+|[a-zA-Z]+\d+|[^\s,]+/g) || [];
  moves = tokens.map((t) => {
    const xy = t.match(/^(\d+)\s*,\s*(\d+)$/);
    const [x, y] = xy ? [Number(xy[1]), Number(xy[2])] : [w, h];
    return x < w && y < h ? nameOf(x, y, h) : t.toLowerCase();
  });
  drawBoard();
});
// Against the AI, undo takes back its reply and your move, so that it is X's turn again.
$("undo-move").addEventListener("click", () => {
  if (replying) return;
  if (playing) {
    moves.splice(Math.max(0, moves.length - (moves.length % 2 === 0 ? 2 : 1)));
    $("play-status").textContent = "Your move.";
  } else {
    moves.pop();
  }
  step = -1; drawBoard();
});
$("clear").addEventListener("click", () => {
  if (replying) return;
  moves = []; step = -1; playing = false; $("play-status").textContent = ""; drawBoard();
});
syncGameControls();
renderTree();
