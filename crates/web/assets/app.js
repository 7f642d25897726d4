// wuzi's page: draws the board, talks to the JSON API only, keeps the game's move list in
// localStorage so a reload or a server restart resumes it.
"use strict";
const $ = (id) => document.getElementById(id);
const canvas = $("board"), ctx = canvas.getContext("2d");
const SAVE = "wuzi-game";
let game = null, busy = false, events = null, hintMove = null, bestMarks = [], review = null;
// The player's stone while the server checks it and the engine answers: drawn at once.
let pendingMove = null;
// The keyboard's cursor on the board, [x, y] from the top left, while the board has focus.
let keyCursor = null;
// The control to give the keyboard's focus back to when the engine's wait ends.
let refocus = null;
// The live region's last words (see say).
let said = "";
// True while the analysis mode's search of the position runs (its progress shows live);
// the number of the latest such search, whose end clears it.
let analysing = false, analysisNumber = 0;
// A hint asked for in analysis mode while the analysis runs: marked when it ends.
let hintWanted = false;
const REVIEW_MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

const letters = "abcdefghijklmnopqrstuv";
// The colour of the move at 0-based place `k` of the game: Black moves first.
const colourAt = (k) => (k % 2 === 0 ? "Black" : "White");
const toXY = (name, n) => [letters.indexOf(name[0]), n - parseInt(name.slice(1), 10)];
const toName = (x, y, n) => letters[x] + (n - y);

// The board is drawn in its own units, BOARD a side, whatever its size on the screen: the
// canvas holds a pixel for each of the screen's (sharp on a high-density screen, and at any
// size the window gives it), and the drawing is scaled to fill it.
const BOARD = 640;

function geometry() {
  const n = game.size, margin = 42, cell = (BOARD - 2 * margin) / (n - 1);
  return { n, margin, cell, at: (i) => margin + i * cell };
}

// Sizes the canvas to the pixels it covers and scales the drawing to it; returns how many
// of the board's units one screen pixel spans (more on a small screen).
function fitCanvas() {
  const shown = canvas.getBoundingClientRect().width || BOARD;
  const pixels = Math.round(shown * (window.devicePixelRatio || 1));
  if (canvas.width !== pixels) { canvas.width = pixels; canvas.height = pixels; }
  const scale = canvas.width / BOARD;
  ctx.setTransform(scale, 0, 0, scale, 0, 0);
  return BOARD / shown;
}

// The star points, as on a wooden board: the centre (on odd sizes) and the four points
// three lines in from the corners (two on small boards).
function starPoints(n) {
  const stars = [], edge = n >= 13 ? 3 : 2;
  if (n % 2 === 1) stars.push([(n - 1) / 2, (n - 1) / 2]);
  if (n >= 9) for (const x of [edge, n - 1 - edge]) for (const y of [edge, n - 1 - edge]) stars.push([x, y]);
  return stars;
}

