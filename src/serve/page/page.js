// The web board: draws the state the server sends, turns clicks into moves, and
// polls the server so that a change of the rule file on disk shows without a click.
// The server knows the rules: the page only offers the legal moves it was sent, and
// sends anything else as typed so that the refusal comes back with its reason.
"use strict";

const POLL_MS = 500;
const SVG_NS = "http://www.w3.org/2000/svg";

let state = null; // the last state received
// {square: NAME} or {drop: SYMBOL, el: ELEMENT}; with `landed: NAME` once the first part
// of a two-part move is chosen, while its second part's square is asked for.
let selected = null;
let busy = false; // a request is under way: polls wait
let flipped = false; // the board seen from the second player's side

const $ = (id) => document.getElementById(id);

function show(id, text) {
  const el = $(id);
  el.textContent = text || "";
  el.hidden = !text;
}

// ---- talking to the server ------------------------------------------------------

async function poll() {
  if (busy) return;
  try {
    const since = state ? state.version : 0;
    const reply = await fetch(`/state?since=${since}${view()}`, { cache: "no-store" });
    if (reply.status === 200) draw(await reply.json());
  } catch (e) {
    show("message", "the server does not answer (was it stopped?)");
  }
}

// Posts an action; draws the new state, or shows why it was refused.
async function act(path, body) {
  busy = true;
  document.body.classList.add("busy");
  try {
    const reply = await fetch(path + "?" + view().slice(1), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: body ? JSON.stringify(body) : "{}",
    });
    const answer = await reply.json();
    if (reply.ok) {
      draw(answer);
      show("message", "");
    } else {
      show("message", answer.error);
    }
  } catch (e) {
    show("message", `the server does not answer: ${e}`);
  } finally {
    busy = false;
    document.body.classList.remove("busy");
  }
}

const play = (text) => act("/move", { move: text });

// The parameters of how the board is drawn.
const view = () => (flipped ? "&flipped=1" : "");

// Turns the board round: the next poll fetches it drawn the other way.
function flip() {
  flipped = !flipped;
  state = null;
  poll();
}

// ---- drawing ----------------------------------------------------------------------

function draw(s) {
  // A poll answered before an action may arrive after it: never step back.
  if (state && s.version < state.version) return;
  state = s;
  selected = null;
  hideChooser();
  document.title = `${s.title} — varsand`;
  $("title").textContent = s.title;
  $("file").textContent = s.file;
  $("board").innerHTML = s.svg;
  show("status", s.result ? `Game over: ${s.result}` : `${s.to_move} to move`);
  show("notice", s.notice);
  $("notice").classList.toggle("trouble", s.notice_tone === "trouble");
  $("notice").classList.toggle("warning", s.notice_tone === "warning");
  show("problems", s.problems);
  $("rules").textContent = s.rules;
  drawCards(s);
  $("fen").textContent = s.fen;
  $("undo").disabled = s.history.length === 0;
  $("redo").disabled = s.redo.length === 0;
  $("computer").disabled = Boolean(s.result);
  drawHistory(s);
  drawOtherMoves(s);
}

// The pieces, a card each: picture, name, letter, owner and value, the diagram of
// where it moves and captures, its moves in words. Drawn again only when they change
// (a reload of the rules), so that a poll leaves the panel as it is.
let cardsDrawn = "";

function drawCards(s) {
  const key = JSON.stringify(s.pieces);
  if (key === cardsDrawn) return;
  cardsDrawn = key;
  const box = $("cards");
  box.replaceChildren();
  for (const p of s.pieces) box.append(card(p));
}

function card(p) {
  const el = document.createElement("article");
  el.className = "card";
  el.dataset.piece = p.symbol;
  const head = document.createElement("header");
  const picture = document.createElement("span");
  picture.className = "card-picture";
  picture.innerHTML = p.picture;
  const name = document.createElement("h3");
  name.textContent = p.name;
  const facts = document.createElement("span");
  facts.className = "card-facts";
  const owner = p.owner ? `${p.owner}'s` : "";
  const value = p.value === null ? "" : `value ${p.value}`;
  facts.textContent = [p.symbol, p.glyphs.join(" "), owner, value].filter(Boolean).join(" · ");
  head.append(picture, name, facts);
  const diagram = document.createElement("div");
  diagram.className = "card-diagram";
  diagram.innerHTML = p.diagram;
  const moves = document.createElement("ul");
  for (const line of p.moves) {
    const item = document.createElement("li");
    item.textContent = line;
    moves.append(item);
  }
  el.append(head, diagram, moves);
  return el;
}

// The moves played, two plies to a line, then the moves redo would play, greyed.
function drawHistory(s) {
  const list = $("history");
  list.replaceChildren();
  const plies = s.history.map((t) => [t, "ply"]).concat(s.redo.map((t) => [t, "ply redo"]));
  for (let i = 0; i < plies.length; i += 2) {
    const item = document.createElement("li");
    for (const [text, kind] of plies.slice(i, i + 2)) {
      const span = document.createElement("span");
      span.className = kind;
      span.textContent = text + " ";
      item.append(span);
    }
    list.append(item);
  }
}

