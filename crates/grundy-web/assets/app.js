// grundy's page: a thin layer over the JSON API. No game logic here — every value, move,
// verdict and explanation comes from the server. The DOM is built with createElement and
// textContent only: a spec or a file name never becomes markup.
'use strict';

const $ = (id) => document.getElementById(id);
const SVG_NS = 'http://www.w3.org/2000/svg';

/** An element with attributes (`class`, `text`, other attributes) and children. */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  for (const c of children) node.append(c instanceof Node ? c : String(c));
  return node;
}

/** An SVG element. */
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  for (const c of children) node.append(c instanceof Node ? c : String(c));
  return node;
}

function setAttrs(node, attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') node.textContent = String(v);
    else if (k === 'class') node.setAttribute('class', v);
    else node.setAttribute(k, String(v));
  }
}

function clear(node) {
  node.replaceChildren();
}

/** Marks a big integer between parsing and reviving (a string the API never sends). */
const BIG = '\u0000bigint:';
const BIG_DIGITS = /^\u0000bigint:(-?\d+)$/;

/**
 * Parses the API's JSON without losing a digit: an integer literal past 2^53 (a Grundy value
 * of a heap of 10^18, say) becomes a BigInt, which the page shows exactly, where JSON.parse
 * would round it to the nearest double. Works on the raw text, outside strings, so that it
 * does not depend on the reviver's `context.source` (which not every browser has).
 */
function parseJson(text) {
  let out = '';
  let copied = 0;
  const n = text.length;
  const isDigit = (c) => c >= 48 && c <= 57;
  for (let i = 0; i < n;) {
    const c = text.charCodeAt(i);
    if (c === 34) { // a string: skip it whole, escapes included
      i += 1;
      while (i < n && text.charCodeAt(i) !== 34) i += text.charCodeAt(i) === 92 ? 2 : 1;
      i += 1;
    } else if (c === 45 || isDigit(c)) { // a number
      let j = i + (c === 45 ? 1 : 0);
      while (j < n && isDigit(text.charCodeAt(j))) j += 1;
      let integer = true;
      while (j < n && /[.eE+\-0-9]/.test(text[j])) { integer = false; j += 1; }
      const literal = text.slice(i, j);
      if (integer && !Number.isSafeInteger(Number(literal))) {
        out += `${text.slice(copied, i)}${JSON.stringify(BIG + literal)}`;
        copied = j;
      }
      i = j;
    } else {
      i += 1;
    }
  }
  if (copied === 0) return JSON.parse(text);
  return JSON.parse(out + text.slice(copied), (_, v) => {
    const big = typeof v === 'string' && BIG_DIGITS.exec(v);
    return big ? BigInt(big[1]) : v;
  });
}

/** JSON for a request body: a BigInt the API sent goes back as the same digits. */
function toJson(value) {
  const text = JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${BIG}${v}` : v));
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1');
}

/** A fresh word for one request, to ask `/api/progress` how far it has got. */
function newTicket() {
  return `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/** How many requests are being waited on: the "thinking" line shows while any is. */
let waiting = 0;

/**
 * Runs `request(ticket)` (a call of the API that brings `ticket`) and, when it takes
 * longer than a moment, shows in `box` that grundy is thinking: the seconds so far and
 * the library's own progress (its stage and count), asked of `/api/progress`.
 */
async function thinking(box, request) {
  const ticket = newTicket();
  let done = false;
  waiting += 1;
  const show = (p) => {
    if (done) return;
    const seconds = p && p.working ? Number(p.seconds) : null;
    let text = 'grundy is thinking…';
    if (seconds !== null) text += ` ${seconds.toFixed(1)} s`;
    if (p && p.working && p.stage) text += ` — ${p.stage}: ${Number(p.done).toLocaleString('en')}`;
    box.textContent = text;
    if (p && p.stage) box.dataset.stage = p.stage;
    box.hidden = false;
  };
  const follow = async () => {
    show(null);
    while (!done) {
      try {
        show(await api(`/api/progress?ticket=${ticket}`));
      } catch (e) {
        // No progress to show: the answer comes all the same.
      }
      await sleep(400);
    }
  };
  const timer = setTimeout(follow, 300);
  try {
    return await request(ticket);
  } finally {
    done = true;
    clearTimeout(timer);
    waiting -= 1;
    if (waiting === 0) {
      box.hidden = true;
      delete box.dataset.stage;
    }
  }
}

/** Calls the API; throws an Error carrying the server's reason. */
async function api(path, options = {}) {
  let response;
  try {
    response = await fetch(path, options);
  } catch (e) {
    throw new Error(`cannot reach the grundy server: ${e.message}`);
  }
  let body = null;
  try {
    body = parseJson(await response.text());
  } catch (e) {
    throw new Error(`the server answered ${response.status} without JSON`);
  }
  if (!response.ok) {
    const err = new Error(body && body.error ? body.error : `error ${response.status}`);
    err.kind = body && body.kind;
    throw err;
  }
  return body;
}

function showError(box, error) {
  if (error) {
    box.textContent = error.message || String(error);
    box.hidden = false;
  } else {
    box.textContent = '';
    box.hidden = true;
  }
}

const OUTCOME_CLASS = { win: 'win', loss: 'loss', draw: 'draw' };

/** The value of a move, for the player who makes it. */
function moveValue(m) {
  if (m.scores) {
    const quality = m.worse_by === 0 || m.worse_by === undefined ? 'best' : `worse by ${m.worse_by}`;
    return `${quality}: ends ${m.scores[0]} (mover) to ${m.scores[1]}`;
  }
  if (m.outcome === 'draw') return 'draw';
  const word = m.outcome === 'win' ? 'win' : 'lose';
  return m.remoteness === null || m.remoteness === undefined ? word : `${word} in ${m.remoteness}`;
}

/** One line on a position, for the player to move. */
function positionSummary(r) {
  const who = { win: 'the player to move wins', loss: 'the player to move loses', draw: 'a draw' }[r.outcome];
  let line = `${r.spec}: ${who}`;
  if (r.scores) line += `, ${r.scores[0]} to ${r.scores[1]} under best play`;
  else if (r.remoteness !== null && r.remoteness !== undefined) {
    line += ` (${r.remoteness} more moves under perfect play)`;
  }
  return line;
}

// ---------------------------------------------------------------------------------------
// Tabs
// ---------------------------------------------------------------------------------------

function showPanel(name) {
  for (const tab of document.querySelectorAll('.tab')) {
    const on = tab.dataset.panel === name;
    tab.setAttribute('aria-selected', on ? 'true' : 'false');
    $(tab.dataset.panel).hidden = !on;
  }
}

// ---------------------------------------------------------------------------------------
// Explore
// ---------------------------------------------------------------------------------------

/** The position in the address, `#explore=SPEC`, or null. */
function specInUrl() {
  const m = /^#explore=(.*)$/s.exec(window.location.hash);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch (e) {
    return null;
  }
}

/** Counts explorations, so that only the latest one's answer is shown. */
let exploring = 0;

/**
 * Explores `specText`. The position goes into the address (a new history entry, unless
 * `push` is false: the address already says it), so that it can be shared, and Back and
 * Forward step through the positions explored.
 */
async function explore(specText, { push = true } = {}) {
  const spec = specText.trim();
  $('spec').value = spec;
  if (push && spec && specInUrl() !== spec) {
    window.history.pushState({ spec }, '', `#explore=${encodeURIComponent(spec)}`);
  }
  const mine = ++exploring;
  showError($('explore-error'), null);
  $('explore-busy').hidden = false;
  try {
    const answer = await thinking($('explore-thinking'),
      (ticket) => api(`/api/explore?${new URLSearchParams({ spec, ticket })}`));
    if (mine === exploring) renderExplore(answer);
  } catch (e) {
    if (mine === exploring) {
      $('explore-result').hidden = true;
      showError($('explore-error'), e);
    }
  } finally {
    if (mine === exploring) $('explore-busy').hidden = true;
  }
}

/** Back or Forward: the game the address names, or explore the position it names (or show none). */
function followUrl() {
  const playing = playInUrl();
  if (playing) {
    followPlay(playing);
    return;
  }
  const spec = specInUrl();
  showPanel('explore');
  if (spec !== null) {
    explore(spec, { push: false });
  } else {
    exploring += 1;
    $('explore-result').hidden = true;
    $('explore-busy').hidden = true;
    showError($('explore-error'), null);
  }
}

/**
 * What a move changes in a sum: the parts of `to` (split at ` + `) that differ from those
 * of `from`, after the parts both begin and end with; the whole of `to` when `from` has one
 * part. Text only: the server names every position.
 */
function changedPart(from, to) {
  const a = from.split(' + ');
  const b = to.split(' + ');
  if (a.length === 1) return to;
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head
    && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail += 1;
  const changed = b.slice(head, b.length - tail);
  if (changed.length) return changed.join(' + ');
  const gone = a.slice(head, a.length - tail);
  return gone.length ? `${gone.join(' + ')} gone` : to;
}

/** The most moves the Explore tab lists before it lists only the winning ones. */
const MAX_LISTED = 400;

/**
 * Who took each claimed cell (dots and boxes' boxes) in the positions Explore reached by
 * a move clicked: spec → Map("row,column" → "first" | "second"). The position does not
 * say who closed a box; the moves that led to it do (each move's `claims` and
 * `claimed_by`, from the API). A position first reached by typing it has no owners.
 */
const exploreOwners = new Map();
/** The most positions whose owners are kept. */
const MAX_OWNED = 500;

/** Explores the position move `m` of report `r` leads to, its boxes' owners carried on. */
function exploreMove(r, m) {
  const owners = new Map(exploreOwners.get(r.spec) || []);
  for (const [row, column] of m.claims || []) owners.set(`${row},${column}`, m.claimed_by);
  if (owners.size) {
    if (exploreOwners.size >= MAX_OWNED) exploreOwners.delete(exploreOwners.keys().next().value);
    exploreOwners.set(m.spec, owners);
  }
  explore(m.spec);
}

function renderExplore(answer) {
  const r = answer.report;
  if (r.family) selectOptions(r.family);
  const summary = $('summary');
  summary.textContent = positionSummary(r);
  summary.className = `summary ${OUTCOME_CLASS[r.outcome] || ''}`;

  const facts = $('facts');
  clear(facts);
  const fact = (name, value) => facts.append(el('dt', { text: name }), el('dd', { text: value }));
  fact('outcome', r.outcome);
  fact('remoteness', r.remoteness === null || r.remoteness === undefined ? '—' : r.remoteness);
  if (r.grundy !== undefined) fact('Grundy value', r.grundy);
  if (r.scores) fact('scores', `${r.scores[0]} (player to move), ${r.scores[1]} (other)`);
  if (r.scores) fact('best moves', r.moves.filter((m) => m.worse_by === 0).length);
  else fact('winning moves', r.winning_moves.length);
  fact('method', r.method + (r.positions !== undefined ? ` over ${r.positions} positions` : '')
    + (r.up_to_symmetry ? ' up to symmetry' : '')
    + (r.nodes !== undefined ? ` over ${r.nodes} nodes: a weak solution (this position and its moves)` : ''));
  if (r.rule) fact('rule', r.rule);

  const compBox = $('components-box');
  const body = $('components').tBodies[0];
  clear(body);
  if (r.components && r.components.length) {
    for (const c of r.components) {
      body.append(el('tr', {}, el('td', {}, el('code', { text: c.spec })), el('td', { text: c.grundy })));
    }
    body.append(el('tr', { class: 'total' }, el('td', { text: 'xor' }), el('td', { text: r.grundy })));
    compBox.hidden = false;
  } else {
    compBox.hidden = true;
  }

  renderValue(answer.value);

  const board = $('explore-board');
  clear(board);
  if (r.figure) {
    board.append(drawFigure(r.figure, r.moves, { coloured: true, onMove: (m) => exploreMove(r, m), last: null, id: 'explore-drawing' }),
      el('p', { class: 'note', text: figureNote(r.figure, null, r.moves.length === 0) }));
  } else if (r.picture) {
    board.append(drawBoard(r.picture, r.moves, {
      coloured: true, onMove: (m) => exploreMove(r, m), id: 'explore-drawing', owners: exploreOwners.get(r.spec),
    }));
  } else if (r.boards) {
    board.append(drawBoards(r.boards, r.moves, {
      coloured: true, onMove: (m) => explore(m.spec), id: 'explore-drawing',
    }));
  }
  board.hidden = !r.picture && !r.figure && !r.boards;

  const list = $('moves');
  clear(list);
  // Long lists show their first moves and every winning one.
  const shown = r.moves.length <= MAX_LISTED
    ? r.moves
    : r.moves.slice(0, MAX_LISTED).concat(r.moves.slice(MAX_LISTED).filter((m) => m.outcome === 'win'));
  for (const m of shown) {
    // The tile names the move as the library does ("column 1"; in a sum, the part the move
    // changes), coloured by its value, shaded by remoteness; its title the
    // whole position. A click anywhere on it explores that position (the button inside is
    // for the keyboard, named by the move and its value).
    const item = el('li', {
      class: `move ${OUTCOME_CLASS[m.outcome] || ''}`, 'data-spec': m.spec, title: `explore ${m.spec}`,
      'data-strength': strength(m).toFixed(2),
    });
    item.style.background = valueColour(m);
    const name = r.spec.includes(' + ') || !m.name ? changedPart(r.spec, m.spec) : m.name;
    const link = el('button', { type: 'button', class: 'spec', text: name, 'aria-label': `${name}: ${moveValue(m)}` });
    item.addEventListener('click', () => exploreMove(r, m));
    item.append(link, el('span', { class: 'value', text: moveValue(m) }));
    if (m.grundy !== undefined) item.append(el('span', { class: 'grundy', text: `G = ${m.grundy}` }));
    list.append(item);
  }
  let note = r.moves.length === 0 ? 'No move: the game is over.' : `${r.moves.length} moves.`;
  if (shown.length < r.moves.length) note = `${r.moves.length} moves: the first ${MAX_LISTED} and every winning one are shown.`;
  if (r.moves_truncated) note = `Only ${shown.length} moves are listed (every winning one among them).`;
  $('moves-note').textContent = note;

  const tables = $('tables');
  clear(tables);
  for (const t of answer.tables) tables.append(renderTable(t));
  $('explore-result').hidden = false;
}

/**
 * The combinatorial game value of a position with a partizan part (the server sends it
 * when every part has one): its canonical form as CGSuite writes it, outcome class, mean,
 * temperature, atomic weight, and its thermograph, drawn by the server as SVG.
 */