function draw() {
  if (!game) return;
  const { n, cell, at } = geometry();
  const unitsPerPixel = fitCanvas();
  ctx.clearRect(0, 0, BOARD, BOARD);
  ctx.strokeStyle = "#3b2f22"; ctx.lineWidth = 1; ctx.fillStyle = "#3b2f22";
  // Labels and move numbers stay readable on a phone: at least 11 screen pixels, within
  // the margin and the stones.
  const small = (most) => `${Math.round(Math.min(most, Math.max(12, 11 * unitsPerPixel)))}px system-ui`;
  ctx.font = small(22); ctx.textAlign = "center"; ctx.textBaseline = "middle";
  for (let i = 0; i < n; i++) {
    ctx.beginPath(); ctx.moveTo(at(0), at(i)); ctx.lineTo(at(n - 1), at(i)); ctx.stroke();
    ctx.beginPath(); ctx.moveTo(at(i), at(0)); ctx.lineTo(at(i), at(n - 1)); ctx.stroke();
    ctx.fillText(letters[i], at(i), at(n - 1) + 28); ctx.fillText(letters[i], at(i), at(0) - 28);
    ctx.fillText(String(n - i), at(0) - 28, at(i)); ctx.fillText(String(n - i), at(n - 1) + 28, at(i));
  }
  for (const [x, y] of starPoints(n)) {
    ctx.beginPath(); ctx.arc(at(x), at(y), Math.max(2.5, cell * 0.08), 0, 2 * Math.PI); ctx.fill();
  }
  ctx.font = small(cell * 0.45);
  const win = new Set(game.winning_line);
  // The player's pending stone is drawn as the last move.
  const shown = shownMoves();
  shown.forEach((m, k) => {
    const [x, y] = toXY(m, n);
    ctx.beginPath(); ctx.arc(at(x), at(y), cell * 0.45, 0, 2 * Math.PI);
    ctx.fillStyle = k % 2 === 0 ? "#111" : "#fafafa"; ctx.fill();
    ctx.strokeStyle = win.has(m) ? "#e0312b" : "#000"; ctx.lineWidth = win.has(m) ? 3 : 1; ctx.stroke();
    const last = k === shown.length - 1;
    if ($("numbers").checked || last) {
      ctx.fillStyle = k % 2 === 0 ? "#fff" : "#111";
      ctx.fillText($("numbers").checked ? String(k + 1) : "●", at(x), at(y));
      if (last && !$("numbers").checked) { ctx.fillStyle = "#e0312b"; ctx.fillText("●", at(x), at(y)); }
    }
  });
  // Black's forbidden points under renju: red crosses on Black's turn, faint ones on
  // White's (White may play there; Black, as the stones stand, may not).
  const blackToMove = game.to_move === "black";
  ctx.strokeStyle = blackToMove ? "#7a1410" : "rgba(122, 20, 16, 0.55)";
  ctx.lineWidth = blackToMove ? 2 : 1.5;
  for (const { point: f } of game.fouls || []) {
    if (f === pendingMove) continue;
    const [x, y] = toXY(f, n), d = cell * 0.2;
    ctx.beginPath(); ctx.moveTo(at(x) - d, at(y) - d); ctx.lineTo(at(x) + d, at(y) + d);
    ctx.moveTo(at(x) + d, at(y) - d); ctx.lineTo(at(x) - d, at(y) + d); ctx.stroke();
  }
  if (hintMove) {
    const [x, y] = toXY(hintMove, n);
    ctx.strokeStyle = "#2e86de"; ctx.lineWidth = 3;
    ctx.beginPath(); ctx.arc(at(x), at(y), cell * 0.45, 0, 2 * Math.PI); ctx.stroke();
  }
  if (keyCursor) {
    // Near black with a white line inside: it stands out against the board and the stones.
    const [x, y] = keyCursor, d = cell * 0.5;
    ctx.strokeStyle = "#111"; ctx.lineWidth = 3;
    ctx.strokeRect(at(x) - d, at(y) - d, 2 * d, 2 * d);
    ctx.strokeStyle = "#fff"; ctx.lineWidth = 1;
    ctx.strokeRect(at(x) - d + 2, at(y) - d + 2, 2 * d - 4, 2 * d - 4);
  }
  // The analysis mode's best moves, numbered by rank.
  ctx.font = `bold ${Math.round(cell * 0.5)}px system-ui`;
  bestMarks.forEach((m, k) => {
    const [x, y] = toXY(m, n);
    ctx.strokeStyle = "#2e86de"; ctx.lineWidth = 2; ctx.fillStyle = "#2e86de";
    ctx.beginPath(); ctx.arc(at(x), at(y), cell * 0.4, 0, 2 * Math.PI); ctx.stroke();
    ctx.fillText(String(k + 1), at(x), at(y));
  });
}

// `played`: the analysis is of the engine's own move, now on the board, not a suggestion.
function describe(a, played) {
  if (!a) return "";
  if (a.lines) return a.lines.map((l, k) => `${k + 1}. ${describeLine(l)}`).join("\n");
  return `${played ? "the engine played" : "best"} ${describeLine(a)}`;
}

// The side to move's chance of winning (`Black 52%`), kept within 1-99% while unproven.
function chanceText(a) {
  const percent = Math.min(99, Math.max(1, Math.round(100 * a.win_chance)));
  return `${a.side === "black" ? "Black" : "White"} ${percent}%`;
}

// An unproven score as words or a number: at the heuristic bound (the search crate's
// Score::MAX_HEURISTIC) every move the engine searched wins or loses, but it left moves out.
const NEARLY_DECIDED = 999487;
function scoreText(score) {
  if (score >= NEARLY_DECIDED) return "nearly won";
  if (score <= -NEARLY_DECIDED) return "nearly lost";
  return `score ${score}`;
}

function describeLine(a) {
  const verdict = a.forced ? `${a.forced} in ${a.plies}` : `${scoreText(a.score)}, ${chanceText(a)}`;
  // Renju: the line's last move is Black's forced block on a forbidden point, Black's loss.
  const foul = a.forbidden_block ? ` (${a.forbidden_block} is Black's only block, forbidden: Black loses there)` : "";
  return `${a.best_move} (${verdict}), depth ${a.depth}, ${a.nodes} nodes\npv ${a.pv.join(" ")}${foul}`;
}