// Moves that are not from one square to another: passes, the swap, leaving the board.
function drawOtherMoves(s) {
  const box = $("other-moves");
  box.replaceChildren();
  for (const m of s.moves.filter(isOther)) {
    box.append(button(`${m.text}: ${m.label}`, () => play(m.text)));
  }
}

const isOther = (m) => !m.drop && (!m.from || !m.to || m.from === m.to);

function button(text, onclick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.addEventListener("click", onclick);
  return b;
}

// ---- marks on the board -------------------------------------------------------------

// The square element (not a piece standing on it) of a square.
function squareElement(name) {
  for (const el of $("board").querySelectorAll("[data-square]")) {
    if (el.dataset.square === name && !el.hasAttribute("data-piece")) return el;
  }
  return null;
}

function pieceOn(name) {
  for (const el of $("board").querySelectorAll("[data-piece][data-square]")) {
    if (el.dataset.square === name) return el;
  }
  return null;
}

// The box of an element in the coordinates of the board's outer SVG element.
function boxOf(el, svg) {
  const b = el.getBBox();
  const m = svg.getScreenCTM().inverse().multiply(el.getScreenCTM());
  const corner = (x, y) => new DOMPoint(x, y).matrixTransform(m);
  const p = corner(b.x, b.y);
  const q = corner(b.x + b.width, b.y + b.height);
  return { x: Math.min(p.x, q.x), y: Math.min(p.y, q.y), w: Math.abs(q.x - p.x), h: Math.abs(q.y - p.y) };
}

function circle(b, radius, width, kind) {
  const shape = document.createElementNS(SVG_NS, "circle");
  shape.setAttribute("cx", b.x + b.w / 2);
  shape.setAttribute("cy", b.y + b.h / 2);
  shape.setAttribute("r", radius);
  shape.setAttribute("stroke-width", width);
  shape.setAttribute("class", kind);
  return shape;
}

function mark(layer, svg, el, kind) {
  const b = boxOf(el, svg);
  const r = Math.min(b.w, b.h) / 2;
  let shape;
  if (kind === "vs-selected") {
    shape = document.createElementNS(SVG_NS, "rect");
    shape.setAttribute("x", b.x);
    shape.setAttribute("y", b.y);
    shape.setAttribute("width", b.w);
    shape.setAttribute("height", b.h);
    shape.setAttribute("stroke-width", r / 8);
  } else {
    // A dark core in a light ring (a target), a dark ring cased in light (a capture):
    // one of the two stands out on every square colour, terrain and zone tint.
    if (kind === "vs-capture") layer.append(circle(b, r * 0.85, r / 3, "vs-capture-casing"));
    shape = circle(b, kind === "vs-capture" ? r * 0.85 : r * 0.28, r / 6, kind);
  }
  shape.setAttribute("class", kind);
  layer.append(shape);
}

// Marks the selection and the squares it may reach, on top of everything.
function drawMarks() {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  svg.querySelector(".vs-marks")?.remove();
  if (!selected) return;
  const layer = document.createElementNS(SVG_NS, "g");
  layer.setAttribute("class", "vs-marks");
  svg.append(layer);
  const from = selected.el || squareElement(selected.square);
  if (from) mark(layer, svg, from, "vs-selected");
  const landed = selected.landed && squareElement(selected.landed);
  if (landed) mark(layer, svg, landed, "vs-selected");
  for (const m of selectedMoves()) {
    const square = selected.landed ? m.then : m.to;
    const el = squareElement(square);
    if (el) mark(layer, svg, el, pieceOn(square) ? "vs-capture" : "vs-target");
  }
}

// ---- clicks -----------------------------------------------------------------------

// The legal moves of the selection that go to a square.
// Once the first part of a two-part move is chosen, those of its moves.
function selectedMoves() {
  if (!selected || !state) return [];
  const moves = state.moves.filter((m) =>
    selected.drop ? m.drop === selected.drop : m.from === selected.square && m.to && m.to !== m.from,
  );
  return selected.landed ? moves.filter((m) => m.to === selected.landed && m.then) : moves;
}

const movesFrom = (square) => state.moves.filter((m) => m.from === square && m.to);

// Moves that leave the piece on its square, turned into another (`moves in-place`):
// a second click on the selected piece offers them.
const movesInPlace = (square) => state.moves.filter((m) => m.from === square && m.to === square);

function select(sel) {
  selected = sel;
  hideChooser();
  drawMarks();
}

function onBoardClick(event) {
  if (!state || busy) return;
  const hand = event.target.closest("[data-hand]");
  if (hand) return clickHand(hand);
  const square = event.target.closest("[data-square]");
  if (square) clickSquare(square.dataset.square);
}