function renderValue(v) {
  const box = $('value-box');
  const facts = $('value-facts');
  clear(facts);
  box.hidden = !v;
  if (!v) return;
  const fact = (name, value) => facts.append(el('dt', { text: name }), el('dd', { text: value }));
  fact('value', v.value);
  fact('outcome class', `${v.class}: ${v.winner}`);
  fact('mean', v.mean);
  fact('temperature', v.temperature);
  if (v.atomic_weight) fact('atomic weight', v.atomic_weight);
  if (v.reduced_canonical_form && v.reduced_canonical_form !== v.value) fact('reduced canonical form', v.reduced_canonical_form);
  if (v.parts.length > 1) for (const p of v.parts) fact(p.spec, `${p.value} (${p.class})`);
  // The picture is made only when there is one to show (the page holds no image else).
  const drawn = $('thermograph-box');
  clear(drawn);
  if (v.thermograph_svg) {
    drawn.append(el('img', {
      id: 'thermograph',
      class: 'thermograph',
      src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(v.thermograph_svg)}`,
      alt: `thermograph of ${v.value}: mean ${v.mean}, temperature ${v.temperature}`,
    }));
  }
}

function renderTable(t) {
  const box = el('section', { class: 'table-box' });
  if (t.error) {
    box.append(el('h2', { text: `${t.family}: small cases` }), el('p', { class: 'note', text: t.error }));
    return box;
  }
  const n = t.grundy.length - 1;
  box.append(el('h2', { text: `${t.family}: heap sizes 0..${n}` }));
  const losing = [];
  t.outcome.forEach((o, h) => { if (o === 'loss') losing.push(h); });
  box.append(el('p', { class: 'p-positions', text: `Losing (P-) positions: ${losing.join(', ') || 'none'}` }));

  const grid = el('table', { class: 'grid' });
  const perRow = 10;
  const head = el('tr', {}, el('th', { text: 'n' }));
  for (let c = 0; c < perRow; c++) head.append(el('th', { text: `+${c}` }));
  grid.append(el('thead', {}, head));
  const body = el('tbody');
  for (let row = 0; row * perRow <= n; row++) {
    const tr = el('tr', {}, el('th', { text: row * perRow }));
    for (let c = 0; c < perRow; c++) {
      const h = row * perRow + c;
      if (h > n) { tr.append(el('td')); continue; }
      tr.append(el('td', {
        class: t.outcome[h] === 'loss' ? 'loss' : 'win',
        title: `${t.family}(${h}): Grundy ${t.grundy[h]}, ${t.outcome[h]} for the player to move`,
        text: t.grundy[h],
      }));
    }
    body.append(tr);
  }
  grid.append(body);
  // A wide table scrolls in its box, which the keyboard can scroll too.
  box.append(el('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': `${t.family}: Grundy values by heap size` }, grid), plot(t));
  const rule = el('p', { class: 'rule' });
  if (t.rule === null || t.rule === undefined) {
    rule.append(el('strong', { text: 'Rule: ' }), 'none discovered yet for this family.');
  } else {
    rule.append(el('strong', { text: 'Rule: ' }), t.rule.rule);
    const how = t.rule.proved
      ? `proved${t.rule.theorem ? `: ${t.rule.theorem}` : ''}`
      : `checked against the general method up to ${t.rule.checked_up_to}, not proved`;
    rule.append(el('span', { class: 'how', text: ` (${how})` }));
  }
  box.append(rule);
  return box;
}

/** The Grundy plot: one bar per heap size; losing positions (value 0) as red dots. */
function plot(t) {
  // Heights only (a BigInt does not mix with arithmetic); the titles keep every digit.
  const values = t.grundy.map(Number);
  const n = values.length;
  const max = Math.max(1, ...values);
  const w = 640, h = 180, left = 36, bottom = 22, top = 8, right = 8;
  const bw = (w - left - right) / n;
  const y = (g) => top + (h - top - bottom) * (1 - g / max);
  const chart = svg('svg', {
    class: 'plot', viewBox: `0 0 ${w} ${h}`, role: 'img',
    'aria-label': `Grundy values of ${t.family} for heap sizes 0 to ${n - 1}`,
  });
  chart.append(svg('title', { text: `Grundy values of ${t.family}` }));
  chart.append(svg('line', { x1: left, y1: y(0), x2: w - right, y2: y(0), class: 'axis' }));
  chart.append(svg('line', { x1: left, y1: top, x2: left, y2: y(0), class: 'axis' }));
  chart.append(svg('text', { x: left - 6, y: y(max) + 4, class: 'tick', 'text-anchor': 'end', text: max }));
  chart.append(svg('text', { x: left - 6, y: y(0) + 4, class: 'tick', 'text-anchor': 'end', text: 0 }));
  for (const at of [0, Math.floor((n - 1) / 2), n - 1]) {
    chart.append(svg('text', { x: left + bw * (at + 0.5), y: h - 6, class: 'tick', 'text-anchor': 'middle', text: at }));
  }
  values.forEach((g, i) => {
    const x = left + bw * i;
    if (g === 0) {
      chart.append(svg('circle', { cx: x + bw / 2, cy: y(0), r: Math.min(3, bw / 2), class: 'p-dot' },
        svg('title', { text: `${i}: 0 (losing)` })));
    } else {
      chart.append(svg('rect', { x: x + bw * 0.1, y: y(g), width: bw * 0.8, height: y(0) - y(g), class: 'bar' },
        svg('title', { text: `${i}: ${t.grundy[i]}` })));
    }
  });
  return chart;
}

// ---------------------------------------------------------------------------------------
// Boards
// ---------------------------------------------------------------------------------------

// Value colours: Okabe and Ito's colour-blind-safe palette — a win bluish green, a draw
// yellow, a loss vermillion, for the player who makes the move — each shaded by the
// remoteness (GamesmanUni's): a win or loss in 1 at full strength, paler the farther the
// end, the same remoteness the same shade on every board; a score game's best moves
// strongest, paler the more a move falls short.
const PALETTE = { win: [0, 158, 115], draw: [240, 228, 66], loss: [213, 94, 0] };
const PALEST = 0.3;

/** How far move `m` is from the end: its remoteness, or how much worse than the best. */
function distance(m) {
  if (m.scores) return Number(m.worse_by || 0);
  if (m.outcome === 'draw' || m.remoteness === null || m.remoteness === undefined) return null;
  return Number(m.remoteness);
}

/**
 * The strength of move `m`'s colour in (PALEST, 1]: 1 in 1 move (or best), halfway to
 * PALEST 4 moves later, a quarter of the way 12 later.
 */
function strength(m) {
  const d = distance(m);
  if (d === null) return 1;
  const steps = Math.max(0, d - (m.scores ? 0 : 1));
  return PALEST + (1 - PALEST) / (1 + steps / 4);
}

/**
 * The colour of `outcome` at strength `t`, mixed with white: at most 80% of the palette's
 * colour, so that dark text on it keeps a contrast of 5:1.
 */
function tint(outcome, t) {
  const rgb = PALETTE[outcome] || [156, 163, 175];
  return `rgb(${rgb.map((v) => Math.round(255 - (255 - v) * t * 0.8)).join(', ')})`;
}

/** The colour of move `m`. */
function valueColour(m) {
  return tint(m.outcome, strength(m));
}

/** The legend of the value colours. */
function valueLegend() {
  const box = el('span', { class: 'value-legend', role: 'note', 'aria-label': 'colours: a move\'s value for the player who makes it, the stronger the nearer the end' });
  const chip = (outcome, t, text) => {
    const c = el('span', { class: `swatch ${outcome}` });
    c.style.background = tint(outcome, t);
    return el('span', { class: 'key' }, c, text);
  };
  const later = strength({ outcome: 'win', remoteness: 13 });
  box.append(chip('win', 1, 'win in 1'), chip('win', later, 'win later'), chip('draw', 1, 'draw'),
    chip('loss', 1, 'lose in 1'), chip('loss', later, 'lose later'));
  return box;
}

/** Whose a claimed cell (a box) is: in Play you or grundy, in Explore the first or second player. */
const OWNER_WORDS = { you: 'yours', grundy: 'grundy\'s', first: 'the first player\'s', second: 'the second player\'s' };

/** A cell's side in the board's own units (the drawing scales to its box). */
const CELL = 60;
/** The widest a board is drawn, in pixels, and the most a cell takes. */
const BOARD_MAX = 480;
const CELL_MAX = 72;

/** The order of values for the player who makes the move: the better first. */
function moveRank(m) {
  if (m.worse_by !== undefined && m.worse_by !== null) return [Number(m.worse_by), 0];
  const r = m.remoteness === null || m.remoteness === undefined ? 0 : Number(m.remoteness);
  if (m.outcome === 'win') return [0, r];
  if (m.outcome === 'draw') return [1, 0];
  return [2, -r];
}

function better(a, b) {
  const [x, y] = [moveRank(a), moveRank(b)];
  return x[0] < y[0] || (x[0] === y[0] && x[1] < y[1]);
}

/** The moves of `moves` by the cell the API puts them at: `"row,column"` → moves. */
function movesByCell(moves) {
  const at = new Map();
  for (const m of moves) {
    if (!Array.isArray(m.cell)) continue;
    const key = `${m.cell[0]},${m.cell[1]}`;
    if (!at.has(key)) at.set(key, []);
    at.get(key).push(m);
  }
  return at;
}

/** The points of a polygon, as SVG writes them. */
const points = (ps) => ps.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(' ');

/** An X drawn as two strokes, or an O as a ring, centred at (cx, cy), of radius `r`. */
function mark(label, cx, cy, r) {
  if (label === 'X') {
    return svg('path', {
      class: 'piece x', d: `M${cx - r},${cy - r}L${cx + r},${cy + r}M${cx + r},${cy - r}L${cx - r},${cy + r}`,
    });
  }
  return svg('circle', { class: 'piece o', cx, cy, r });
}

/** A label written in a cell: the library's text, as given. */
function written(label, cx, cy, cls = 'label', size = CELL * 0.45) {
  return svg('text', {
    x: cx, y: cy, class: cls, 'text-anchor': 'middle', 'dominant-baseline': 'central',
    'font-size': Math.min(size, (CELL * 1.4) / Math.max(1, label.length)).toFixed(1), text: label,
  });
}

/** The hexagon of (r, c) on a rhombus: its centre and corners (pointy top). */
function hexagon(r, c) {
  const radius = CELL / Math.sqrt(3);
  const cx = CELL / 2 + c * CELL + r * (CELL / 2) + HEX_SIDE;
  const cy = radius + r * radius * 1.5 + HEX_SIDE;
  // Corners from the top, clockwise: top, upper right, lower right, bottom, lower left, upper left.
  const corners = [0, 1, 2, 3, 4, 5].map((k) => {
    const a = (Math.PI / 180) * (60 * k - 90);
    return [cx + radius * Math.cos(a), cy + radius * Math.sin(a)];
  });
  return { cx, cy, corners };
}

/** Room around a hex board for its coloured sides. */
const HEX_SIDE = 8;
/** Room around a connect four frame, and a dots-and-boxes board's box and margin. */
const FRAME = 10;
const BOX = 70;
const DOTS_MARGIN = 12;
/** A heap's token height, and the floor's row of sizes under the heaps. */
const TOKEN = 24;
const FLOOR = 30;

/** A token's radius on a ring or a row, the distance between two tokens, and the room around a ring. */
const RING_TOKEN = 13;
const RING_STEP = 36;
const RING_PAD = 8;

/**
 * Where the circles and rows of a `rings` picture stand (one grid row each, top to
 * bottom): a circle's tokens around a ring as long as its tokens need, a row's in a
 * line; each as wide as it needs, from the left. Kept with its picture.
 */
const ringLayouts = new WeakMap();
function ringLayout(p) {
  if (ringLayouts.has(p)) return ringLayouts.get(p);
  const groups = [];
  let top = 0;
  let width = 2 * RING_PAD + 2 * RING_TOKEN;
  for (let r = 0; r < p.rows; r++) {
    const labels = p.cells.slice(r * p.columns, (r + 1) * p.columns);
    const n = labels.filter(Boolean).length;
    const circle = labels[0] === 'c';
    if (circle) {
      const radius = Math.max(RING_STEP * 0.75, (n * RING_STEP) / (2 * Math.PI));
      const side = 2 * (radius + RING_TOKEN + RING_PAD);
      groups.push({ circle, n, radius, cx: side / 2, cy: top + side / 2 });
      width = Math.max(width, side);
      top += side;
    } else {
      const height = 2 * (RING_TOKEN + RING_PAD);
      groups.push({ circle, n, x0: RING_PAD + RING_TOKEN, cy: top + height / 2 });
      width = Math.max(width, 2 * RING_PAD + 2 * RING_TOKEN + Math.max(0, n - 1) * RING_STEP);
      top += height;
    }
  }
  const layout = { groups, width, height: Math.max(top, 2 * (RING_TOKEN + RING_PAD)) };
  ringLayouts.set(p, layout);
  return layout;
}

/** Token `c` of group `r` of a `rings` picture: its centre (a ring's clockwise from the top). */
function ringToken(p, r, c) {
  const g = ringLayout(p).groups[r];
  if (!g.circle) return [g.x0 + c * RING_STEP, g.cy];
  const a = -Math.PI / 2 + (2 * Math.PI * c) / g.n;
  return [g.cx + g.radius * Math.cos(a), g.cy + g.radius * Math.sin(a)];
}

/**
 * How each `look` of the library's pictures is drawn: the drawing's size; each cell's
 * centre and ground (the shape a move's value fills; null: nothing to draw there); the
 * piece a label shows; what lies under the cells (a frame, a rhombus's sides). The
 * geometry — rows, columns, which cell a move is clicked at — is the picture's.
 */
const LOOKS = {
  marks: {
    size: (p) => ({ width: p.columns * CELL, height: p.rows * CELL }),
    cell: (p, r, c) => ({
      cx: c * CELL + CELL / 2, cy: r * CELL + CELL / 2,
      ground: svg('rect', { x: c * CELL, y: r * CELL, width: CELL, height: CELL }),
    }),
    piece: (label, cx, cy) => (label === 'X' || label === 'O' ? mark(label, cx, cy, CELL * 0.28) : label ? written(label, cx, cy) : null),
  },
  cubes: {
    size: (p) => ({ width: p.columns * CELL, height: p.rows * CELL }),
    cell: (p, r, c) => {
      const border = r === 0 || c === 0 || r === p.rows - 1 || c === p.columns - 1;
      return {
        cx: c * CELL + CELL / 2, cy: r * CELL + CELL / 2, kind: border ? 'cube border' : 'cube',
        ground: svg('rect', { x: c * CELL + 3, y: r * CELL + 3, width: CELL - 6, height: CELL - 6, rx: 9 }),
      };
    },
    piece: (label, cx, cy) => (label === 'X' || label === 'O' ? mark(label, cx, cy, CELL * 0.24) : label ? written(label, cx, cy) : null),
  },
  discs: {
    size: (p) => ({ width: p.columns * CELL + 2 * FRAME, height: p.rows * CELL + 2 * FRAME }),
    under: (p, { width, height }) => [svg('rect', { class: 'frame', x: 0, y: 0, width, height, rx: 12 })],
    cell: (p, r, c) => {
      const cx = FRAME + c * CELL + CELL / 2;
      const cy = FRAME + r * CELL + CELL / 2;
      return { cx, cy, kind: 'hole', ground: svg('circle', { cx, cy, r: CELL * 0.41 }) };
    },
    piece: (label, cx, cy) => (label === 'X' || label === 'O'
      ? svg('circle', { class: `disc ${label.toLowerCase()}`, cx, cy, r: CELL * 0.37 })
      : label ? written(label, cx, cy) : null),
  },
  hexes: {
    size: (p) => {
      const radius = CELL / Math.sqrt(3);
      return {
        width: p.columns * CELL + Math.max(0, p.rows - 1) * (CELL / 2) + 2 * HEX_SIDE,
        height: 2 * radius + Math.max(0, p.rows - 1) * radius * 1.5 + 2 * HEX_SIDE,
      };
    },
    // X joins the top and bottom sides, O the left and right: each side drawn in its colour.
    under: (p) => {
      const side = (cls, ps) => svg('polyline', { class: `side ${cls}`, points: points(ps) });
      const out = [];
      for (let c = 0; c < p.columns; c++) {
        const top = hexagon(0, c).corners;
        const bottom = hexagon(p.rows - 1, c).corners;
        out.push(side('x', [top[5], top[0], top[1]]), side('x', [bottom[2], bottom[3], bottom[4]]));
      }
      for (let r = 0; r < p.rows; r++) {
        const left = hexagon(r, 0).corners;
        const right = hexagon(r, p.columns - 1).corners;
        out.push(side('o', [left[3], left[4], left[5]]), side('o', [right[0], right[1], right[2]]));
      }
      return out;
    },
    cell: (p, r, c) => {
      const { cx, cy, corners } = hexagon(r, c);
      return { cx, cy, ground: svg('polygon', { points: points(corners) }) };
    },
    piece: (label, cx, cy) => (label === 'X' || label === 'O'
      ? svg('circle', { class: `stone ${label.toLowerCase()}`, cx, cy, r: CELL * 0.34 })
      : label ? written(label, cx, cy) : null),
  },
  bar: {
    size: (p) => ({ width: p.columns * CELL, height: p.rows * CELL }),
    cell: (p, r, c) => {
      const label = p.cells[r * p.columns + c] || '';
      const kind = label === 'x' ? 'square poison' : label === '#' ? 'square' : 'eaten';
      return {
        cx: c * CELL + CELL / 2, cy: r * CELL + CELL / 2, kind,
        ground: svg('rect', { x: c * CELL + 2, y: r * CELL + 2, width: CELL - 4, height: CELL - 4, rx: 4 }),
      };
    },
    // The poisoned square shows a cross; the others their chocolate.
    piece: (label, cx, cy) => (label === 'x' ? mark('X', cx, cy, CELL * 0.2) : null),
  },
  lines: {
    size: (p) => ({
      width: 2 * DOTS_MARGIN + ((p.columns - 1) / 2) * BOX,
      height: 2 * DOTS_MARGIN + ((p.rows - 1) / 2) * BOX,
    }),
    cell: (p, r, c) => {
      const at = (k) => DOTS_MARGIN + (k / 2) * BOX;
      const [cx, cy] = [at(c), at(r)];
      if (r % 2 === 0 && c % 2 === 0) return { cx, cy, kind: 'dot', layer: 2, ground: svg('circle', { cx, cy, r: 5.5 }) };
      if (r % 2 === 1 && c % 2 === 1) {
        return {
          cx, cy, kind: 'box', layer: 0,
          ground: svg('rect', { x: at(c - 1) + 6, y: at(r - 1) + 6, width: BOX - 12, height: BOX - 12, rx: 3 }),
        };
      }
      const along = r % 2 === 0;
      const [w, h] = along ? [BOX - 14, 14] : [14, BOX - 14];
      return {
        cx, cy, kind: along ? 'slot across' : 'slot down', layer: 1, tag: [cx, cy],
        ground: svg('rect', { x: cx - w / 2, y: cy - h / 2, width: w, height: h, rx: 7 }),
        drawn: along ? svg('line', { class: 'drawn', x1: at(c - 1), y1: cy, x2: at(c + 1), y2: cy })
          : svg('line', { class: 'drawn', x1: cx, y1: at(r - 1), x2: cx, y2: at(r + 1) }),
      };
    },
    piece: (label, cx, cy, shape) => {
      if (label === '-' || label === '|') return shape.drawn;
      if (label === '#') return written('■', cx, cy, 'taken', BOX * 0.5);
      return null;
    },
  },
  pits: {
    size: (p) => ({ width: p.columns * CELL, height: p.rows * CELL }),
    under: (p, { width, height }) => [svg('rect', { class: 'wood', x: 0, y: 0, width, height, rx: CELL / 2 })],
    cell: (p, r, c) => {
      const stores = p.rows === 2 && p.columns >= 3;
      const cx = c * CELL + CELL / 2;
      if (stores && (c === 0 || c === p.columns - 1)) {
        // A store: the whole height of its column, drawn at its own cell (North's at the
        // top left, South's at the bottom right).
        const own = (c === 0) === (r === 0);
        if (!own) return null;
        return {
          cx, cy: p.rows * CELL / 2, kind: 'store', store: c === 0 ? 'North' : 'South',
          ground: svg('rect', { x: c * CELL + 6, y: 6, width: CELL - 12, height: p.rows * CELL - 12, rx: CELL / 2 - 6 }),
        };
      }
      const cy = r * CELL + CELL / 2;
      return { cx, cy, kind: 'pit', ground: svg('circle', { cx, cy, r: CELL * 0.4 }) };
    },
    piece: (label, cx, cy, shape) => {
      if (shape.store) {
        const g = svg('g', {}, written(`${shape.store}'s store`, cx, cy, 'store-name', 9));
        g.firstChild.setAttribute('transform', `rotate(-90 ${cx} ${cy})`);
        if (label) g.append(written(label, cx, cy + CELL * 0.6));
        return g;
      }
      return label ? written(label, cx, cy) : null;
    },
  },
  // Heaps of tokens: a column a heap, standing on a floor under which the last row says
  // each heap's size; a move is clicked at the lowest token it takes.
  heaps: {
    size: (p) => ({ width: p.columns * CELL, height: (p.rows - 1) * TOKEN + FLOOR }),
    under: (p, { width }) => [svg('line', { class: 'floor', x1: 2, y1: (p.rows - 1) * TOKEN, x2: width - 2, y2: (p.rows - 1) * TOKEN })],
    cell: (p, r, c) => {
      const cx = c * CELL + CELL / 2;
      if (r === p.rows - 1) {
        const cy = (p.rows - 1) * TOKEN + FLOOR / 2;
        return { cx, cy, kind: 'size', ground: svg('rect', { x: c * CELL + 4, y: cy - FLOOR / 2 + 2, width: CELL - 8, height: FLOOR - 4 }) };
      }
      const cy = r * TOKEN + TOKEN / 2;
      const token = (p.cells[r * p.columns + c] || '') === 'o';
      return {
        cx, cy, kind: token ? 'token' : 'air', tag: [c * CELL + CELL - 14, cy],
        ground: svg('rect', { x: c * CELL + 5, y: r * TOKEN + 2, width: CELL - 10, height: TOKEN - 4, rx: (TOKEN - 4) / 2 }),
      };
    },
    piece: (label, cx, cy, shape) => (shape.kind === 'size' ? written(label, cx, cy, 'label', FLOOR * 0.6) : null),
  },
  // Circles of tokens (a round table) and the rows a move opens them into: one grid row
  // a circle or a row, a token each cell; a move clicked at a token it takes.
  rings: {
    // Its places move from one position to the next (a circle opens into a row, a row
    // splits in two), so the cell the last move was clicked at is not marked after it.
    reflows: true,
    size: (p) => ringLayout(p),
    under: (p) => ringLayout(p).groups.filter((g) => g.circle)
      .map((g) => svg('circle', { class: 'table', cx: g.cx, cy: g.cy, r: g.radius })),
    cell: (p, r, c) => {
      const label = p.cells[r * p.columns + c] || '';
      if (!label) return null;
      const [cx, cy] = ringToken(p, r, c);
      return {
        cx, cy, kind: label === 'c' ? 'token on-ring' : 'token in-row', tag: [cx, cy],
        ground: svg('circle', { cx, cy, r: RING_TOKEN }),
      };
    },
    piece: () => null,
  },
  // A strip of cells: Left's toads (blue, facing right) and Right's frogs (vermillion,
  // facing left), each with its letter; a move clicked at the piece that moves.
  strip: {
    size: (p) => ({ width: p.columns * CELL, height: CELL }),
    cell: (p, r, c) => ({
      cx: c * CELL + CELL / 2, cy: CELL / 2, kind: 'strip-cell', tag: [c * CELL + CELL - 9, 10],
      ground: svg('rect', { x: c * CELL + 2, y: 2, width: CELL - 4, height: CELL - 4, rx: 5 }),
    }),
    piece: (label, cx, cy) => {
      if (label !== 'T' && label !== 'F') return label ? written(label, cx, cy) : null;
      const toad = label === 'T';
      const way = toad ? 1 : -1;
      const r = CELL * 0.3;
      // The body, and a nose the way the piece moves.
      const nose = [[cx + way * (r + 7), cy], [cx + way * (r - 3), cy - 8], [cx + way * (r - 3), cy + 8]];
      // Its letter, for the eye: the cell's name says what it is.
      const letter = written(label, cx, cy, 'animal-letter', CELL * 0.34);
      letter.setAttribute('aria-hidden', 'true');
      return svg('g', { class: `animal ${toad ? 'toad' : 'frog'}` },
        svg('polygon', { points: points(nose) }), svg('circle', { cx, cy, r }), letter);
    },
  },
  numbers: {
    size: (p) => ({ width: p.columns * CELL, height: p.rows * CELL }),
    cell: (p, r, c) => ({
      cx: c * CELL + CELL / 2, cy: r * CELL + CELL / 2, kind: 'card',
      ground: svg('rect', { x: c * CELL + 4, y: r * CELL + 4, width: CELL - 8, height: CELL - 8, rx: 6 }),
    }),
    piece: (label, cx, cy) => (label ? written(label, cx, cy) : null),
  },
};