// The threat solver's answer as one line: for the side to move, or what the other side
// threatens (`opponent`).
function describeThreats(t, opponent) {
  const kind = t.kind.toUpperCase(), who = opponent ? t.attacker : `${t.attacker} (to move)`;
  const plies = `${t.plies} ${t.plies === 1 ? "ply" : "plies"}`;
  const foul = t.forbidden_block ? ` (Black's only block, ${t.forbidden_block}, is forbidden)` : "";
  const how = (t.search === "proof" ? " (proof numbers: not always the shortest)" : "") + foul;
  if (t.win) return opponent ? `${who} threatens a ${kind} in ${plies}: ${t.line.join(" ")}${how}`
    : `${who} wins by ${kind} in ${plies}: ${t.line.join(" ")}${how}`;
  if (t.gave_up) return `${who}: no ${kind} found in the time`;
  return opponent ? `${who} threatens no ${kind}` : `${who} has no ${kind}`;
}

// Threats for the side to move, then for the other side (what it threatens), with quiet
// threats that prepare a four-three.
// The position whose threats are being looked for: a second click there waits for them.
let threatsOf = null;
async function threats() {
  if (!game || threatsOf === gameKey()) return;
  if (game.result) { notify("The game is over: there are no threats to look for."); return; }
  const key = gameKey();
  threatsOf = key;
  $("threats").textContent = "looking for threats...";
  const lines = [];
  try {
    for (const opponent of [false, true]) {
      const t = await api("/api/threats", {
        rule: game.rule, size: game.size, moves: game.moves, quiet: 2, opponent, time_ms: game.time_ms,
        search: $("threat-search").value,
      });
      lines.push(describeThreats(t, opponent));
    }
    if (key === gameKey()) $("threats").textContent = lines.join("\n");
  } catch (e) {
    if (key === gameKey()) $("threats").textContent = e.message;
  } finally {
    if (threatsOf === key) threatsOf = null;
  }
}

// Every move of the game graded by the server (POST /api/review), the positions sharing
// a few seconds; the moves list shows the grades, the panel the summary.
async function reviewGame() {
  if (!game || busy || game.moves.length === 0) return;
  const moves = game.moves.slice();
  $("threats").textContent = "reviewing the game...";
  try {
    const key = gameKey();
    // A loaded record's opening stones (placed by a match manager) are not graded.
    const from = game.opening > 0 && moves.length > game.opening ? { from: game.opening + 1 } : {};
    const r = await api("/api/review", { rule: game.rule, size: game.size, moves, ...from });
    if (key !== gameKey()) return; // the game moved on while the review ran
    r.byNumber = Object.fromEntries(r.moves.map((m) => [m.number, m]));
    review = r;
    const n = (k, one, many) => `${k} ${k === 1 ? one : many}`;
    const side = (name, s) => `${name}: ${n(s.moves, "move", "moves")}, ${s.best} best, `
      + `${n(s.inaccuracies, "inaccuracy", "inaccuracies")}, ${n(s.mistakes, "mistake", "mistakes")}, `
      + `${n(s.blunders, "blunder", "blunders")}`;
    const cut = r.complete ? "" : ` (the first ${r.moves.length} moves: the time ran out)`;
    $("threats").textContent = `Review${cut}\n${side("black", r.black)}\n${side("white", r.white)}`;
    // The chart's words for a screen reader: the summary it draws.
    $("chances").setAttribute("aria-label", `Review chart. ${side("Black", r.black)}. ${side("White", r.white)}.`);
    render();
  } catch (e) {
    $("threats").textContent = e.message;
  }
}