// Dragging: a press on a piece that may move (or on a hand's piece that may be
// placed), released over another square, plays as the two clicks would. A release on
// the same square is left to the click that follows (it selects, as before).
let dragFrom = null;

function onBoardPress(event) {
  dragFrom = null;
  if (!state || busy || event.button !== 0) return;
  const hand = event.target.closest("[data-hand]");
  if (hand) {
    const symbol = hand.dataset.piece;
    if (state.moves.some((m) => m.drop === symbol)) dragFrom = { drop: symbol, el: hand };
    return;
  }
  const square = event.target.closest("[data-square]");
  if (square && movesFrom(square.dataset.square).length > 0) {
    dragFrom = { square: square.dataset.square };
  }
}

function onBoardRelease(event) {
  const from = dragFrom;
  dragFrom = null;
  if (!from || !state || busy) return;
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const square = under && under.closest("#board [data-square]");
  if (!square || square.dataset.square === from.square) return;
  show("message", "");
  selected = from;
  clickSquare(square.dataset.square);
}

// A piece in a hand: selects it if the side to move may place it.
function clickHand(el) {
  const symbol = el.dataset.piece;
  const drops = state.moves.filter((m) => m.drop && m.drop === symbol);
  if (drops.length === 0) {
    select(null);
    show("message", `no ${symbol} can be placed from the hand now (${state.to_move} to move)`);
    return;
  }
  show("message", "");
  select({ drop: symbol, el });
}

// The second part of a two-part move: the square its terrain goes to.
function clickSecondSquare(name) {
  const moves = selectedMoves();
  const options = moves.filter((m) => m.then === name);
  if (options.length === 1) return play(options[0].text);
  if (options.length > 1) return choose(options);
  // Not a square it may use: the server says why.
  const text = `${moves[0].text.split(",")[0]},${selected.landed}${name}`;
  select(null);
  return play(text);
}

function clickSquare(name) {
  if (selected && selected.landed) return clickSecondSquare(name);
  if (selected) {
    const options = selectedMoves().filter((m) => m.to === name);
    if (options.length > 0 && options.every((m) => m.then)) {
      show("message", "now the square of the move's second part");
      return select({ ...selected, landed: name });
    }
    if (options.length === 1) return play(options[0].text);
    if (options.length > 1) return choose(options);
    if (selected.square === name) {
      const inPlace = movesInPlace(name);
      return inPlace.length > 0 ? choose(inPlace) : select(null);
    }
    if (movesFrom(name).length > 0) return select({ square: name });
    // Not a legal target: the server says why.
    const text = selected.drop ? `${selected.drop}@${name}` : `${selected.square}${name}`;
    select(null);
    return play(text);
  }
  if (movesFrom(name).length > 0) {
    show("message", "");
    return select({ square: name });
  }
  const placements = directPlacements(name);
  if (placements.length === 1) return play(placements[0].text);
  if (placements.length > 1) return choose(placements);
  const piece = pieceOn(name);
  show(
    "message",
    state.result
      ? `the game is over: ${state.result}`
      : piece
        ? `the piece on ${name} has no legal move (${state.to_move} to move)`
        : `no piece on ${name}`,
  );
}

// The placements a click on an empty square makes at once, without a hand's piece
// selected first: where every legal move places a piece (Othello's discs), or where
// the piece placed has no hand to click (a copy next to one's own, as in Ataxx).
function directPlacements(name) {
  const here = state.moves.filter((m) => m.drop && m.to === name);
  const allPlace = state.moves.every((m) => m.drop || isOther(m));
  const handless = (m) => !$("board").querySelector(`[data-hand][data-piece="${m.drop}"]`);
  return allPlace ? here : here.filter(handless);
}

// Several moves between the same squares (promotions, flips): the player picks one.
function choose(options) {
  const box = $("choices");
  box.replaceChildren();
  for (const m of options) box.append(button(`${m.text}: ${m.label}`, () => play(m.text)));
  $("chooser").hidden = false;
}

function hideChooser() {
  $("chooser").hidden = true;
}

function start() {
  $("board").addEventListener("click", onBoardClick);
  $("board").addEventListener("pointerdown", onBoardPress);
  $("board").addEventListener("pointerup", onBoardRelease);
  // The board's pictures are not dragged as images.
  $("board").addEventListener("dragstart", (event) => event.preventDefault());
  $("undo").addEventListener("click", () => act("/undo"));
  $("redo").addEventListener("click", () => act("/redo"));
  $("computer").addEventListener("click", () => act("/computer"));
  $("new").addEventListener("click", () => act("/new"));
  $("flip").addEventListener("click", flip);
  $("cancel").addEventListener("click", () => select(null));
  poll();
  setInterval(poll, POLL_MS);
}

start();