/**
 * The way a move clicked at (r, c) that ends at `m.end` slides the cubes: a Quixo cube
 * pushed back in at the right end of its row slides the row left, and so on.
 */
function slide(m, r, c) {
  if (m.end[1] !== c) return m.end[1] < c ? '→' : '←';
  return m.end[0] < r ? '↓' : '↑';
}

/** The arrow keys, by the way they slide the cubes. */
const ARROW_KEYS = { ArrowRight: '→', ArrowLeft: '←', ArrowDown: '↓', ArrowUp: '↑' };

/** What a person calls cell (r, c) of a picture. */
function cellWords(picture, r, c, label) {
  const where = `row ${r + 1}, column ${c + 1}`;
  if (!label) return where;
  if (picture.look === 'heaps') {
    const heap = `heap ${c + 1}`;
    if (r === picture.rows - 1) return `${heap}: ${label} tokens`;
    return label ? `a token of ${heap}, ${picture.rows - 1 - r} from the bottom` : heap;
  }
  if (picture.look === 'rings') {
    return label === 'c' ? `token ${c + 1} of circle ${r + 1}, clockwise from the top`
      : `token ${c + 1} of row ${r + 1}, from the left`;
  }
  if (picture.look === 'strip') {
    return `${{ T: 'a toad', F: 'a frog' }[label] || label} (cell ${c + 1})`;
  }
  const what = { X: 'X', O: 'O', '#': picture.look === 'lines' ? 'a box taken' : 'a square', x: 'the poisoned square', '-': 'a line', '|': 'a line', '+': 'a dot' }[label];
  return `${what || label} (${where})`;
}

/**
 * A board as the API pictures it: a grid of `picture.rows` × `picture.columns` cells,
 * each drawn as its `look` says, showing what the library put in it (a piece `X` or
 * `O`, seeds, a line, a label). The cell of each move is a button named by the move and
 * its value (for screen readers); with `coloured`, it is filled by the move's value for
 * the player who makes it, shaded by remoteness, with the remoteness as a small number. A
 * cell with several moves (a Quixo cube) shows the best of them and, clicked, lists them
 * all. `last` marks the cell of the move just made.
 */