// The review's chart: Black's chance of winning before the first reviewed move and after
// each one (above the middle line Black leads, below it White), with a dot on each
// inaccuracy, mistake and blunder in its grade's colour; hidden without a review.
const GRADE_COLOURS = { inaccuracy: "#7d6608", mistake: "#a04000", blunder: "#c0392b" };
function drawChances() {
  const c = $("chances");
  c.hidden = !review || review.moves.length === 0;
  if (c.hidden) { c.setAttribute("aria-label", "Review chart"); return; }
  const g = c.getContext("2d"), w = c.width, h = c.height;
  const black = (m, chance) => (m.side === "black" ? chance : 1 - chance);
  const first = review.moves[0];
  const points = [black(first, first.chance_before), ...review.moves.map((m) => black(m, m.chance_after))];
  // A margin of a dot's size keeps the dots at 0% and 100% and at the ends whole.
  const m = 4, x = (i) => m + (i * (w - 2 * m)) / (points.length - 1), y = (p) => m + (1 - p) * (h - 2 * m);
  g.fillStyle = "#fafafa"; g.fillRect(0, 0, w, h);
  g.beginPath(); g.moveTo(x(0), h);
  points.forEach((p, i) => g.lineTo(x(i), y(p)));
  g.lineTo(x(points.length - 1), h); g.closePath(); g.fillStyle = "#333"; g.fill();
  g.strokeStyle = "#999"; g.lineWidth = 1;
  g.beginPath(); g.moveTo(0, h / 2); g.lineTo(w, h / 2); g.stroke();
  review.moves.forEach((m, i) => {
    if (!GRADE_COLOURS[m.grade]) return;
    g.fillStyle = GRADE_COLOURS[m.grade]; g.strokeStyle = "#fff";
    g.beginPath(); g.arc(x(i + 1), y(points[i + 1]), 3.5, 0, 2 * Math.PI); g.fill(); g.stroke();
  });
}

// The bar shows Black's chance of winning; `a.win_chance` is that of `a.side`, the side to
// move where the engine searched, on the rule's own scale (the server's win_chance).
function setEval(a) {
  let f = a.win_chance;
  if (a.side !== "black") f = 1 - f;
  setBar(Math.round(f * 100));
}

// The bar at Black's `percent`, drawn and told (it is a meter).
function setBar(percent) {
  $("evalfill").style.height = `${percent}%`;
  $("evalbar").setAttribute("aria-valuenow", String(percent));
}

function render() {
  draw();
  // A review of this very game marks its moves: its grade as a class, chess's ?!, ? or ??,
  // and the engine's choice as a tooltip.
  const graded = review && review.moves.length > 0 ? review.byNumber : {};
  // The player's stone is listed at once, as it is drawn.
  // A screen reader also reads the hidden words: whose move, and the review's, which the
  // page shows only as a mark and a tooltip. `data-move` is the move alone.
  const hidden = (words) => `<span class="visually-hidden">${words}</span>`;
  $("moves").innerHTML = shownMoves().map((m, k) => {
    const r = graded[k + 1];
    const whose = hidden(`${k + 1}. ${colourAt(k)} `);
    if (!r || r.move !== m) return `<li data-move="${m}">${whose}${m}</li>`;
    const tip = `${r.grade}: ${r.chance_before_text} → ${r.chance_after_text}`
      + (r.grade === "best" ? "" : `, best ${r.engine.best_move}`);
    return `<li class="${r.grade}" title="${tip}" data-move="${m}">${whose}${m}${REVIEW_MARKS[r.grade] || ""}${hidden(`, ${tip}`)}</li>`;
  }).join("");
  drawChances();
  let text;
  if (!$("notice").hidden) {
    text = $("notice").textContent; // an error stays in the header until the next action
  } else if (game.result) {
    text = resultText();
  } else if (game.no_legal_move) {
    text = "Black has no legal move: every empty point is forbidden under renju.";
  } else if (busy) {
    text = "The engine is thinking…";
  } else {
    text = `${game.to_move === "black" ? "Black" : "White"} to move.`;
  }
  $("status").textContent = text;
  $("thinking").hidden = !busy;
  if (game.result) {
    $("analysis").textContent = "";
  } else if (game.analysis) {
    $("analysis").textContent = describe(game.analysis, game.ai !== "none" && !hintMove);
    setEval(game.analysis);
  } else if (!busy && !analysing) {
    // Nothing searched this position (an undo, a loaded record): the last words are stale.
    $("analysis").textContent = "";
    setBar(50);
  }
  // A control the engine's wait disables loses the keyboard's focus: it gets it back after.
  const focused = document.activeElement;
  for (const id of BUSY_CONTROLS) $(id).disabled = busy;
  if (busy && focused && BUSY_CONTROLS.includes(focused.id)) refocus = focused;
  if (!busy && refocus) {
    if (!document.activeElement || document.activeElement === document.body) refocus.focus();
    refocus = null;
  }
  // Said once settled (not at every depth the engine reports): the last move and the state.
  if (!busy && $("notice").hidden) {
    const shown = shownMoves();
    const last = shown.length ? `${colourAt(shown.length - 1)} played ${shown[shown.length - 1]}. ` : "";
    say(last + text + (hintMove ? ` Hint: ${hintMove}.` : ""));
  }
  saveGame();
}