function drawBoard(picture, moves, { coloured, onMove, last, id, owners }) {
  const look = LOOKS[picture.look] || LOOKS.marks;
  const box = el('div', { class: 'board-box' });
  const { width, height } = look.size(picture);
  const drawing = svg('svg', {
    id, class: `board look-${picture.look || 'marks'}`, viewBox: `0 0 ${width.toFixed(2)} ${height.toFixed(2)}`, role: 'group',
    'aria-label': `the board, ${picture.rows} × ${picture.columns}`,
    'data-rows': picture.rows, 'data-columns': picture.columns, 'data-look': picture.look,
  });
  // Drawn at up to CELL_MAX px a cell, never wider than the box or BOARD_MAX.
  drawing.style.maxWidth = `${Math.min(BOARD_MAX, Math.ceil((width / CELL) * CELL_MAX))}px`;
  if (look.under) drawing.append(...look.under(picture, { width, height }));
  const layers = [0, 1, 2].map(() => svg('g'));
  drawing.append(...layers);
  const at = movesByCell(moves);
  // The line (or lines) that ended the game, as the library marks them.
  const won = new Set((picture.won || []).map(([r, c]) => `${r},${c}`));
  if (won.size) drawing.setAttribute('aria-label', `${drawing.getAttribute('aria-label')}, the winning line marked`);
  const choices = el('div', { class: 'cell-moves', hidden: true });
  // Each cell's centre, for the arrows of moves that end elsewhere; the moves of the cell
  // a drag started on.
  const centres = new Map();
  let dragged = null;
  drawing.addEventListener('pointerup', (e) => {
    const from = dragged;
    dragged = null;
    const at = e.target.closest && e.target.closest('g.cell');
    if (!from || !at) return;
    const m = from.find((x) => Array.isArray(x.end) && x.end[0] === Number(at.dataset.row) && x.end[1] === Number(at.dataset.column));
    if (m) onMove(m);
  });
  for (let r = 0; r < picture.rows; r++) {
    for (let c = 0; c < picture.columns; c++) {
      const label = picture.cells[r * picture.columns + c] || '';
      const shape = look.cell(picture, r, c);
      if (!shape) continue;
      const { cx, cy, ground } = shape;
      centres.set(`${r},${c}`, [cx, cy]);
      const here = at.get(`${r},${c}`) || [];
      const best = here.reduce((b, m) => (b === null || better(m, b) ? m : b), null);
      const value = best && coloured ? OUTCOME_CLASS[best.outcome] || '' : '';
      const isLast = !look.reflows && Array.isArray(last) && last[0] === r && last[1] === c;
      const isWon = won.has(`${r},${c}`);
      // Who claimed the cell (a box), by the value history's moves.
      const owner = owners ? owners.get(`${r},${c}`) : undefined;
      const cls = ['cell', shape.kind, here.length ? 'move' : '', value, isLast ? 'last' : '', isWon ? 'won' : '',
        owner ? `owner-${owner}` : ''].filter(Boolean).join(' ');
      const group = svg('g', { class: cls, 'data-row': r, 'data-column': c, 'data-label': label });
      ground.setAttribute('class', 'ground');
      group.append(ground);
      const piece = owner ? written(owner, cx, cy, 'owner', CELL * 0.3) : look.piece(label, cx, cy, shape);
      if (piece) group.append(piece);
      if (owner) group.setAttribute('data-owner', owner);
      let tip = cellWords(picture, r, c, label) + (isWon ? ': of the winning line' : '')
        + (owner ? `: ${OWNER_WORDS[owner] || owner}` : '');
      if (here.length) {
        tip = here.map((m) => `${m.name || m.spec}${coloured ? `: ${moveValue(m)}` : ''}`).join('\n');
        if (coloured) {
          const t = strength(best);
          ground.style.fill = tint(best.outcome, t);
          group.setAttribute('data-value', best.outcome);
          group.setAttribute('data-strength', t.toFixed(2));
        }
        if (coloured && best.remoteness !== null && best.remoteness !== undefined && !best.scores) {
          const [tx, ty] = shape.tag || [cx + CELL * 0.36, cy - CELL * 0.3];
          group.append(svg('text', {
            x: tx, y: ty, class: 'remoteness', 'text-anchor': shape.tag ? 'middle' : 'end',
            'dominant-baseline': 'central', text: best.remoteness,
          }));
        }
        if (here.length === 1) group.setAttribute('data-spec', here[0].spec);
        group.setAttribute('tabindex', '0');
        group.setAttribute('role', 'button');
        // Named by its moves and their values; what the cell shows (seeds, the
        // remoteness) is said by that name, begun with the cell's own text.
        const shows = piece ? [...(piece.tagName === 'text' ? [piece] : piece.querySelectorAll('text'))]
          .filter((t) => t.getAttribute('aria-hidden') !== 'true').map((t) => t.textContent).join(' ') : '';
        group.setAttribute('aria-label', `${shows ? `${shows}: ` : ''}${tip.replace(/\n/g, '; ')}`);
        const act = () => {
          if (here.length === 1) {
            onMove(here[0]);
            return;
          }
          // Several moves at one cell: list them under the board.
          clear(choices);
          choices.append(el('span', { class: 'note', text: `${cellWords(picture, r, c, label)}:` }));
          for (const m of here) {
            const b = el('button', {
              type: 'button', class: `choice ${coloured ? OUTCOME_CLASS[m.outcome] || '' : ''}`, 'data-spec': m.spec,
              'aria-label': `${m.name || m.spec}${coloured ? `: ${moveValue(m)}` : ''}`,
            }, el('span', { class: 'spec', text: m.name || m.spec }));
            if (coloured) {
              b.style.background = valueColour(m);
              b.append(el('span', { class: 'value', text: moveValue(m) }));
            }
            b.addEventListener('click', () => onMove(m));
            choices.append(b);
          }
          choices.hidden = false;
          // Moves that end elsewhere (a Quixo cube pushed back in at an end): an arrow at
          // each end, pointing the way the cubes slide, is the move too.
          for (const old of drawing.querySelectorAll('g.arrow')) old.remove();
          for (const m of here) {
            if (!Array.isArray(m.end) || !centres.has(m.end.join(','))) continue;
            const [ex, ey] = centres.get(m.end.join(','));
            const glyph = slide(m, r, c);
            const arrow = svg('g', {
              class: `arrow ${coloured ? OUTCOME_CLASS[m.outcome] || '' : ''}`, role: 'button', tabindex: 0,
              'data-row': m.end[0], 'data-column': m.end[1], 'data-spec': m.spec,
              'aria-label': `${m.name || m.spec}${coloured ? `: ${moveValue(m)}` : ''}`,
            }, svg('title', { text: m.name || m.spec }), svg('circle', { cx: ex, cy: ey, r: CELL * 0.3 }),
            written(glyph, ex, ey, 'glyph', CELL * 0.4));
            if (coloured) arrow.querySelector('circle').style.fill = valueColour(m);
            arrow.addEventListener('click', (e) => { e.stopPropagation(); onMove(m); });
            arrow.addEventListener('keydown', (e) => {
              if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); onMove(m); }
            });
            layers[2].append(arrow);
          }
          const first = drawing.querySelector('g.arrow') || choices.querySelector('button');
          first.focus();
        };
        group.addEventListener('click', act);
        // A drag from the cube to an end plays the push that ends there.
        if (here.some((m) => Array.isArray(m.end))) {
          group.addEventListener('pointerdown', () => { dragged = here; });
        }
        group.addEventListener('keydown', (e) => {
          if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); act(); return; }
          // An arrow key plays the move that slides the cubes that way (Quixo).
          const way = ARROW_KEYS[e.key];
          const m = way && here.find((x) => Array.isArray(x.end) && slide(x, r, c) === way);
          if (m) { e.preventDefault(); onMove(m); }
        });
      }
      if (isLast) group.setAttribute('data-last', 'true');
      group.prepend(svg('title', { text: tip }));
      layers[shape.layer === undefined ? 1 : shape.layer].append(group);
    }
  }
  box.append(drawing, choices);
  return box;
}

/**
 * A sum's parts side by side (`boards`: each part's spec and, where its family draws one,
 * its figure or picture), each drawn by `drawFigure` or `drawBoard` with the moves the
 * API puts in it (`board`: the part a move changes); `last` the value history's last
 * move, marked in its part's picture.
 */
function drawBoards(boards, moves, { coloured, onMove, last, id }) {
  const row = el('div', { class: 'boards', id, role: 'group', 'aria-label': `a sum of ${boards.length} parts` });
  boards.forEach((b, k) => {
    const part = el('figure', { class: 'part-board', 'data-part': k + 1 });
    if (b.figure) {
      part.append(drawFigure(b.figure, moves.filter((m) => m.board === k), { coloured, onMove, id: `${id}-${k}`, last: null }));
    } else if (b.picture) {
      part.append(drawBoard(b.picture, moves.filter((m) => m.board === k), {
        coloured, onMove, id: `${id}-${k}`, last: last && last.board === k ? last.cell : null,
      }));
    }
    part.append(el('figcaption', {}, `part ${k + 1}: `, el('code', { text: b.spec })));
    row.append(part);
  });
  return row;
}

// ---------------------------------------------------------------------------------------
// Figures: positions that are not grids, as the API draws them (`figure`), each move
// clicked at the vertex or triangle the API names (`part`)
// ---------------------------------------------------------------------------------------

/**
 * The moves of `moves` by the part of the figure they are clicked at: part → moves. A move
 * the library clicks at several parts (`parts`: two equal stalks, a cut from either side)
 * is at each of them.
 */
function movesByPart(moves) {
  const at = new Map();
  for (const m of moves) {
    if (!Number.isInteger(m.part)) continue;
    for (const k of Array.isArray(m.parts) ? m.parts : [m.part]) {
      if (!at.has(k)) at.set(k, []);
      at.get(k).push(m);
    }
  }
  return at;
}

/**
 * Makes `group` the button of the moves `here` (one part of a figure): clicked or typed
 * (Enter, space), it plays the best of them; its title says each move's value with hints.
 */
function moveButton(group, here, tip, { coloured, onMove }) {
  const best = here.reduce((b, m) => (b === null || better(m, b) ? m : b), null);
  const says = here.map((m) => `${m.name || m.spec}${coloured ? `: ${moveValue(m)}` : ''}`).join('\n');
  const full = `${tip}\n${says}`;
  if (here.length === 1) group.setAttribute('data-spec', here[0].spec);
  group.setAttribute('tabindex', '0');
  group.setAttribute('role', 'button');
  group.setAttribute('aria-label', full.replace(/\n/g, '; '));
  group.addEventListener('click', () => onMove(best));
  group.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); onMove(best); }
  });
  return { best, tip: full };
}

/** A figure of the API: a token on a graph, a polygon cut into triangles, coloured edges, pieces of cake. */
function drawFigure(figure, moves, opts) {
  const draw = { graph: drawTokenGraph, edges: drawEdges, cake: drawCake }[figure.kind] || drawPolygon;
  return draw(figure, moves, opts);
}

/** The best of the moves `here`. */
const bestOf = (here) => here.reduce((b, m) => (b === null || better(m, b) ? m : b), null);

/** Hackenbush's grid: a half column's width, a level's height, the margins, the ground's depth. */
const HALF_COLUMN = 30;
const LEVEL = 66;
const EDGES_MARGIN = 18;
const EARTH = 14;

/** The path of an edge of `f` (`Figure::Edges`) on the drawing, `at` placing a point. */
function edgePath(e, at) {
  const [x1, y1] = at(e.from);
  const [x2, y2] = at(e.to);
  if (e.from[0] === e.to[0] && e.from[1] === e.to[1]) {
    // A loop: a drop above its point, larger the more loops there are.
    const r = 15 + 9 * e.bend;
    return `M${x1},${y1}C${x1 - 1.6 * r},${y1 - 2.6 * r} ${x1 + 1.6 * r},${y1 - 2.6 * r} ${x1},${y1}`;
  }
  if (!e.bend) return `M${x1},${y1}L${x2},${y2}`;
  // Several edges between two points bow apart, each to its side.
  const [mx, my] = [(x1 + x2) / 2, (y1 + y2) / 2];
  const length = Math.hypot(x2 - x1, y2 - y1) || 1;
  const [nx, ny] = [-(y2 - y1) / length, (x2 - x1) / length];
  const k = 24 * e.bend;
  return `M${x1},${y1}Q${(mx + nx * k).toFixed(2)},${(my + ny * k).toFixed(2)} ${x2},${y2}`;
}

/** The middle of an edge's path (a loop's top), `at` placing a point. */
function edgeMiddle(e, at) {
  const [x1, y1] = at(e.from);
  const [x2, y2] = at(e.to);
  if (e.from[0] === e.to[0] && e.from[1] === e.to[1]) return [x1, y1 - 1.95 * (15 + 9 * e.bend)];
  const [mx, my] = [(x1 + x2) / 2, (y1 + y2) / 2];
  if (!e.bend) return [mx, my];
  const length = Math.hypot(x2 - x1, y2 - y1) || 1;
  // A quadratic's middle is halfway to its control point.
  const k = 12 * e.bend;
  return [mx - ((y2 - y1) / length) * k, my + ((x2 - x1) / length) * k];
}

/**
 * Blue-red-green edges standing on the ground (Hackenbush), where the library lays them
 * out: blue, red and green, each with its letter halfway along, so that they differ
 * without colour too;
 * each edge the mover may cut is a button named by its move and value (with hints, a halo
 * of the value's colour behind it).
 */
function drawEdges(f, moves, opts) {
  const at = movesByPart(moves);
  // Room above the top level for the loops that stand on it.
  const loops = f.edges.filter((e) => e.from[0] === e.to[0] && e.from[1] === e.to[1] && e.from[1] === f.height);
  const top = EDGES_MARGIN + Math.max(0, ...loops.map((e) => 1.95 * (15 + 9 * e.bend)));
  const ground = top + f.height * LEVEL;
  const width = 2 * EDGES_MARGIN + f.width * HALF_COLUMN;
  const height = ground + EARTH;
  const place = ([x, y]) => [EDGES_MARGIN + x * HALF_COLUMN, ground - y * LEVEL];
  const drawing = svg('svg', {
    id: opts.id || 'play-drawing', class: 'board edges-figure', viewBox: `0 0 ${width} ${height}`, role: 'group',
    'aria-label': `the picture: ${f.edges.length} edge${f.edges.length === 1 ? '' : 's'} on the ground`,
  });
  drawing.style.maxWidth = `${Math.min(BOARD_MAX, Math.ceil(width * 1.6))}px`;
  drawing.append(svg('rect', { class: 'earth', x: 0, y: ground, width, height: EARTH }));
  const halos = svg('g');
  const strokes = svg('g');
  drawing.append(halos, strokes);
  f.edges.forEach((e, i) => {
    const here = at.get(i) || [];
    const d = edgePath(e, place);
    const group = svg('g', { 'data-edge': i, 'data-colour': e.colour });
    let tip = `a ${e.colour} edge (${i + 1} of ${f.edges.length})`;
    let value = '';
    if (here.length) {
      const b = moveButton(group, here, tip, opts);
      tip = b.tip;
      value = opts.coloured ? OUTCOME_CLASS[b.best.outcome] || '' : '';
    }
    group.setAttribute('class', ['hb-edge', e.colour, here.length ? 'move' : '', value].filter(Boolean).join(' '));
    group.append(svg('title', { text: tip }));
    if (value) {
      const halo = svg('path', { class: 'halo', d });
      halo.style.stroke = valueColour(bestOf(here));
      group.append(halo);
    }
    group.append(svg('path', { class: 'hit', d }), svg('path', { class: `stroke ${e.colour}`, d }));
    // Its colour's letter halfway along, so that the colours differ without hue too.
    const [mx, my] = edgeMiddle(e, place);
    group.append(svg('circle', { class: 'tag', cx: mx, cy: my, r: 8 }),
      svg('text', {
        class: 'tag-letter', x: mx, y: my, 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-size': 11,
        text: e.colour[0].toUpperCase(),
      }));
    strokes.append(group);
  });
  // The nodes off the ground, over the edges.
  const nodes = new Set(f.edges.flatMap((e) => [e.from, e.to]).filter(([, y]) => y > 0).map((p) => p.join(',')));
  for (const key of nodes) {
    const [x, y] = place(key.split(',').map(Number));
    drawing.append(svg('circle', { class: 'node', cx: x, cy: y, r: 4.5 }));
  }
  return drawing;
}

/** A square of cake's side, and the room between pieces and around them. */
const CAKE_SQUARE = 34;
const CAKE_GAP = 26;
const CAKE_MARGIN = 8;

/**
 * Pieces of cake side by side (Cutcake), each scored into its squares; the score lines
 * are the parts (a piece's vertical lines from the left, then its horizontal ones from
 * the top, piece by piece), and each line a cut may follow is a button named by its move
 * and value, coloured by the value with hints.
 */
function drawCake(f, moves, opts) {
  const at = movesByPart(moves);
  const tall = Math.max(1, ...f.pieces.map(([r]) => r));
  const wide = f.pieces.reduce((sum, [, c]) => sum + c, 0);
  const width = 2 * CAKE_MARGIN + Math.max(1, wide) * CAKE_SQUARE + Math.max(0, f.pieces.length - 1) * CAKE_GAP;
  const height = 2 * CAKE_MARGIN + tall * CAKE_SQUARE;
  const squares = f.pieces.reduce((sum, [r, c]) => sum + r * c, 0);
  const drawing = svg('svg', {
    id: opts.id || 'play-drawing', class: 'board cake-figure', viewBox: `0 0 ${width} ${height}`, role: 'group',
    'aria-label': f.pieces.length ? `the cake: ${f.pieces.length} piece${f.pieces.length === 1 ? '' : 's'}, ${squares} squares`
      : 'the cake: no piece left to cut',
  });
  drawing.style.maxWidth = `${Math.min(BOARD_MAX, Math.ceil((width / CAKE_SQUARE) * 60))}px`;
  let x = CAKE_MARGIN;
  let part = 0;
  f.pieces.forEach(([rows, columns], i) => {
    const y = CAKE_MARGIN;
    const [w, h] = [columns * CAKE_SQUARE, rows * CAKE_SQUARE];
    const piece = svg('g', { class: 'piece-of-cake', 'data-piece': i + 1, 'data-rows': rows, 'data-columns': columns });
    piece.append(svg('rect', { class: 'cake', x, y, width: w, height: h, rx: 3 }));
    const lines = [];
    for (let k = 1; k < columns; k++) lines.push({ k, across: false, x1: x + k * CAKE_SQUARE, y1: y, x2: x + k * CAKE_SQUARE, y2: y + h });
    for (let k = 1; k < rows; k++) lines.push({ k, across: true, x1: x, y1: y + k * CAKE_SQUARE, x2: x + w, y2: y + k * CAKE_SQUARE });
    for (const l of lines) {
      const here = at.get(part) || [];
      const group = svg('g', { 'data-line': part, 'data-piece': i + 1 });
      let tip = `${l.across ? 'horizontal' : 'vertical'} score line ${l.k} of piece ${i + 1} (${rows}×${columns})`;
      let value = '';
      if (here.length) {
        const b = moveButton(group, here, tip, opts);
        tip = b.tip;
        value = opts.coloured ? OUTCOME_CLASS[b.best.outcome] || '' : '';
      }
      group.setAttribute('class', ['score-line', l.across ? 'across' : 'down', here.length ? 'move' : '', value].filter(Boolean).join(' '));
      group.append(svg('title', { text: tip }));
      const ends = { x1: l.x1, y1: l.y1, x2: l.x2, y2: l.y2 };
      if (value) {
        const halo = svg('line', { class: 'halo', ...ends });
        halo.style.stroke = valueColour(bestOf(here));
        group.append(halo);
      }
      // What is clicked: a band along the line, as wide as a finger's touch.
      const band = l.across ? { x: l.x1, y: l.y1 - 9, width: l.x2 - l.x1, height: 18 }
        : { x: l.x1 - 9, y: l.y1, width: 18, height: l.y2 - l.y1 };
      group.append(svg('rect', { class: 'hit', ...band }), svg('line', { class: 'score', ...ends }));
      piece.append(group);
      part += 1;
    }
    drawing.append(piece);
    x += w + CAKE_GAP;
  });
  return drawing;
}

/**
 * A token on a directed graph (IOI 2001 "Score"), laid out as the graph tab's arenas are:
 * circles are player 1's positions, squares player 2's, each with its number and, below,
 * its value; the token's position has a thick ring, the arrows it can take are dark, and
 * each position the token can go to is a button (filled by the move's value with hints).
 */
function drawTokenGraph(f, moves, opts) {
  const n = f.names.length;
  const at = movesByPart(moves);
  const edges = f.arrows.map(([from, to]) => ({ from, to, cls: from === f.token && at.has(to) ? 'live' : '' }));
  const { drawing, pos } = graphFrame(n, edges, f.start, {
    id: opts.id || 'play-drawing', label: `the board: ${n} positions, the token on ${f.names[f.token]}`,
  });
  drawing.classList.add('token-graph');
  for (let v = 0; v < n; v++) {
    const [x, y] = pos[v];
    const here = at.get(v) || [];
    const group = svg('g', { 'data-id': f.names[v], 'data-owner': f.owners[v], 'data-value': f.labels[v] });
    let tip = `position ${f.names[v]}: player ${f.owners[v]}'s, value ${f.labels[v]}${v === f.token ? '; the token is here' : ''}`;
    let value = '';
    if (here.length) {
      const b = moveButton(group, here, tip, opts);
      tip = b.tip;
      value = opts.coloured ? OUTCOME_CLASS[b.best.outcome] || '' : '';
    }
    group.setAttribute('class', ['vertex', `owner-${f.owners[v]}`, v === f.token ? 'token' : '',
      here.length ? 'move' : '', value, opts.last === v ? 'last' : ''].filter(Boolean).join(' '));
    group.append(svg('title', { text: tip }));
    vertexShape(group, x, y, f.owners[v] === 2, f.names[v], f.labels[v]);
    if (value) group.querySelector('circle, rect').style.fill = valueColour(here.reduce((b, m) => (b === null || better(m, b) ? m : b), null));
    drawing.append(group);
  }
  // Drawn at its size, as the graph tab's arenas: a large board scrolls in its box.
  return el('div', { class: 'drawing-box' }, drawing);
}

/** The side of the square a polygon is drawn in, and its margin for the vertex numbers. */
const POLYGON_SIZE = 360;
const POLYGON_MARGIN = 26;

/**
 * A convex polygon cut into triangles (POI 1999 "Polygons"): vertex 0 at the top, the
 * others clockwise; the triangles left drawn with their diagonals, the black one filled,
 * the ones cut off faint; each triangle that can be cut is a button (filled by the
 * move's value with hints), and the last one cut is outlined.
 */
function drawPolygon(f, moves, opts) {
  const n = f.vertices;
  const at = movesByPart(moves);
  const r = POLYGON_SIZE / 2 - POLYGON_MARGIN;
  const c = POLYGON_SIZE / 2;
  const point = (i) => {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / n;
    return [c + r * Math.cos(a), c + r * Math.sin(a)];
  };
  const left = f.left.filter(Boolean).length;
  const drawing = svg('svg', {
    id: opts.id || 'play-drawing', class: 'polygon-figure', viewBox: `0 0 ${POLYGON_SIZE} ${POLYGON_SIZE}`, role: 'group',
    'aria-label': `a ${n}-gon, ${left} of its ${f.triangles.length} triangles left`,
  });
  drawing.style.maxWidth = `${POLYGON_SIZE + 120}px`;
  // The cut triangles first, under the ones left.
  const order = f.triangles.map((_, t) => t).sort((a, b) => Number(f.left[a]) - Number(f.left[b]));
  for (const t of order) {
    const tri = f.triangles[t];
    const corners = tri.map(point);
    const here = f.left[t] ? at.get(t) || [] : [];
    const group = svg('g', { 'data-triangle': t + 1, 'data-left': f.left[t] ? 'true' : 'false' });
    let tip = `triangle ${t + 1} (${tri.join(' ')})${t === 0 ? ', the black one' : ''}${f.left[t] ? '' : ': cut off'}`;
    let value = '';
    if (here.length) {
      const b = moveButton(group, here, tip, opts);
      tip = b.tip;
      value = opts.coloured ? OUTCOME_CLASS[b.best.outcome] || '' : '';
    }
    group.setAttribute('class', ['triangle', t === 0 ? 'black' : '', f.left[t] ? 'left' : 'cut',
      here.length ? 'move' : '', value, opts.last === t ? 'last' : ''].filter(Boolean).join(' '));
    group.append(svg('title', { text: tip }));
    group.append(svg('polygon', { points: corners.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(' ') }));
    if (value && t !== 0) group.lastChild.style.fill = valueColour(here.reduce((b, m) => (b === null || better(m, b) ? m : b), null));
    if (f.left[t] || opts.last === t) {
      const mx = corners.reduce((sum, [x]) => sum + x, 0) / 3;
      const my = corners.reduce((sum, [, y]) => sum + y, 0) / 3;
      group.append(svg('text', {
        x: mx, y: my, class: 'number', 'text-anchor': 'middle', 'dominant-baseline': 'central',
        'font-size': Math.max(7, Math.min(14, (4 * r) / n)).toFixed(1), text: t + 1,
      }));
    }
    drawing.append(group);
  }
  const numbers = svg('g', { class: 'corners' });
  for (let i = 0; i < n; i++) {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / n;
    numbers.append(svg('text', {
      x: c + (r + 13) * Math.cos(a), y: c + (r + 13) * Math.sin(a), 'text-anchor': 'middle',
      'dominant-baseline': 'central', 'font-size': Math.max(7, Math.min(12, (3 * r) / n)).toFixed(1), text: i,
    }));
  }
  drawing.append(numbers);
  return drawing;
}

/** One line under a figure: where the token is and the scores so far; or what is left. */
function figureNote(f, you, over, playable = true) {
  if (f.kind === 'edges') {
    return 'Blue edges (B) are Left\'s to cut, red (R) Right\'s, green (G) either\'s; '
      + `what no longer reaches the ground falls${playable && !over ? '. Click an edge to cut it.' : '.'}`;
  }
  if (f.kind === 'cake') {
    return f.pieces.length
      ? `${f.pieces.length} piece${f.pieces.length === 1 ? '' : 's'} of cake${playable && !over ? '; click a score line to cut along it' : ''}.`
      : 'No piece of cake is left to cut.';
  }
  if (f.kind === 'graph') {
    const youAre = you ? ` You are player ${you}.` : '';
    const where = over
      ? `The token is back on position ${f.names[f.token]}: the game is over.`
      : `Token on position ${f.names[f.token]} (player ${f.owners[f.token]}'s, value ${f.labels[f.token]}): player ${f.to_move} moves it.`;
    return `${where} `
      + `Scores so far: player 1 ${f.scores[0]}, player 2 ${f.scores[1]}.${youAre} `
      + 'Circles are player 1\'s positions, squares player 2\'s; the lower number is the value.';
  }
  const left = f.left.filter(Boolean).length;
  const click = playable ? '; click a triangle that can be cut off' : '';
  return left
    ? `${f.vertices}-gon: ${left} of ${f.triangles.length} triangles left, the black one filled${click}.`
    : `${f.vertices}-gon: the black triangle is cut.`;
}

/** The most moves a value history draws one by one. */
const HISTORY_POINTS = 400;

/**
 * The moves left after a move of the history: its remoteness (for whoever made it) less
 * the move itself, so the move that ends the game leaves 0; null when not known or drawn.
 */
function movesLeft(v) {
  if (!v.winning || v.remoteness === null || v.remoteness === undefined) return null;
  return Math.max(0, Number(v.remoteness) - 1);
}

/**
 * The value history of the game so far (GamesmanUni's): one point a move, left to right;
 * up where you are winning after it, down where grundy is, on the middle line for a draw;
 * the nearer the edge, the fewer moves are left (the move that ends the game on the edge).
 * Every value is the API's (`played`). Drawn `width` units wide, the width it is shown at,
 * so that its text keeps its size on a phone.
 */
function drawHistory(values, width = 480) {
  const w = Math.max(300, Math.min(512, Math.round(width))), h = 180, left = 82, right = 30, top = 10, bottom = 22;
  const mid = (top + h - bottom) / 2;
  const half = mid - top;
  const shown = values.slice(-HISTORY_POINTS);
  const offset = values.length - shown.length;
  const known = shown.map(movesLeft).filter((r) => r !== null);
  const most = Math.max(1, ...known);
  // r moves left: at the edge when 0, near the middle (not on it: that is a draw) when most.
  const depth = (r) => (half * 0.85 * r) / most;
  const y = (v) => {
    if (!v.winning) return mid;
    const r = movesLeft(v) === null ? most / 2 : movesLeft(v);
    return v.winning === 'you' ? top + depth(r) : h - bottom - depth(r);
  };
  const step = (w - left - right) / Math.max(1, shown.length);
  const x = (i) => left + step * (i + 0.5);
  const chart = svg('svg', {
    id: 'history', class: 'history', viewBox: `0 0 ${w} ${h}`, role: 'img',
    'aria-label': `value history: ${values.length} moves`,
  });
  chart.append(svg('title', { text: 'Value history: who is winning after each move, and how many moves are left' }));
  chart.append(svg('rect', { x: left, y: top, width: w - left - right, height: mid - top, class: 'half you' }));
  chart.append(svg('rect', { x: left, y: mid, width: w - left - right, height: h - bottom - mid, class: 'half grundy' }));
  chart.append(svg('line', { x1: left, y1: mid, x2: w - right, y2: mid, class: 'axis draw-line' }));
  const text = (content, tx, ty, anchor, cls) => chart.append(svg('text', {
    x: tx, y: ty, class: cls, 'text-anchor': anchor, 'dominant-baseline': 'central', text: content,
  }));
  // Who is winning, on the left; moves left, on the right.
  text('you win', left - 8, (top + mid) / 2, 'end', 'tick side');
  text('draw', left - 8, mid, 'end', 'tick side');
  text('grundy wins', left - 8, (mid + h - bottom) / 2, 'end', 'tick side');
  // Moves left, on the right: each number once, on the upper half (the lower one mirrors it).
  if (known.length) {
    for (const ty of [top, top + depth(most), h - bottom - depth(most), h - bottom]) {
      chart.append(svg('line', { x1: left, y1: ty, x2: w - right, y2: ty, class: 'grid-line' }));
    }
    text(0, w - right + 4, top, 'start', 'tick left');
    text(most, w - right + 4, top + depth(most), 'start', 'tick left');
  }
  if (shown.length) {
    // The first and last move's numbers, once each, never one over the other.
    const far = x(shown.length - 1) - x(0) >= 24;
    if (shown.length === 1 || far) text(offset + 1, x(0), h - 8, 'middle', 'tick number');
    if (shown.length > 1) text(values.length, x(shown.length - 1), h - 8, 'middle', 'tick number');
    chart.append(svg('polyline', {
      class: 'trail', points: shown.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' '),
    }));
  }
  const radius = Math.max(2.5, Math.min(6, step / 3));
  shown.forEach((v, i) => {
    const cls = v.winning === 'you' ? 'win' : v.winning === 'grundy' ? 'loss' : 'draw';
    const who = v.by === 'you' ? 'you' : 'grundy';
    const then = v.winning ? `${v.winning} ${v.winning === 'you' ? 'win' : 'wins'}` : 'a draw';
    const n = movesLeft(v);
    const rest = n === null ? '' : `, ${n} ${n === 1 ? 'move' : 'moves'} left`;
    chart.append(svg('circle', {
      cx: x(i), cy: y(v), r: radius, class: `point ${cls}`, 'data-move': offset + i + 1, 'data-by': who,
      'data-left': n === null ? '' : n,
    }, svg('title', { text: `move ${offset + i + 1}, ${who}: ${v.name || v.spec} — then ${then}${rest}` })));
  });
  return chart;
}

// ---------------------------------------------------------------------------------------
// Play
// ---------------------------------------------------------------------------------------

/**
 * The game in progress. `history` holds the earlier positions where it was your turn;
 * `values` the value of every move made so far, as the API judged it (`played`).
 */
const game = {
  current: null, history: [], future: [], values: [], over: null, busy: false, board: null, you: null,
  start: null, engineFirst: false, moves: [],
};

// ---------------------------------------------------------------------------------------
// The game in the address: `#play=START`, `&first=grundy` when grundy moved first, and
// `&moves=` your moves so far (the positions they led to, as the API wrote them), so that
// a link replays the game to the same board and value history, and Back and Forward step
// through its moves. A contest board's game (a file) is not put there.
// ---------------------------------------------------------------------------------------

/** The address of the game in progress, or null. */
function playHash() {
  if (game.start === null || game.board) return null;
  let hash = `#play=${encodeURIComponent(game.start)}`;
  if (game.engineFirst) hash += '&first=grundy';
  if (game.moves.length) hash += `&moves=${game.moves.map(encodeURIComponent).join(',')}`;
  return hash;
}

/** The game the address names, `{start, engineFirst, moves}`, or null. */
function playInUrl() {
  const hash = window.location.hash;
  if (!hash.startsWith('#play=')) return null;
  const fields = Object.fromEntries(hash.slice(1).split('&').map((kv) => {
    const at = kv.indexOf('=');
    return at < 0 ? [kv, ''] : [kv.slice(0, at), kv.slice(at + 1)];
  }));
  try {
    return {
      start: decodeURIComponent(fields.play),
      engineFirst: fields.first === 'grundy',
      moves: fields.moves ? fields.moves.split(',').map(decodeURIComponent) : [],
    };
  } catch (e) {
    return null;
  }
}