// Tells a screen reader (the hidden live region), once for each new text.
function say(text) {
  if (text === said) return;
  said = text;
  $("announce").textContent = text;
}

// The controls that wait for the engine's answer: greyed while it thinks.
const BUSY_CONTROLS = ["undo", "hint", "review-button", "swap", "resign", "start", "import", "recordfile", "time"];

// "Black wins (five): you win." Six or more in a row wins too where the rule allows it.
function resultText() {
  if (game.result === "draw") return "Draw.";
  const line = game.winning_line.length;
  const reason = game.reason === "five" && line > 5 ? `${line} in a row` : game.reason;
  const winner = game.result === "black" ? "Black" : "White";
  const who = game.ai === "none" ? "" : game.ai === game.result ? ": the engine wins" : ": you win";
  return `${winner} wins (${reason})${who}.`;
}

// The game's moves with the player's stone while the server has not yet answered it.
function shownMoves() {
  return pendingMove ? [...game.moves, pendingMove] : game.moves;
}

// What the page saves to resume the game: its request (see gameRequest), with the player's
// stone while the server has not yet answered it (a reload then keeps that move), and the
// server's id for the game, to find it there again.
function saveGame() {
  const saved = { ...gameRequest(), moves: shownMoves() };
  if (game.id) saved.id = game.id;
  localStorage.setItem(SAVE, JSON.stringify(saved));
}

const NO_SERVER = "The server does not answer (is wuzi serve still running?); try again once it is back.";

// fetch, with a server that does not answer said as such (the browser says "Failed to fetch").
async function reach(path, options = {}) {
  try {
    return await fetch(path, options);
  } catch (e) {
    throw new Error(NO_SERVER);
  }
}

async function api(path, body) {
  const res = await reach(path, body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const retry = res.headers.get("retry-after");
    const message = data.error || res.statusText || `the server answered ${res.status}`;
    // Said once: an error that already gives its wait in seconds needs no second one.
    const wait = retry && !/\d+ s\b/.test(message) ? ` (retry in ${retry} s)` : "";
    const error = new Error(message + wait);
    error.status = res.status;
    throw error;
  }
  return data;
}

// A request about the game (`action`: "moves", "undo" or "hint"). When the server no longer
// has it (it restarted, or the game lay idle for hours), the game starts there again from the
// moves the page holds, and the request is made once more.
async function gameApi(action, body) {
  if (!game.id) await restartGame(); // shown from the page's copy: the server has none yet
  try {
    return await api(`/api/games/${game.id}/${action}`, body);
  } catch (e) {
    if (e.status !== 404) throw e;
    await restartGame();
    return await api(`/api/games/${game.id}/${action}`, body);
  }
}

// What starts this game again from its moves (`ai`: the engine's side, by default the same):
// the body of POST /api/games, and what the page saves to resume.
function gameRequest(ai = game.ai) {
  return {
    rule: game.rule, size: game.size, ai, time_ms: game.time_ms, moves: game.moves,
    opening: game.opening,
  };
}