/** Puts the game in progress in the address: a new history entry when it changed. */
function pushPlay() {
  const hash = playHash();
  if (hash !== null && hash !== window.location.hash) window.history.pushState({ play: true }, '', hash);
}

const sameMoves = (a, b, n) => a.length >= n && b.length >= n && a.slice(0, n).every((m, i) => m === b[i]);

/**
 * Shows the game the address names: the game in progress stepped back or forward by
 * Undo and Redo when the address is one of its own states, else replayed from its start
 * through the API, move by move, exactly as it was played.
 */
async function followPlay(want) {
  showPanel('play');
  if (game.busy) return;
  const same = game.start === want.start && game.engineFirst === want.engineFirst && !game.board && !$('game').hidden;
  if (same) {
    while (game.moves.length > want.moves.length && sameMoves(game.moves, want.moves, want.moves.length)
      && game.history.length) undo({ push: false });
    while (game.moves.length < want.moves.length && game.future.length
      && sameMoves(want.moves, [...game.moves, game.future[game.future.length - 1].move], game.moves.length + 1)) {
      redo({ push: false });
    }
    if (game.moves.length === want.moves.length && sameMoves(game.moves, want.moves, want.moves.length)) return;
  }
  $('play-spec').value = want.start;
  $('contest-report').hidden = true;
  if (!(await begin(want.start, want.engineFirst, null, null, { push: false }))) return;
  for (const m of want.moves) {
    if (!(await move(m, { push: false }))) break;
  }
  const hash = playHash();
  if (hash !== null && hash !== window.location.hash) window.history.replaceState({ play: true }, '', hash);
}

function logLine(who, text, extra, cls) {
  const item = el('li', { class: `log-${who}${cls ? ` ${cls}` : ''}` },
    el('span', { class: 'who', text: who === 'you' ? 'you' : 'grundy' }), ' ',
    el('code', { text }));
  if (extra) item.append(el('span', { class: 'why', text: ` — ${extra}` }));
  $('log').append(item);
}

function setBusy(on) {
  game.busy = on;
  for (const id of ['typed-move', 'play-first', 'play-second', 'contest-first', 'contest-second']) $(id).disabled = on;
  for (const b of $('choices').querySelectorAll('button')) b.disabled = on || Boolean(game.over);
  // Undo only when there is a move pair to take back; redo when one was taken back.
  $('undo').disabled = on || game.history.length === 0;
  $('redo').disabled = on || game.future.length === 0;
}

async function startGame(engineFirst) {
  $('contest-report').hidden = true;
  await begin($('play-spec').value.trim(), engineFirst, null, null);
}

/**
 * Starts a game at `spec`: of the catalog, or (`board`: `{task, text}`) of a contest
 * task's input, whose start's report `start` `/api/olympiad` gave.
 */
async function begin(spec, engineFirst, board, start, { push = true } = {}) {
  showError($('play-error'), null);
  setBusy(true);
  try {
    let current;
    let first = null;
    if (engineFirst) {
      const body = { spec };
      if (board) body.board = board;
      const reply = await askPlay(body);
      first = reply;
      current = reply.next
        ? { report: reply.next, taken: reply.taken }
        : { report: reply.report, taken: reply.taken };
    } else {
      const report = start || await api(`/api/solve?spec=${encodeURIComponent(spec)}`);
      current = { report, taken: report.scores ? [0, 0] : undefined };
    }
    game.current = current;
    game.board = board;
    if (current.report.family) selectOptions(current.report.family);
    // In a game on a graph whose players own its positions, you are the player who moves
    // at the start, or the other one.
    const figure = (start || (first && first.report) || {}).figure;
    game.you = figure && figure.kind === 'graph' ? (engineFirst ? 3 - figure.to_move : figure.to_move) : null;
    game.history = [];
    game.future = [];
    game.values = first ? [...first.played] : [];
    game.over = null;
    clear($('log'));
    if (first) {
      if (first.best_move) logLine('grundy', first.best_move_name || first.best_move, first.explanation);
      const last = await engineGoesOn(first);
      game.current = last.next
        ? { report: last.next, taken: last.taken }
        : { report: last.report, taken: last.taken };
      if (last.over) game.over = { winner: last.winner, message: last.message };
    } else if (current.report.moves.length === 0) {
      game.over = { winner: null, message: 'There is no move from here: the game is over before it starts.' };
    }
    game.start = spec;
    game.engineFirst = engineFirst;
    game.moves = [];
    $('game').hidden = false;
    renderGame();
    if (push) pushPlay();
    return true;
  } catch (e) {
    // The game in progress, if any, is left as it was, and stays playable: say so.
    const going = game.current && !$('game').hidden
      ? `\nThe game in progress below, at ${game.current.report.spec}, goes on.` : '';
    showError($('play-error'), { message: `Cannot start ${spec || 'a game'}: ${e.message}${going}` });
    return false;
  } finally {
    setBusy(false);
  }
}

/** The longest input put back in the paste box. */
const MAX_PASTED = 200000;

/**
 * Reads a contest task's input (`bytes`, from a file or the paste box) on the server, by
 * the library's reader of the task, shows its report, and starts a game of it.
 */
async function loadBoard(bytes, name, engineFirst) {
  showError($('play-error'), null);
  const task = $('contest-task').value;
  let answer;
  setBusy(true);
  try {
    answer = await api(`/api/olympiad?${new URLSearchParams({ task, name })}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes,
    });
  } catch (e) {
    $('contest-report').hidden = true;
    showError($('play-error'), { message: `Cannot load ${name}: ${e.message}` });
    return;
  } finally {
    setBusy(false);
  }
  if (answer.input.length <= MAX_PASTED) $('contest-text').value = answer.input;
  renderContestReport(answer);
  if (answer.report) await begin(answer.spec, engineFirst, { task: answer.task, text: answer.input }, answer.report);
}

/** What the library says of a contest board's start: who wins, the best moves, the rule. */
function renderContestReport(a) {
  const summary = $('contest-summary');
  const r = a.report;
  summary.textContent = r ? `${a.name}: ${positionSummary(r)}` : `${a.name}: ${a.spec}`;
  summary.className = `summary ${r ? OUTCOME_CLASS[r.outcome] || '' : ''}`;
  const best = $('contest-best');
  if (r) {
    const names = r.winning_moves.map((spec) => {
      const m = r.moves.find((x) => x.spec === spec);
      return m ? m.name || m.spec : spec;
    });
    best.textContent = names.length
      ? `Winning move${names.length > 1 ? 's' : ''}: ${names.join(', ')}.`
      : r.moves.length ? 'No winning move: every move loses against perfect play.' : 'No move.';
  }
  best.hidden = !r;
  $('contest-rule').textContent = a.rule ? `Special method — ${a.rule}` : '';
  $('contest-rule').hidden = !a.rule;
  $('contest-not-solved').textContent = a.not_solved || '';
  $('contest-not-solved').hidden = !a.not_solved;
  // Not solved, so not played: the start drawn all the same, with no moves.
  const box = $('contest-figure');
  clear(box);
  if (!r && (a.figure || a.not_drawn)) {
    if (a.figure) box.append(drawFigure(a.figure, [], { coloured: false, onMove: () => {}, last: null, id: 'contest-drawing' }));
    box.append(el('p', { class: 'note', text: a.figure ? figureNote(a.figure, null, false, false) : a.not_drawn }));
  }
  box.hidden = Boolean(r) || !(a.figure || a.not_drawn);
  $('contest-report').hidden = false;
  if (!box.hidden) fitLabels(box);
  if (!r) $('game').hidden = true;
}

/** `POST /api/play` with `body`, saying "thinking" (with the search's progress) while it takes. */
function askPlay(body) {
  return thinking($('play-thinking'), (ticket) => api('/api/play', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: toJson({ ...body, ticket }),
  }));
}

/**
 * While grundy keeps the turn (its move scored and it moves again: a box closed, its last
 * seed in its store), asks for its next move from where it now stands, until it is your
 * turn or the game is over; each move joins the value history and the log. The last reply.
 */
async function engineGoesOn(reply) {
  let last = reply;
  while (!last.over && !last.next && last.best_move) {
    const body = { spec: last.best_move };
    if (last.taken) body.taken = last.taken;
    if (game.board) body.board = game.board;
    last = await askPlay(body);
    game.values.push(...last.played);
    if (last.best_move) logLine('grundy', last.best_move_name || last.best_move, last.explanation);
  }
  return last;
}

async function move(to, { push = true } = {}) {
  if (game.busy || game.over || !game.current) return false;
  showError($('play-error'), null);
  setBusy(true);
  const before = game.current;
  try {
    const body = { spec: before.report.spec, move: to };
    if (before.taken) body.taken = before.taken;
    if (game.board) body.board = game.board;
    const reply = await askPlay(body);
    game.history.push({ current: before, log: $('log').children.length, values: game.values.length });
    game.future = [];
    game.values.push(...reply.played);
    game.moves.push(reply.your_move ? reply.your_move.spec : to);
    const hinted = $('hint').checked;
    const mine = reply.your_move;
    logLine('you', mine ? mine.name : reply.position, hinted && mine ? mine.judgement : null,
      hinted && mine ? OUTCOME_CLASS[mine.outcome] : null);
    if (reply.best_move) logLine('grundy', reply.best_move_name || reply.best_move, reply.explanation);
    const last = await engineGoesOn(reply);
    game.current = last.next
      ? { report: last.next, taken: last.taken }
      : { report: last.report, taken: last.taken };
    game.over = last.over ? { winner: last.winner, message: last.message } : null;
    $('typed').value = '';
    if (push) pushPlay();
    return true;
  } catch (e) {
    showError($('play-error'), e);
    return false;
  } finally {
    setBusy(false);
    renderGame();
  }
}

/** Takes back your last move and grundy's reply, kept for Redo. */
function undo({ push = true } = {}) {
  if (game.busy) return;
  const last = game.history.pop();
  if (!last) return;
  const log = $('log');
  game.future.push({
    entry: last, current: game.current, over: game.over,
    log: [...log.children].slice(last.log), values: game.values.slice(last.values), move: game.moves.pop(),
  });
  game.current = last.current;
  game.over = null;
  while (log.children.length > last.log) log.lastChild.remove();
  game.values.length = last.values;
  showError($('play-error'), null);
  renderGame();
  if (push) pushPlay();
}

/** Plays again the move pair the last Undo took back, as it was (no request). */
function redo({ push = true } = {}) {
  if (game.busy) return;
  const next = game.future.pop();
  if (!next) return;
  game.history.push(next.entry);
  game.current = next.current;
  game.over = next.over;
  $('log').append(...next.log);
  game.values.push(...next.values);
  game.moves.push(next.move);
  showError($('play-error'), null);
  renderGame();
  if (push) pushPlay();
}

/** The most moves shown as buttons; the rest can be typed. */
const MAX_CHOICES = 120;

function renderGame() {
  const r = game.current.report;
  $('position').textContent = r.spec;
  const status = $('status');
  if (game.over) {
    status.textContent = game.over.message;
    status.className = `status over ${game.over.winner === 'you' ? 'win' : game.over.winner === 'grundy' ? 'loss' : 'draw'}`;
  } else {
    status.textContent = 'Your move.';
    status.className = 'status';
  }
  const score = $('score');
  if (game.current.taken) {
    score.textContent = `taken so far: you ${game.current.taken[0]}, grundy ${game.current.taken[1]}`;
    score.hidden = false;
  } else {
    score.hidden = true;
  }
  const hinted = $('hint').checked;
  const choices = $('choices');
  clear(choices);
  choices.classList.toggle('hinted', hinted);
  // A cut list holds the winning moves: shown only with hints, so as not to give them away.
  const shown = game.over || (r.moves_truncated && !hinted) ? [] : r.moves.slice(0, MAX_CHOICES);
  for (const m of shown) {
    const best = r.scores && m.worse_by === 0;
    const button = el('button', {
      type: 'button',
      class: `choice ${hinted ? OUTCOME_CLASS[m.outcome] || '' : ''}${hinted && best ? ' best' : ''}`,
      'data-spec': m.spec,
      title: m.spec,
    }, el('span', { class: 'spec', text: m.name || m.spec }));
    if (hinted) button.append(el('span', { class: 'value', text: moveValue(m) }));
    button.addEventListener('click', () => move(m.spec));
    button.disabled = game.busy;
    choices.append(el('li', {}, button));
  }
  let note = '';
  if (!game.over && (r.moves_truncated || r.moves.length > shown.length)) {
    note = `${r.moves_truncated ? 'Many' : r.moves.length} moves: ${shown.length} shown; type any other.`;
  }
  if (!game.over && r.moves_truncated && !hinted) {
    note = 'Many moves: type one by its name or the position it leads to.';
  }
  if (!game.over && hinted) {
    if (r.scores) {
      const best = r.moves.filter((m) => m.worse_by === 0).length;
      note += ` Hint: ${best} best move${best > 1 ? 's' : ''} (outlined); colours follow the final scores under best play.`;
    } else {
      note += r.winning_moves.length
        ? ` Hint: ${r.winning_moves.length} winning move${r.winning_moves.length > 1 ? 's' : ''} (green).`
        : r.moves.some((m) => m.outcome === 'draw')
          ? ' Hint: no winning move here; a yellow one keeps the draw.'
          : ' Hint: no winning move here; the slowest loss holds out longest.';
    }
  }
  $('choices-note').textContent = note.trim();
  const board = $('play-board');
  clear(board);
  const lastMove = game.values.length ? game.values[game.values.length - 1] : null;
  // The cells each move claimed for whoever made it (dots and boxes' boxes).
  const owners = new Map();
  for (const v of game.values) for (const [row, column] of v.claims || []) owners.set(`${row},${column}`, v.by);
  if (r.figure) {
    board.append(drawFigure(r.figure, game.over ? [] : r.moves, {
      coloured: hinted, onMove: (m) => move(m.spec), last: lastMove ? lastMove.part : null,
    }));
  } else if (r.picture) {
    board.append(drawBoard(r.picture, game.over ? [] : r.moves, {
      coloured: hinted, onMove: (m) => move(m.spec), last: lastMove && lastMove.cell, id: 'play-drawing', owners,
    }));
  } else if (r.boards) {
    board.append(drawBoards(r.boards, game.over ? [] : r.moves, {
      coloured: hinted, onMove: (m) => move(m.spec), last: lastMove, id: 'play-drawing',
    }));
  }
  board.hidden = !r.picture && !r.figure && !r.boards;
  if (r.figure) fitLabels(board);
  const figureText = $('figure-note');
  figureText.textContent = r.figure ? figureNote(r.figure, game.you, Boolean(game.over)) : r.not_drawn || '';
  figureText.hidden = !r.figure && !r.not_drawn;
  // A board where every move has its cell needs no buttons besides, unless it is a
  // score game (its buttons say which move is best and by how much the others fall
  // short) or heaps (the buttons name each take, a click on a token only its height).
  choices.hidden = (Boolean(r.picture) && !r.scores && r.picture.look !== 'heaps' && r.moves.every((m) => Array.isArray(m.cell)))
    || (Boolean(r.figure) && r.moves.every((m) => Number.isInteger(m.part)));
  const history = $('history-box');
  const chart = $('history-chart');
  clear(chart);
  history.hidden = game.values.length === 0;
  if (game.values.length) chart.append(drawHistory(game.values, chart.clientWidth || 480));
  $('typed-form').hidden = Boolean(game.over);
  $('undo').disabled = game.busy || game.history.length === 0;
  $('redo').disabled = game.busy || game.future.length === 0;
  $('play-legend').hidden = !hinted || Boolean(game.over) || !(r.picture || r.figure || r.boards);
}

// ---------------------------------------------------------------------------------------
// Graph games
// ---------------------------------------------------------------------------------------

let downloadUrl = null;

async function solveGraph(bytes, name) {
  showError($('graph-error'), null);
  const params = new URLSearchParams({ name });
  const objective = $('graph-objective').value;
  if (objective) params.set('objective', objective);
  try {
    const answer = await api(`/api/graph?${params}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    renderGraph(answer);
  } catch (e) {
    $('graph-result').hidden = true;
    showError($('graph-error'), e);
  }
}

function idList(ids, limit = 200) {
  const shown = ids.slice(0, limit).join(', ');
  return ids.length > limit ? `${shown}, … (${ids.length} in all)` : shown || 'none';
}

function renderGraph(a) {
  const poi = a.format === 'poi';
  const unit = poi ? 'fields' : 'vertices';
  const units = (k) => (k === 1 ? (poi ? 'field' : 'vertex') : unit);
  $('graph-summary').textContent =
    `${a.name}: ${a.format} game, ${a.vertices} ${unit}, ${a.edges} edges; objective: ${a.objective}.`;
  const won = $('graph-won');
  clear(won);
  if (a.objective === 'token') {
    won.append(el('li', { class: 'win', text: `win for the player to move: ${a.counts.win}` }),
      el('li', { class: 'loss', text: `loss: ${a.counts.loss}` }),
      el('li', { class: 'draw', text: `draw: ${a.counts.draw}` }));
  } else {
    won.append(
      el('li', { class: 'won-0', id: 'won-0', text: `${a.players[0]} wins from ${a.counts[0]} ${units(a.counts[0])}: ${idList(a.won_by_0)}` }),
      el('li', { class: 'won-1', id: 'won-1', text: `${a.players[1]} wins from ${a.counts[1]} ${units(a.counts[1])}: ${idList(a.won_by_1)}` }));
  }
  if (a.verified) {
    won.append(el('li', { class: 'verified', id: 'graph-verified', text: 'The regions and strategies passed the independent checker.' }));
  }
  const box = $('graph-drawing-box');
  clear(box);
  const notDrawn = $('graph-not-drawn');
  if (a.arena) {
    box.append(drawArena(a));
    notDrawn.hidden = true;
  } else {
    notDrawn.textContent = a.not_drawn || 'Not drawn.';
    notDrawn.hidden = false;
  }
  $('graph-legend').textContent = a.objective === 'token'
    ? 'Colour: the value for the player to move with the token there (green win, red loss, yellow draw); the lower line in a vertex is its generalised Grundy value.'
    : `Fill: green where ${a.players[0]} wins, red where ${a.players[1]} wins. Circles are ${a.players[0]}'s, squares ${a.players[1]}'s; a thick ring marks an accepting (${poi ? 'green' : 'even-priority'}) ${poi ? 'field' : 'vertex'}; bold arrows are the winners' strategies.`;
  if (downloadUrl) URL.revokeObjectURL(downloadUrl);
  downloadUrl = URL.createObjectURL(new Blob([a.solution], { type: 'text/plain' }));
  const link = $('graph-download');
  link.href = downloadUrl;
  link.download = a.solution_name || 'solution.txt';
  renderValues(a);
  $('graph-result').hidden = false;
  fitLabels(box);
}

/** A vertex's radius in the drawing, and the ideal length of an edge. */
const NODE = 20;
const EDGE = 96;
/** The most rounds of the force-directed layout (each costs n² / 2 steps). */
const LAYOUT_ROUNDS = 250;

/**
 * Where to draw each vertex, as a picture. Two starts — the vertices in columns by their
 * breadth-first distance from the start vertex (the ones it does not reach after them), and
 * the same order on a circle — are each relaxed by a force-directed layout
 * (Fruchterman–Reingold: edges pull, near vertices push, a capped number of rounds, no
 * randomness), vertices too close are moved apart, and the drawing with fewer crossing edges
 * is kept. Presentation only: it reads nothing but the edges.
 */
function layout(n, edges, start) {
  const succ = Array.from({ length: n }, () => []);
  const pairs = [];
  const seen = new Set();
  for (const e of edges) {
    if (e.from === e.to) continue;
    succ[e.from].push(e.to);
    const key = Math.min(e.from, e.to) * n + Math.max(e.from, e.to);
    if (!seen.has(key)) { seen.add(key); pairs.push([e.from, e.to]); }
  }
  // Layers by breadth-first distance from the start (then from each vertex not reached).
  const depth = new Array(n).fill(-1);
  const layers = [];
  const roots = [Number.isInteger(start) && start >= 0 && start < n ? start : 0];
  for (let v = 0; v < n; v++) roots.push(v);
  for (const root of roots) {
    if (depth[root] >= 0) continue;
    depth[root] = layers.length;
    let frontier = [root];
    while (frontier.length) {
      layers.push(frontier);
      const next = [];
      for (const v of frontier) {
        for (const w of succ[v]) {
          if (depth[w] < 0) { depth[w] = layers.length; next.push(w); }
        }
      }
      frontier = next;
    }
  }
  // Two starts, each relaxed by forces; the drawing with fewer crossing edges is kept.
  const columns = [new Float64Array(n), new Float64Array(n)];
  layers.forEach((layer, d) => {
    layer.forEach((v, i) => {
      // Column d, centred; a little deterministic sway so that a path is not a line.
      columns[0][v] = d * EDGE * 0.7;
      columns[1][v] = (i - (layer.length - 1) / 2) * EDGE * 0.7 + (((v * 37) % 11) - 5) * 4;
    });
  });
  const ring = [new Float64Array(n), new Float64Array(n)];
  const order = layers.flat();
  order.forEach((v, i) => {
    const t = (2 * Math.PI * i) / n;
    ring[0][v] = (EDGE * n / (2 * Math.PI)) * Math.cos(t);
    ring[1][v] = (EDGE * n / (2 * Math.PI)) * Math.sin(t);
  });
  let best = null;
  for (const [x, y] of [columns, ring]) {
    relax(n, pairs, x, y);
    const crossed = crossings(pairs, x, y);
    if (!best || crossed < best.crossed) best = { x, y, crossed };
  }
  const { x, y } = best;
  const margin = NODE + 44; // room for loops
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    minX = Math.min(minX, x[i]); maxX = Math.max(maxX, x[i]);
    minY = Math.min(minY, y[i]); maxY = Math.max(maxY, y[i]);
  }
  if (n === 0) { minX = minY = maxX = maxY = 0; }
  const pos = [];
  for (let i = 0; i < n; i++) pos.push([x[i] - minX + margin, y[i] - minY + margin]);
  return { pos, width: maxX - minX + 2 * margin, height: maxY - minY + 2 * margin };
}