// Starts the game again on a server that no longer has it, from the moves the page holds.
// One at a time: an analysis and a move that both find the game gone start it once.
let restarting = null;
function restartGame() {
  restarting = restarting || (async () => {
    game = await api("/api/games", gameRequest());
    syncTimeMenu();
    listen();
  })().finally(() => { restarting = null; });
  return restarting;
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// The saved game on the server: the same game when the server still has it, so that a
// reload starts no new game there (a server allows an address so many), and a move the
// engine was thinking about when the page went comes back with its reply; else the game
// started again from the saved moves.
async function resumeGame(saved) {
  const { id, ...request } = saved;
  // The server bounds a move's thinking (its queue wait and the time); a minute more is slack.
  const deadline = Date.now() + (saved.time_ms || 1000) + 60000;
  while (id) {
    const res = await reach(`/api/games/${id}`).catch(() => null);
    const g = res && res.ok ? await res.json().catch(() => null) : null;
    if (g && g.thinking && Date.now() < deadline) {
      $("status").textContent = "The engine is finishing its move…";
      await sleep(250);
      continue;
    }
    if (g && !g.thinking && continues(g, request)) return g;
    break;
  }
  return api("/api/games", request);
}

// A saved request's move list (a text, from a record typed in, reads as none).
const movesOf = (request) => (Array.isArray(request.moves) ? request.moves : []);

// Whether the server's game is the saved one, maybe with the engine's reply after it.
function continues(g, saved) {
  const same = g.rule === saved.rule && g.size === saved.size && g.ai === saved.ai
    && g.time_ms === saved.time_ms && g.opening === (saved.opening || 0);
  const moves = movesOf(saved);
  const extra = g.moves.length - moves.length;
  const replied = extra === 1 && g.ai !== "none";
  return same && (extra === 0 || replied) && moves.every((m, k) => g.moves[k] === m);
}

// A game shown from the page's own copy while the server will not start it (it keeps as
// many games as this address may have): what needs the server starts it there first, and
// says why it cannot.
function localGame(request) {
  const moves = movesOf(request);
  return {
    id: null, rule: request.rule, size: request.size, ai: request.ai, time_ms: request.time_ms,
    opening: request.opening || 0, moves, to_move: moves.length % 2 === 0 ? "black" : "white",
    result: null, reason: null, winning_line: [], fouls: [], forbidden: [], analysis: null,
  };
}

// The menu shows the time the game really has: the server may have lowered it to its limit.
function syncTimeMenu() {
  const menu = $("time"), value = String(game.time_ms);
  if (![...menu.options].some((o) => o.value === value)) {
    const o = document.createElement("option");
    o.value = value; o.textContent = `${game.time_ms / 1000} s (the server's limit)`;
    menu.appendChild(o);
  }
  menu.value = value;
}

// The game as an SGF record, from the server (which starts it again if it lost it).
async function sgfText() {
  const url = () => `/api/games/${game.id}/sgf`;
  if (!game.id) await restartGame();
  let res = await reach(url());
  if (res.status === 404) { await restartGame(); res = await reach(url()); }
  const text = await res.text();
  if (!res.ok) throw new Error(JSON.parse(text).error || res.statusText);
  return text;
}

function listen() {
  if (events) events.close();
  events = null;
  if (!game.id) return;
  events = new EventSource(`/api/games/${game.id}/events`);
  events.addEventListener("progress", (e) => {
    const p = JSON.parse(e.data);
    const verdict = p.forced ? `${p.forced} in ${p.plies}` : scoreText(p.score);
    // The move first: on a narrow screen the line is cut at its end.
    $("live").textContent = `prefers ${p.pv[0] || "-"}, depth ${p.depth}, ${verdict}`;
    if (analysing) $("analysis").textContent = `analysing: ${$("live").textContent}`;
    if (busy) $("status").textContent = "The engine is thinking…";
  });
  // A busy server queues the request: say where it stands instead of failing.
  events.addEventListener("queue", (e) => {
    const { position } = JSON.parse(e.data);
    $("status").textContent = `Waiting for the engine (position ${position} in queue)…`;
    $("live").textContent = "waiting its turn";
  });
}

// An error the player must see: in the header and beside the buttons, until the next action.
function notify(message) {
  $("status").textContent = message;
  $("notice").textContent = message;
  $("notice").hidden = false;
}

async function run(action) {
  if (busy) return;
  busy = true; hintMove = null; hintWanted = false; bestMarks = []; review = null; $("threats").textContent = "";
  said = ""; // what the action ends with is said, even if it is what was said before
  $("notice").hidden = true; $("live").textContent = "";
  if (game) render();
  try {
    const g = await action();
    if (g) { const id = game && game.id; game = g; syncTimeMenu(); if (game.id !== id) listen(); }
  } catch (e) {
    busy = false; pendingMove = null;
    if (game) syncTimeMenu(); // a time change refused: the menu shows the game's own
    notify(e.message);
    if (game) render();
    // The position is as it was; its analysis is searched again only if it has none.
    if (game && game.ai === "none" && !game.result && !game.analysis && !analysing) analyse();
    return;
  }
  busy = false; pendingMove = null; render();
  if (game.ai === "none" && !game.result) analyse();
}

// Which game and position an answer was asked for: one that comes back after the game
// moved on is dropped.
function gameKey() {
  return game ? `${game.id} ${game.moves.join(" ")}` : "";
}

async function analyse() {
  let key = gameKey();
  const number = ++analysisNumber;
  // The search's depth and preferred move show live in the panel, through the game's event
  // stream.
  analysing = true; $("live").textContent = ""; $("analysis").textContent = "analysing…";
  try {
    const nbest = parseInt($("nbest").value, 10);
    const body = {
      rule: game.rule, size: game.size, moves: game.moves, time_ms: game.time_ms,
      progress_game: game.id,
    };
    if (nbest > 1) body.nbest = nbest;
    let a;
    try {
      a = await api("/api/analyze", body);
    } catch (e) {
      // The server no longer has the game whose stream shows the progress: start it again.
      if (e.status !== 404 || key !== gameKey()) throw e;
      await restartGame();
      key = gameKey(); body.progress_game = game.id;
      a = await api("/api/analyze", body);
    }
    if (key !== gameKey()) return;
    // Kept with the game, so that a later redraw (a review's grades) shows it still.
    game.analysis = a;
    bestMarks = a.lines ? a.lines.map((l) => l.best_move) : [];
    if (hintWanted) { hintMove = a.best_move; say(`Hint: ${hintMove}.`); }
  } catch (e) { /* a busy server: no analysis this time */ } finally {
    // A later analysis owns the panel. One of a position left behind only clears its
    // "analysing" words: a redraw would overwrite what the header says now (a queue place).
    if (number === analysisNumber) {
      analysing = false; hintWanted = false;
      if (key === gameKey()) render();
      else if (game && !game.analysis) $("analysis").textContent = "";
    }
  }
}

// A new game from the form; `record` may hold {moves: [...]}, {sgf: "..."} or {psq: "..."}.
function newGame(record) {
  const colour = $("colour").value;
  const ai = colour === "both" ? "none" : colour === "black" ? "white" : "black";
  // The form's rule and size are for a record that does not give its own (no RU, no SZ).
  const body = { rule: $("rule").value, size: parseInt($("size").value, 10), ai, time_ms: parseInt($("time").value, 10) };
  if (record && (record.sgf || record.psq)) {
    Object.assign(body, record);
  } else {
    Object.assign(body, { moves: (record && record.moves) || [] });
  }
  return run(async () => {
    const g = await api("/api/games", body);
    $("rule").value = g.rule; $("size").value = g.size;
    return g;
  });
}

// What the import box holds: an SGF record, a Piskvork record, or a move list.
function recordOf(text) {
  const t = text.trim();
  if (t.startsWith("(")) return { sgf: t };
  if (t.startsWith("Piskvorky")) return { psq: t };
  return { moves: t }; // read whole by the server, in any notation wuzi reads
}

// Plays the point at column x, row y (from the top left) for the player, if they may.
function playAt(x, y) {
  if (!game || busy || game.result) return;
  const n = game.size;
  if (x < 0 || y < 0 || x >= n || y >= n) return;
  const name = toName(x, y, n);
  if (game.moves.includes(name)) { notify(`${name} is taken`); return; }
  if (game.forbidden.includes(name)) { notify(`${name} is forbidden for Black`); return; }
  pendingMove = name;
  run(() => gameApi("moves", { move: name }));
}

canvas.addEventListener("click", (e) => {
  const { cell, at } = geometry();
  const r = canvas.getBoundingClientRect(), k = BOARD / r.width;
  keyCursor = null;
  playAt(Math.round(((e.clientX - r.left) * k - at(0)) / cell),
    Math.round(((e.clientY - r.top) * k - at(0)) / cell));
});

// The keyboard: with the board focused (Tab), the arrow keys move a cursor and Enter or
// Space plays there; the cursor starts at the last move, or the centre.
const BOARD_LABEL = canvas.getAttribute("aria-label");
canvas.addEventListener("keydown", (e) => {
  // Alt+arrows go back and forward in the browser; Ctrl and Meta have theirs too.
  if (!game || e.altKey || e.ctrlKey || e.metaKey) return;
  const n = game.size, step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
  if (!step && e.key !== "Enter" && e.key !== " ") return;
  e.preventDefault();
  if (!keyCursor) {
    const last = game.moves[game.moves.length - 1];
    keyCursor = last ? toXY(last, n) : [(n - 1) >> 1, (n - 1) >> 1];
    if (!step) { showCursor(); return; }
  }
  if (step) {
    keyCursor = [Math.min(n - 1, Math.max(0, keyCursor[0] + step[0])), Math.min(n - 1, Math.max(0, keyCursor[1] + step[1]))];
    showCursor();
  } else {
    playAt(keyCursor[0], keyCursor[1]);
  }
});
function showCursor() {
  const name = toName(keyCursor[0], keyCursor[1], game.size);
  canvas.setAttribute("aria-label", `board, cursor at ${name}`);
  say(`${name}, ${pointText(name)}`);
  draw();
}

// What is on a point, for the cursor's announcement: a stone, or an empty point and whether
// Black may play there under renju.
function pointText(name) {
  const k = shownMoves().indexOf(name);
  if (k >= 0) return `${colourAt(k).toLowerCase()} stone`;
  if ((game.fouls || []).some((f) => f.point === name)) return "empty, forbidden for Black";
  return "empty";
}
canvas.addEventListener("blur", () => {
  canvas.setAttribute("aria-label", BOARD_LABEL);
  if (keyCursor) { keyCursor = null; draw(); }
});

$("undo").onclick = () => run(() => gameApi("undo", {}));
$("hint").onclick = () => {
  if (!game) return;
  if (game.result) { notify("The game is over: there is no move to suggest."); return; }
  // In analysis mode the position's own analysis has the move: no second search to disagree.
  if (game.ai === "none" && analysing) { hintWanted = true; return; } // marked when it ends
  if (game.ai === "none" && game.analysis) { hintMove = game.analysis.best_move; say(`Hint: ${hintMove}.`); draw(); return; }
  run(async () => {
    const g = await gameApi("hint", {});
    hintMove = g.analysis.best_move; return g;
  });
};
$("threats-button").onclick = () => threats();
$("review-button").onclick = () => reviewGame();
// The engine takes the player's side (as `c` in the terminal): the same moves, started again
// with the AI on the other colour; it moves at once if it is now its turn.
$("swap").onclick = () => {
  if (!game) return;
  if (game.ai === "none") { notify("You play both sides: there is no engine side to swap (choose Black or White and Start)."); return; }
  if (game.result) { notify("The game is over: start a new one to play the other colour."); return; }
  const ai = game.ai === "white" ? "black" : "white";
  run(async () => {
    const g = await api("/api/games", gameRequest(ai));
    $("colour").value = ai === "white" ? "black" : "white";
    return g;
  });
};
// A game in progress, or a position being analysed, is dropped only when the player says
// so: one misclick lost it.
function mayDrop() {
  if (!game || game.result || game.moves.length === 0) return true;
  return window.confirm(game.ai === "none"
    ? `Start a new game? The ${game.moves.length} moves of this position will be dropped.`
    : "Resign this game and start a new one?");
}
$("resign").onclick = () => { if (mayDrop()) newGame(); };
$("start").onclick = () => { if (mayDrop()) newGame(); };
// A new engine time applies to the game under way (the next game's otherwise).
$("time").onchange = () => {
  if (!game || busy || game.result) return;
  run(() => gameApi("time", { time_ms: parseInt($("time").value, 10) }));
};
$("numbers").onchange = draw;
$("nbest").onchange = () => { if (game && game.ai === "none" && !game.result && !busy) analyse(); };
$("import").onclick = () => {
  if (!$("movelist").value.trim()) { notify("The box is empty: paste a move list or an SGF record to load."); return; }
  newGame(recordOf($("movelist").value));
};
$("export").onclick = () => { $("movelist").value = game.moves.join(" "); };
$("export-sgf").onclick = async () => {
  try { $("movelist").value = await sgfText(); } catch (e) { notify(e.message); }
};
$("download-sgf").onclick = async (e) => {
  e.preventDefault();
  try {
    const url = URL.createObjectURL(new Blob([await sgfText()], { type: "application/x-go-sgf" }));
    const a = document.createElement("a");
    a.href = url; a.download = "wuzi.sgf"; a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (err) { notify(err.message); }
};
$("recordfile").onchange = async (e) => {
  const file = e.target.files[0];
  if (!file) return;
  const text = await file.text();
  e.target.value = ""; // the same file chosen again is loaded again
  newGame(file.name.toLowerCase().endsWith(".psq") ? { psq: text } : { sgf: text });
};

// The canvas follows the window (and a move between screens of different density).
window.addEventListener("resize", draw);

// Resume the saved game (the server may have restarted), or start one.
// When the server will not start it, the page shows its own copy and says why.
const saved = JSON.parse(localStorage.getItem(SAVE) || "null");
const shownAnyway = (request) => () => {
  if (game) return;
  game = localGame(request);
  syncTimeMenu();
  render();
};
if (saved) {
  $("rule").value = saved.rule; $("size").value = saved.size;
  $("colour").value = saved.ai === "none" ? "both" : saved.ai === "white" ? "black" : "white";
  const { id, ...request } = saved;
  run(() => resumeGame(saved)).then(shownAnyway(request));
} else {
  newGame().then(shownAnyway({
    rule: $("rule").value, size: parseInt($("size").value, 10), ai: "white",
    time_ms: parseInt($("time").value, 10), moves: [],
  }));
}