/** Forces on the positions `x`, `y` (Fruchterman–Reingold, capped rounds), then no overlaps. */
function relax(n, pairs, x, y) {
  // Forces, cooling from a step of a few edges to nothing.
  const rounds = n > 1 ? LAYOUT_ROUNDS : 0;
  const dx = new Float64Array(n);
  const dy = new Float64Array(n);
  const k2 = EDGE * EDGE;
  const far2 = 9 * k2;
  for (let round = 0; round < rounds; round++) {
    dx.fill(0);
    dy.fill(0);
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        let ex = x[i] - x[j];
        let ey = y[i] - y[j];
        let d2 = ex * ex + ey * ey;
        // Far vertices do not push (Fruchterman and Reingold's grid variant): the sum of
        // every push would swell a large drawing far past its edges' length.
        if (d2 > far2) continue;
        if (d2 < 1e-4) { ex = ((i * 7 + j) % 5) - 2 || 1; ey = ((i + j * 3) % 5) - 2 || 1; d2 = ex * ex + ey * ey; }
        const f = k2 / d2;
        dx[i] += ex * f; dy[i] += ey * f;
        dx[j] -= ex * f; dy[j] -= ey * f;
      }
    }
    for (const [u, v] of pairs) {
      const ex = x[u] - x[v];
      const ey = y[u] - y[v];
      const f = Math.hypot(ex, ey) / EDGE;
      dx[u] -= ex * f; dy[u] -= ey * f;
      dx[v] += ex * f; dy[v] += ey * f;
    }
    // A little gravity keeps the parts of a disconnected arena together.
    let cx = 0, cy = 0;
    for (let i = 0; i < n; i++) { cx += x[i]; cy += y[i]; }
    cx /= n; cy /= n;
    const step = EDGE * Math.sqrt(n) * 0.25 * (1 - round / rounds) + 1;
    for (let i = 0; i < n; i++) {
      dx[i] -= (x[i] - cx) * 0.05 * Math.sqrt(n);
      dy[i] -= (y[i] - cy) * 0.05 * Math.sqrt(n);
      const len = Math.hypot(dx[i], dy[i]);
      if (len > 0) {
        const move = Math.min(len, step) / len;
        x[i] += dx[i] * move;
        y[i] += dy[i] * move;
      }
    }
  }
  // No two vertices closer than their circles and a gap.
  const gap = 2 * NODE + 14;
  for (let pass = 0; pass < 30; pass++) {
    let moved = false;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const ex = x[j] - x[i];
        const ey = y[j] - y[i];
        const d = Math.hypot(ex, ey);
        if (d >= gap) continue;
        moved = true;
        const push = (gap - d) / 2 + 0.5;
        const ux = d > 1e-6 ? ex / d : 1, uy = d > 1e-6 ? ey / d : 0;
        x[i] -= ux * push; y[i] -= uy * push;
        x[j] += ux * push; y[j] += uy * push;
      }
    }
    if (!moved) break;
  }
}

/** How many pairs of edges (with no end in common) cross, drawn straight. */
function crossings(pairs, x, y) {
  const side = (a, b, c) => Math.sign((x[b] - x[a]) * (y[c] - y[a]) - (y[b] - y[a]) * (x[c] - x[a]));
  let count = 0;
  for (let i = 0; i < pairs.length; i++) {
    const [a, b] = pairs[i];
    for (let j = i + 1; j < pairs.length; j++) {
      const [c, d] = pairs[j];
      if (a === c || a === d || b === c || b === d) continue;
      if (side(a, b, c) * side(a, b, d) < 0 && side(c, d, a) * side(c, d, b) < 0) count += 1;
    }
  }
  return count;
}

/**
 * `text` cut to `k` characters and an ellipsis: its head and its tail (names that share a
 * beginning stay apart), or only its head (`end`).
 */
function cut(text, k, end) {
  if (k >= text.length) return text;
  if (end) return `${text.slice(0, k)}…`;
  const head = Math.ceil(k / 2);
  return `${text.slice(0, head)}…${text.slice(text.length - (k - head))}`;
}

/** A label inside a vertex: cut to fit by `fitLabels` once drawn, its whole text kept. */
function label(text, x, y, cls, max, end = false) {
  const full = String(text);
  // Until it can be measured, a cut by length; `fitLabels` then cuts by width.
  const shown = full.length > 5 ? cut(full, 4, end) : full;
  return svg('text', {
    x, y, 'text-anchor': 'middle', class: `fit ${cls}`, 'data-full': full, 'data-max': max,
    'data-cut': end ? 'end' : 'middle', text: shown,
  });
}

/** Cuts every label of `root` to the width its vertex has room for (it must be shown). */
function fitLabels(root) {
  for (const t of root.querySelectorAll('text.fit')) {
    const full = t.dataset.full;
    const max = Number(t.dataset.max);
    const end = t.dataset.cut === 'end';
    t.textContent = full;
    if (t.getComputedTextLength() <= max) continue;
    for (let k = full.length - 1; k >= 1; k--) {
      t.textContent = cut(full, k, end);
      if (t.getComputedTextLength() <= max) break;
    }
  }
}

/**
 * The arena, laid out by `layout`. Every label sits inside its vertex (a name, and a
 * second line: the priority of a PGSolver vertex, the Grundy value in a token game), which
 * is drawn over the edges; the whole name and the vertex's values are in its <title>.
 * Edges are straight, bent only where u→v and v→u both exist.
 */
function drawArena(a) {
  // An edge's ends and the start are places in `vertices`; a vertex's `file_id` is its id in the file.
  const { vertices } = a.arena;
  const edges = a.arena.edges.map((e) => ({ from: e.from_index, to: e.to_index, strategy: e.strategy }));
  const { drawing, pos } = graphFrame(vertices.length, edges, a.arena.start_index, { id: 'graph-drawing', label: 'the arena' });
  const unit = a.format === 'poi' ? 'field' : 'vertex';
  vertices.forEach((v, i) => {
    const [x, y] = pos[i];
    const fill = a.objective === 'token' ? OUTCOME_CLASS[v.outcome] : `won-${v.winner}`;
    const cls = `vertex ${fill}${v.accepting ? ' accepting' : ''}`;
    const group = svg('g', { class: cls, 'data-id': v.file_id, 'data-winner': v.winner });
    const name = v.name !== undefined ? v.name : String(v.file_id);
    let tip = `${unit} ${name}${v.name !== undefined ? ` (id ${v.file_id})` : ''}`;
    if (v.owner !== undefined) tip += ` (${a.players[v.owner]}'s, priority ${v.priority}${v.accepting ? ', accepting' : ''}): ${a.players[v.winner]} wins`;
    if (v.outcome !== undefined) {
      tip += `: ${v.outcome} for the player to move`;
      if (v.remoteness !== undefined && v.remoteness !== null) tip += `, remoteness ${v.remoteness}`;
      if (v.grundy !== undefined) tip += `, Grundy value ${v.grundy}`;
    }
    group.append(svg('title', { text: tip }));
    let second = null;
    if (a.format === 'pgsolver' && v.priority !== undefined) second = `p${v.priority}`;
    if (a.objective === 'token' && v.grundy !== undefined) second = String(v.grundy);
    vertexShape(group, x, y, v.owner === 1, name, second);
    drawing.append(group);
  });
  return drawing;
}

/** A vertex at (x, y): a square (`square`) or a circle, its name and an optional second line. */
function vertexShape(group, x, y, square, name, second) {
  if (square) {
    group.append(svg('rect', { x: x - NODE, y: y - NODE, width: 2 * NODE, height: 2 * NODE, rx: 3 }));
  } else {
    group.append(svg('circle', { cx: x, cy: y, r: NODE }));
  }
  if (second === null || second === undefined) {
    group.append(label(name, x, y + 4, 'name', 2 * NODE - 8));
  } else {
    group.append(label(name, x, y - 2, 'name', 2 * NODE - 10));
    group.append(label(second, x, y + 11, 'second', 2 * NODE - 12, true));
  }
}

/**
 * A graph laid out by `layout`, its edges drawn (each `{from, to, strategy?, cls?}`), as
 * an <svg> to add the vertices to at `pos`. Edges are straight, bent only where u→v and
 * v→u both exist; a loop is a small curl outside its vertex.
 */
function graphFrame(n, edges, start, { id, label: name }) {
  const { pos, width, height } = layout(n, edges, start);
  let cx = 0, cy = 0;
  for (const [x, y] of pos) { cx += x / Math.max(1, n); cy += y / Math.max(1, n); }
  const drawing = svg('svg', {
    id, class: 'arena', viewBox: `0 0 ${Math.ceil(width)} ${Math.ceil(height)}`,
    width: Math.ceil(width), height: Math.ceil(height), role: 'img', 'aria-label': name,
  });
  // Drawn at its size; never shrunk below 60 % of it (the box scrolls instead).
  drawing.style.maxWidth = `max(100%, ${Math.ceil(width * 0.6)}px)`;
  const defs = svg('defs');
  for (const kind of ['plain', 'strategy']) {
    defs.append(svg('marker', {
      id: `arrow-${kind}`, viewBox: '0 0 10 10', refX: 9, refY: 5, markerUnits: 'userSpaceOnUse',
      markerWidth: kind === 'strategy' ? 12 : 9, markerHeight: kind === 'strategy' ? 12 : 9, orient: 'auto-start-reverse',
    }, svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: `arrowhead ${kind}` })));
  }
  drawing.append(defs);
  const both = new Set(edges.map((e) => `${e.from} ${e.to}`));
  const edgeLayer = svg('g', { class: 'edges' });
  for (const e of edges) {
    const cls = `edge${e.strategy ? ' strategy' : ''}${e.cls ? ` ${e.cls}` : ''}`;
    const marker = `url(#arrow-${e.strategy ? 'strategy' : 'plain'})`;
    const [x1, y1] = pos[e.from];
    const [x2, y2] = pos[e.to];
    if (e.from === e.to) {
      // A loop: a small circle outside the vertex, away from the middle of the drawing.
      const ox = x1 - cx, oy = y1 - cy;
      const len = Math.hypot(ox, oy);
      const ux = len > 1 ? ox / len : 0, uy = len > 1 ? oy / len : -1;
      const sx = x1 + ux * NODE - uy * 6, sy = y1 + uy * NODE + ux * 6;
      const ex = x1 + ux * NODE + uy * 6, ey = y1 + uy * NODE - ux * 6;
      edgeLayer.append(svg('path', {
        class: cls, 'marker-end': marker, 'data-from': e.from, 'data-to': e.to,
        d: `M ${sx} ${sy} C ${sx + ux * 40 - uy * 20} ${sy + uy * 40 + ux * 20}, ${ex + ux * 40 + uy * 20} ${ey + uy * 40 - ux * 20}, ${ex} ${ey}`,
      }));
      continue;
    }
    const dx = x2 - x1, dy = y2 - y1;
    const len = Math.hypot(dx, dy) || 1;
    const ux = dx / len, uy = dy / len;
    const bend = both.has(`${e.to} ${e.from}`) ? 14 : 0;
    const mx = (x1 + x2) / 2 - uy * bend, my = (y1 + y2) / 2 + ux * bend;
    const sx = x1 + ux * NODE, sy = y1 + uy * NODE;
    const ex = x2 - ux * (NODE + 2), ey = y2 - uy * (NODE + 2);
    edgeLayer.append(svg('path', {
      class: cls, 'marker-end': marker, 'data-from': e.from, 'data-to': e.to, d: `M ${sx} ${sy} Q ${mx} ${my} ${ex} ${ey}`,
    }));
  }
  drawing.append(edgeLayer);
  return { drawing, pos };
}

/** The most rows of the token game's table of values; the download has them all. */
const MAX_VALUE_ROWS = 1000;

/** A token game's values, vertex by vertex, as `grundy graph --json` gives them. */
function renderValues(a) {
  const box = $('graph-values-box');
  const body = $('graph-values').tBodies[0];
  clear(body);
  if (a.objective !== 'token' || !a.outcome) {
    box.hidden = true;
    return;
  }
  const n = a.outcome.length;
  const names = a.arena ? a.arena.vertices.map((v) => (v.name !== undefined ? v.name : null)) : [];
  for (let v = 0; v < Math.min(n, MAX_VALUE_ROWS); v++) {
    const id = a.file_ids ? a.file_ids[v] : v;
    const r = a.remoteness[v];
    body.append(el('tr', { class: OUTCOME_CLASS[a.outcome[v]] || '', 'data-id': id },
      el('td', { text: names[v] ? `${id} (${names[v]})` : id }),
      el('td', { text: a.outcome[v] }),
      el('td', { text: r === null || r === undefined ? '—' : r }),
      el('td', { text: a.grundy[v] })));
  }
  $('graph-values-note').textContent = n > MAX_VALUE_ROWS
    ? `The first ${MAX_VALUE_ROWS} of ${n} vertices; the solution file has them all.`
    : 'For the player to move with the token there: the outcome, the remoteness (moves to the end under best play; none in a draw) and the generalised Grundy value.';
  box.hidden = false;
}

// ---------------------------------------------------------------------------------------
// The gallery: every family of the library's registry, as `/api/catalog` lists it
// ---------------------------------------------------------------------------------------

/**
 * The start page: a card for each family with the drawing of its first example (the
 * library's picture or figure, no moves), its rules in one line (all of them on hover),
 * its examples to explore or play, and whether a tablebase of it is loaded. The families
 * the library draws come first, each group in the registry's order.
 */
function renderGallery(items, tablebases) {
  const list = $('gallery');
  clear(list);
  const drawn = (g) => Boolean(g.picture || g.figure);
  for (const g of [...items.filter(drawn), ...items.filter((g) => !drawn(g))]) {
    const card = el('li', { class: 'game-card', 'data-family': g.name });
    const picture = el('div', { class: 'game-picture' });
    const quiet = { coloured: false, onMove: () => {}, last: null, id: `gallery-${g.name}` };
    if (g.picture) picture.append(drawBoard(g.picture, [], quiet));
    else if (g.figure) picture.append(drawFigure(g.figure, [], quiet));
    else picture.append(el('code', { class: 'game-shape', text: g.shape }));
    const loaded = tablebases.filter((t) => String(t) === g.name || String(t).startsWith(`${g.name}[`));
    card.append(picture, el('h2', { text: g.name }),
      el('p', { class: 'game-rules', title: g.rules, text: g.rules }));
    if (loaded.length) card.append(el('p', { class: 'note', text: `tablebase loaded: ${loaded.join(', ')}` }));
    const examples = el('div', { class: 'game-examples' });
    const specs = g.examples.length ? g.examples : g.spec ? [g.spec] : [];
    for (const spec of specs) {
      const row = el('div', { class: 'game-example' }, el('code', { text: spec }));
      const see = el('button', { type: 'button', class: 'see', text: 'Explore', 'aria-label': `explore ${spec}` });
      see.addEventListener('click', () => { selectOptions(g.name); showPanel('explore'); explore(spec); });
      const play = el('button', { type: 'button', class: 'play', text: 'Play', 'aria-label': `play ${spec}` });
      play.addEventListener('click', () => {
        selectOptions(g.name);
        playSpec(spec);
      });
      row.append(el('span', { class: 'actions' }, see, play));
      examples.append(row);
    }
    card.append(examples);
    // Its options, as the library offers them: another size, other seeds, another code.
    if (g.options) {
      const box = el('details', { class: 'game-options' }, el('summary', { text: 'Options' }));
      const settings = el('div', { class: 'bar' });
      const chosen = optionSelects(settings, g, `gallery-option-${g.name}`);
      const error = el('div', { class: 'error', role: 'alert', hidden: true });
      const go = async (then) => {
        showError(error, null);
        try {
          then(await variantSpec(g, chosen()));
        } catch (e) {
          showError(error, e);
        }
      };
      const see = el('button', { type: 'button', class: 'see', text: 'Explore', 'aria-label': `explore ${g.name} with these options` });
      see.addEventListener('click', () => go((spec) => { selectOptions(g.name); showPanel('explore'); explore(spec); }));
      const play = el('button', { type: 'button', class: 'play', text: 'Play', 'aria-label': `play ${g.name} with these options` });
      play.addEventListener('click', () => go((spec) => { selectOptions(g.name); playSpec(spec); }));
      settings.append(el('span', { class: 'actions' }, see, play));
      box.append(settings, error);
      card.append(box);
    }
    list.append(card);
  }
}

// ---------------------------------------------------------------------------------------
// Options: a family's variants (its sizes, seeds, codes), as the library offers them
// (the gallery's `options`); the spec they make is the API's (`/api/variant`)
// ---------------------------------------------------------------------------------------

/** The families that have options, as the gallery lists them. */
let optionFamilies = [];

/**
 * A select for each setting of family `g`'s options in `box`, labelled as the library
 * calls it, offering its values (`values` chosen, else the defaults). Returns a function
 * that gives the values chosen, by setting.
 */
function optionSelects(box, g, idPrefix, values = {}) {
  clear(box);
  const selects = [];
  for (const s of g.options.settings) {
    const id = `${idPrefix}-${s.name}`;
    const select = el('select', { id, 'data-setting': s.name });
    for (const c of s.choices) {
      select.append(el('option', { value: c.value, text: c.words ? `${c.value}: ${c.words}` : c.value }));
    }
    select.value = values[s.name] !== undefined ? values[s.name] : s.default;
    box.append(el('label', { for: id }, s.label, select));
    selects.push(select);
  }
  return () => Object.fromEntries(selects.map((x) => [x.dataset.setting, x.value]));
}

/** The spec family `g`'s options make with `values`: the API builds and checks it. */
async function variantSpec(g, values) {
  return (await api(`/api/variant?${new URLSearchParams({ family: g.name, ...values })}`)).spec;
}

/** The options panels of Explore and Play, by prefix: `select(family)` shows its options. */
const optionPanels = {};

/**
 * The options panel `pre` (`explore` or `play`): a family, its settings, and a button
 * that gives the spec they make to `act`; a refusal (a combination the family does not
 * take) goes to `errorBox` with the library's reason.
 */
function setupOptions(pre, act, errorBox) {
  const family = $(`${pre}-options-family`);
  clear(family);
  for (const g of optionFamilies) family.append(el('option', { value: g.name, text: g.name }));
  let chosen = null;
  const current = () => optionFamilies.find((g) => g.name === family.value);
  const show = () => {
    const g = current();
    chosen = g ? optionSelects($(`${pre}-options-settings`), g, `${pre}-option`) : null;
  };
  family.addEventListener('change', show);
  $(`${pre}-options-go`).addEventListener('click', async () => {
    const g = current();
    if (!g) return;
    showError(errorBox, null);
    try {
      act(await variantSpec(g, chosen()));
    } catch (e) {
      showError(errorBox, e);
    }
  });
  show();
  $(`${pre}-options`).hidden = optionFamilies.length === 0;
  optionPanels[pre] = {
    select(name) {
      if (family.value !== name && optionFamilies.some((g) => g.name === name)) {
        family.value = name;
        show();
      }
    },
  };
}

/** Shows family `name`'s options in both panels (a game of it was opened). */
function selectOptions(name) {
  for (const panel of Object.values(optionPanels)) panel.select(name);
}

function playSpec(spec) {
  $('play-spec').value = spec;
  $('contest-report').hidden = true;
  showPanel('play');
  startGame(false);
}

// ---------------------------------------------------------------------------------------
// Start
// ---------------------------------------------------------------------------------------

let graphExample = null;

async function init() {
  for (const tab of document.querySelectorAll('.tab')) {
    tab.addEventListener('click', () => showPanel(tab.dataset.panel));
  }
  $('explore-form').addEventListener('submit', (e) => { e.preventDefault(); explore($('spec').value); });
  // An example is explored, and the menu goes back to its title: the spec box says what
  // is shown, and the same example can be picked again.
  $('catalog').addEventListener('change', () => {
    const spec = $('catalog').value;
    $('catalog').value = '';
    if (spec) explore(spec);
  });
  $('explore-play').addEventListener('click', () => {
    $('play-spec').value = $('spec').value.trim();
    showPanel('play');
    startGame(false);
  });
  window.addEventListener('popstate', followUrl);
  $('play-form').addEventListener('submit', (e) => { e.preventDefault(); startGame(false); });
  $('play-second').addEventListener('click', () => startGame(true));
  $('hint').addEventListener('change', () => { if (game.current) renderGame(); });
  $('undo').addEventListener('click', () => undo());
  $('redo').addEventListener('click', () => redo());
  $('typed-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const to = $('typed').value.trim();
    if (to) move(to);
  });
  $('contest-form').addEventListener('submit', (e) => {
    e.preventDefault();
    loadBoard(new TextEncoder().encode($('contest-text').value), 'pasted text', false);
  });
  $('contest-second').addEventListener('click', () => {
    loadBoard(new TextEncoder().encode($('contest-text').value), 'pasted text', true);
  });
  $('contest-file').addEventListener('change', async () => {
    const file = $('contest-file').files[0];
    if (!file) return;
    loadBoard(await file.arrayBuffer(), file.name, false);
  });
  $('graph-form').addEventListener('submit', (e) => {
    e.preventDefault();
    solveGraph(new TextEncoder().encode($('graph-text').value), 'pasted text');
  });
  $('graph-file').addEventListener('change', async () => {
    const file = $('graph-file').files[0];
    if (!file) return;
    solveGraph(await file.arrayBuffer(), file.name);
  });
  $('graph-example').addEventListener('click', () => {
    if (graphExample) {
      $('graph-text').value = graphExample.text;
      solveGraph(new TextEncoder().encode(graphExample.text), graphExample.name);
    }
  });

  try {
    const catalog = await api('/api/catalog');
    for (const spec of catalog.examples) $('catalog').append(el('option', { value: spec, text: spec }));
    optionFamilies = (catalog.gallery || []).filter((g) => g.options);
    setupOptions('explore', (spec) => explore(spec), $('explore-error'));
    setupOptions('play', playSpec, $('play-error'));
    renderGallery(catalog.gallery || [], catalog.tablebases || []);
    for (const f of catalog.families) {
      $('families').append(el('li', {}, el('code', { text: f.name }), ` — ${f.shape}`));
    }
    graphExample = catalog.graph_examples[0] || null;
    // The objectives and each format's default, as the library names them.
    const defaults = catalog.default_objectives.map((d) => `${d.format}: ${d.objective}`).join('; ');
    $('graph-objective').firstElementChild.textContent = `default (${defaults})`;
    for (const goal of catalog.objectives) {
      $('graph-objective').append(el('option', { value: goal.name, text: `${goal.name}: ${goal.about}` }));
    }
  } catch (e) {
    showError($('explore-error'), e);
  }
  $('moves-legend').append(valueLegend());
  $('play-legend').append(valueLegend());
  // A shared address opens at its position, or replays its game.
  if (specInUrl()) {
    showPanel('explore');
    explore(specInUrl(), { push: false });
  } else if (playInUrl()) {
    await followPlay(playInUrl());
  }
  document.body.dataset.ready = 'true';
}

document.addEventListener('DOMContentLoaded', init);
