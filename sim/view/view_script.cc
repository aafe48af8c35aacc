// The view page's script (sim/view/view_page.h). It rebuilds the wheel of
// any frame from the keyframe and the window's events, draws it, the
// timeline and the report's tables, and answers clicks. No library, no
// network. window.timersimView is the handle the browser test steps the
// page through; shown() reads the slots back from the page itself.
#include "sim/view/view_page.h"

namespace timersim {

const char view_script[] = R"js(
(function () {
'use strict';
const D = JSON.parse(document.getElementById('timersim-data').textContent);
const W = D.window;
const $ = (id) => document.getElementById(id);
const el = (tag, attrs, text) => {
	const e = document.createElement(tag);
	for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
	if (text !== undefined) e.textContent = text;
	return e;
};
const SVG = 'http://www.w3.org/2000/svg';
const sv = (tag, attrs) => {
	const e = document.createElementNS(SVG, tag);
	for (const k in attrs) e.setAttribute(k, attrs[k]);
	return e;
};
const fmt = (s) => Number(s).toFixed(3) + ' s';
const isV48 = D.scheme === 'v48';
const LAB = D.lab;	// a scenario's page (sim/view/view_scenario.h): frames are statements

// ---- timers and frames ---------------------------------------------------
const names = W.names || [];
const timers = new Map();
for (const t of W.timers || [])
	timers.set(t[0], {ptr: t[1], name: names[t[2]] || t[1], placedAt: t[3], placedClock: t[4],
			 byCascade: !!t[5], expires: 0, bucket: 0, def: !!t[6]});
const tname = (id) => (timers.get(id) || {name: '#' + id}).name;

const events = W.events || [];
const frames = [];	// per CPU: [{ev, jiffy, seconds}]
for (let c = 0; c < D.cpus; c++) frames.push([]);
events.forEach((e, i) => { if (e[0] === 'F') frames[e[1]].push({ev: i, jiffy: e[2], seconds: e[3], label: e[5]}); });

// ---- the wheel's state ---------------------------------------------------------
// slots[cpu][base][level][slot] = [timer ids in list order]; where: id -> place
let slots, where, clocks, applied;
// One CPU's slots from lists of [slot, [[id, expires, bucket, deferrable]]]
// per base and level (the keyframe's, or a scenario step's snapshot).
function load(cpu, lists) {
	for (const [id, p] of Array.from(where)) if (p.cpu === cpu) where.delete(id);
	slots[cpu] = W.keyframe[cpu].map((b, bi) => b.levels.map((l, li) => {
		const arr = Array.from({length: l.size}, () => []);
		for (const [slot, list] of lists[bi][li])
			for (const [id, expires, bucket, def] of list) {
				arr[slot].push(id);
				where.set(id, {cpu, base: bi, level: li, slot});
				const t = timers.get(id);
				if (t) { t.expires = expires; t.bucket = bucket; t.def = !!def; }
			}
		return arr;
	}));
}
function fresh() {
	slots = []; where = new Map(); clocks = [];
	(W.keyframe || []).forEach((bases, cpu) => {
		load(cpu, bases.map((b) => b.levels.map((l) => l.slots)));
		clocks.push(bases.map((b) => b.clock));
	});
	applied = 0;
}
function remove(id) {
	const p = where.get(id);
	if (!p) return null;
	const list = slots[p.cpu][p.base][p.level][p.slot];
	const i = list.indexOf(id);
	if (i >= 0) list.splice(i, 1);
	where.delete(id);
	return p;
}
function insert(id, cpu, base, level, slot, pos) {
	const list = slots[cpu][base][level][slot];
	list.splice(Math.min(pos, list.length), 0, id);
	where.set(id, {cpu, base, level, slot});
}
// Applies event i; `changes` collects what the step did, for the highlights.
function apply(i, changes) {
	const e = events[i];
	const t = timers.get(e[1]);
	switch (e[0]) {
	case 'F': clocks[e[1]] = e[4]; break;
	case 'P': {
		// Position -1: a re-arm the wheel left where it was in its slot.
		const stays = e[6] < 0 && where.has(e[1]);
		const from = stays ? where.get(e[1]) : remove(e[1]);
		if (!stays) insert(e[1], e[2], e[3], e[4] - 1, e[5], e[6]);
		if (t) { t.expires = e[8]; t.bucket = e[9]; t.placedAt = e[7]; t.placedClock = e[10]; t.byCascade = false; t.why = e[12]; }
		changes.push({kind: 'placed', id: e[1], from, to: where.get(e[1]), jiffy: e[7], rearm: !!e[11]});
		break;
	}
	case 'M': {
		const from = remove(e[1]);
		insert(e[1], e[2], e[3], e[4] - 1, e[5], e[6]);
		if (t) { t.placedAt = e[7]; t.placedClock = e[8]; t.byCascade = true; t.why = e[9]; }
		changes.push({kind: 'moved', id: e[1], from, to: where.get(e[1]), jiffy: e[7]});
		break;
	}
	case 'C': changes.push({kind: 'cascade', cpu: e[1], level: e[2] - 1, count: e[3], jiffy: e[4]}); break;
	case 'E': if (t) t.expires = e[3]; break;
	case 'X': changes.push({kind: 'expired', id: e[1], from: remove(e[1]), jiffy: e[3]}); break;
	case 'D': changes.push({kind: 'deleted', id: e[1], from: remove(e[1]), jiffy: e[3]}); break;
	case 'Y': changes.push({kind: 'miss', id: e[1], verdict: e[4], jiffy: e[3], simulated: e[5]}); break;
	}
}
// Brings the state to frame k of cpu (its F event applied) and returns the
// changes since the CPU's previous frame.
function seek(cpu, k) {
	const target = frames[cpu][k].ev;
	const since = k > 0 ? frames[cpu][k - 1].ev + 1 : 0;
	if (applied > since) fresh();
	const changes = [];
	while (applied <= target) {
		const keep = applied >= since ? changes : [];
		apply(applied, keep);
		applied++;
	}
	return changes;
}

// ---- page state ---------------------------------------------------------------
const view = {cpu: D.worst.cpu, frame: 0, playing: false, timer: null, selected: null, changes: []};
if (!frames[view.cpu] || !frames[view.cpu].length) view.cpu = Math.max(0, frames.findIndex((f) => f.length));

function levelInfo(cpu, base, level) { return W.keyframe[cpu][base].levels[level]; }

// ---- drawing the wheel -------------------------------------------------------------
let cells = [];	// cells[base][level][slot]
const COLS = 64;	// slots a grid row holds: tv1's 256 take four rows
// A row of the wheel: the level's label (its first row only), the number
// of the row's first slot, then `cells` (appended by the caller).
function wheelRow(label, first) {
	const row = el('div', {class: 'level'});
	row.appendChild(label || el('div', {class: 'label'}));
	row.appendChild(el('div', {class: 'row-start', title: 'the first slot of this row'}, first === undefined ? '' : String(first)));
	return row;
}
// Above each base: the column of every 8th slot, so that slot
// row-start + column is found without counting.
function ruler(cols) {
	const row = wheelRow(el('div', {class: 'label'}, 'slot'), undefined);
	const grid = el('div', {class: 'slots ruler'});
	for (let c = 0; c < cols; c++) grid.appendChild(el('div', {class: c % 8 ? 'tick' : 'tick c8'}, c % 8 ? '' : String(c)));
	row.appendChild(grid);
	return row;
}
function legend(l0) {
	const box = el('div', {class: 'legend', id: 'legend'});
	const sample = (cls, bars, text) => {
		const c = el('span', {class: 'cell sample ' + cls});
		if (text) c.appendChild(el('span', {}, text));
		for (const b of bars) c.appendChild(el('i', b ? {class: 'def'} : {}));
		return c;
	};
	const line = (parts) => {
		const d = el('div');
		for (const p of parts) d.appendChild(typeof p === 'string' ? document.createTextNode(p) : p);
		box.appendChild(d);
	};
	line([sample('idx', []), ' red frame: the level\'s index, the slot it processes (or cascades) next; ',
		el('code', {}, 'idx N · T'), ' beside a level: that slot, and the timers the level holds. ',
		sample('', [0]), sample('', [0, 1]), ' a bar is a timer (pale: deferrable); ', sample('', [0, 0, 0, 0], '9'),
		' over six: the count.']);
	const swatch = (color, text) => [el('b', {style: 'background:' + color}), text];
	line(['last step: '].concat(swatch('#f6c5c0', 'expired from'), swatch('#f8d9a8', 'cascaded from'),
		swatch('#c8dcf8', 'moved to'), swatch('#cdebd0', 'placed in'), swatch('#e3e3e3', 'deleted from'),
		['. Slot numbers: the ruler numbers the columns, the number before a row is its first slot (' +
		 l0.name + '[44]: row 0, column 44' + (l0.size > 200 ? '; ' + l0.name + '[200]: row 192, column 8' : '') +
		 '); hover a slot for its name.']));
	return box;
}
function buildWheel() {
	const root = $('wheel');
	root.textContent = '';
	cells = [];
	if (!W.drawable) {
		root.appendChild(el('p', {class: 'warn'}, D.scheme + ': this scheme keeps no slots to draw, ' +
			'or no tick fell in the window; the timeline and the report are below.'));
		return;
	}
	const bases = W.keyframe[view.cpu];
	bases.forEach((b, bi) => {
		const box = el('div', {class: 'base'});
		box.appendChild(el('h2', {}, 'CPU ' + view.cpu + (bases.length > 1 ? ', ' + b.name + ' base' : '')));
		box.appendChild(ruler(Math.min(COLS, Math.max(...b.levels.map((l) => l.size)))));
		const lv = [];
		b.levels.forEach((l, li) => {
			const cs = [];
			for (let first = 0; first < l.size; first += COLS) {
				const row = wheelRow(first ? null : el('div', {class: 'label', id: 'label-' + bi + '-' + li}), first);
				const grid = el('div', {class: 'slots'});
				for (let s = first; s < Math.min(l.size, first + COLS); s++) {
					const c = el('div', {class: 'cell', 'data-base': bi, 'data-level': l.name, 'data-slot': s,
						'data-timers': ''});
					c.addEventListener('click', () => { view.selected = {base: bi, level: li, slot: s}; render(); });
					grid.appendChild(c);
					cs.push(c);
				}
				row.appendChild(grid);
				box.appendChild(row);
			}
			lv.push(cs);
		});
		cells.push(lv);
		root.appendChild(box);
	});
	root.appendChild(legend(bases[0].levels[0]));
}

function drawCells() {
	if (!W.drawable) return;
	const cpu = view.cpu;
	const hl = new Map();
	const mark = (p, cls) => { if (p && p.cpu === cpu) hl.set(p.base + ':' + p.level + ':' + p.slot, cls); };
	for (const ch of view.changes) {
		if (ch.kind === 'expired') mark(ch.from, 'hl-exp');
		if (ch.kind === 'deleted') mark(ch.from, 'hl-del');
		if (ch.kind === 'moved') { mark(ch.from, 'hl-casc'); }
	}
	for (const ch of view.changes) {
		if (ch.kind === 'moved') mark(ch.to, 'hl-moved');
		if (ch.kind === 'placed' && where.get(ch.id)) mark(ch.to, 'hl-placed');
	}
	cells.forEach((lv, bi) => lv.forEach((cs, li) => {
		const l = levelInfo(cpu, bi, li);
		const index = Math.floor(clocks[cpu][bi] / l.width) % l.size;
		const label = $('label-' + bi + '-' + li);
		let n = 0;
		cs.forEach((c, s) => {
			const list = slots[cpu][bi][li][s];
			n += list.length;
			c.setAttribute('data-timers', list.join(' '));
			let cls = s % 8 ? 'cell' : 'cell c8';
			if (s === index) cls += ' idx';
			const h = hl.get(bi + ':' + li + ':' + s);
			if (h) cls += ' ' + h;
			const sel = view.selected;
			if (sel && sel.base === bi && sel.level === li && sel.slot === s) cls += ' sel';
			c.className = cls;
			let html = '';
			const shown = Math.min(list.length, list.length > 6 ? 4 : 6);
			for (let k = 0; k < shown; k++) html += (timers.get(list[k]) || {}).def ? '<i class="def"></i>' : '<i></i>';
			if (list.length > 6) html = '<span>' + list.length + '</span>' + html;
			c.innerHTML = html;
			c.title = l.name + '[' + s + ']: ' + list.length + ' timer' + (list.length === 1 ? '' : 's');
		});
		label.innerHTML = '<b>' + l.name + '</b> idx ' + index + ' · ' + n;
		label.title = l.name + ': ' + l.size + ' slots of ' + l.width + ' jiffies, index ' + index + ', ' + n + ' timers';
	}));
}

// ---- why a timer is where it is ------------------------------------------------------
function why(id, base, level, slot) {
	const t = timers.get(id);
	const l = levelInfo(view.cpu, base, level);
	if (!t) return '';
	if (t.why) return t.why;	// a scenario's: the lab's own reasoning
	const how = t.byCascade ? 'moved here by a cascade at jiffy ' + t.placedAt
		: 'placed by a start at jiffy ' + t.placedAt;
	const d = t.expires - t.placedClock;
	let s = how + ', when the base\'s clock was ' + t.placedClock + ': ';
	if (d < 0) return s + 'expires ' + t.expires + ' had passed, so it went to the slot processed next.';
	s += 'expires ' + t.expires + ' is ' + d + ' jiffies ahead; ';
	if (d >= l.high) s += 'beyond the wheel\'s range (' + l.high + '), so it sits on the last level; ';
	else s += l.name + ' takes distances ' + l.low + ' to ' + (l.high - 1) + '; ';
	if (isV48) s += 'its bucket runs at ' + t.bucket + ' (the expiry rounded up to ' + l.width +
		'-jiffy granularity): slot ' + slot + ' = (' + t.bucket + ' / ' + l.width + ') mod ' + l.size + '.';
	else s += 'slot ' + slot + ' = (' + t.expires + ' / ' + l.width + ') mod ' + l.size + '.';
	return s;
}

function drawSlotPanel() {
	const panel = $('slot-panel');
	panel.textContent = '';
	const sel = view.selected;
	if (!sel || !W.drawable) {
		panel.appendChild(el('p', {}, 'Click a slot to list its timers and why they are there.'));
		return;
	}
	const b = W.keyframe[view.cpu][sel.base];
	const l = b.levels[sel.level];
	const list = slots[view.cpu][sel.base][sel.level][sel.slot];
	panel.appendChild(el('h3', {}, 'CPU ' + view.cpu + (W.keyframe[view.cpu].length > 1 ? ' ' + b.name : '') +
		' ' + l.name + '[' + sel.slot + ']: ' + list.length + ' timer' + (list.length === 1 ? '' : 's') +
		', in list order'));
	const ol = el('ol', {id: 'slot-timers'});
	for (const id of list) {
		const t = timers.get(id) || {};
		const li = el('li', {'data-timer': id});
		li.appendChild(el('b', {}, tname(id)));
		li.appendChild(document.createTextNode(' ' + (t.ptr || '') + ' expires ' + t.expires +
			(isV48 && t.bucket !== t.expires ? ' (bucket ' + t.bucket + ')' : '') + (t.def ? ', deferrable' : '')));
		li.appendChild(el('div', {class: 'why'}, why(id, sel.base, sel.level, sel.slot)));
		ol.appendChild(li);
	}
	panel.appendChild(ol);
}

// ---- what the step did ------------------------------------------------------------------
function placeName(p) {
	if (!p) return '(outside the wheel)';
	const b = W.keyframe[p.cpu][p.base];
	return (W.keyframe[p.cpu].length > 1 ? b.name + ' ' : '') + b.levels[p.level].name + '[' + p.slot + ']';
}
function drawChanges() {
	const box = $('changes');
	const lines = [];
	for (const ch of view.changes) {
		switch (ch.kind) {
		case 'cascade':
			if (ch.cpu === view.cpu) lines.push('jiffy ' + ch.jiffy + ': cascade of ' + D.levels[ch.level] + ' moved ' + ch.count);
			break;
		case 'moved': lines.push('  > ' + tname(ch.id) + ' ' + placeName(ch.from) + ' -> ' + placeName(ch.to)); break;
		case 'expired': lines.push('jiffy ' + ch.jiffy + ': ! ' + tname(ch.id) + ' fired from ' + placeName(ch.from)); break;
		case 'placed': lines.push('jiffy ' + ch.jiffy + ': + ' + tname(ch.id) + ' -> ' + placeName(ch.to) + (ch.rearm ? ' (re-armed)' : '')); break;
		case 'deleted': lines.push('jiffy ' + ch.jiffy + ': - ' + tname(ch.id) + ' left ' + placeName(ch.from)); break;
		case 'miss': lines.push('jiffy ' + ch.jiffy + ': fidelity ' + ch.verdict + ': ' + tname(ch.id) + ' (simulated ' + ch.simulated + ')'); break;
		}
	}
	const f = frames[view.cpu][view.frame];
	const st = LAB && LAB.statements[view.frame - 1];
	if (st && st[4]) lines.push('next timer interrupt: ' + st[5]);
	if (LAB) box.textContent = lines.length ? f.label + ':\n' + lines.join('\n') : (view.frame ? f.label + ': no slot changed' : 'the wheel before the first statement');
	else {
		const prev = frames[view.cpu][view.frame - 1];
		const what = prev ? 'the tick at jiffy ' + prev.jiffy + ' and what followed it' : 'before the window\'s first tick';
		box.textContent = lines.length ? what + ':\n' + lines.join('\n') : what + ': nothing changed';
	}
}

// ---- the timeline ---------------------------------------------------------------------
const TL = D.timeline;
const CW = 1000, CH = 74, PAD = 44;
function xOf(sec) {
	const s0 = TL.seconds[0], s1 = TL.seconds[TL.seconds.length - 1] + (TL.seconds.length > 1 ? (TL.seconds[1] - TL.seconds[0]) : 1);
	return PAD + (CW - PAD - 6) * (sec - s0) / Math.max(s1 - s0, 1e-9);
}
function secOf(x) {
	const s0 = TL.seconds[0], s1 = TL.seconds[TL.seconds.length - 1] + (TL.seconds.length > 1 ? (TL.seconds[1] - TL.seconds[0]) : 1);
	return s0 + (x - PAD) / (CW - PAD - 6) * (s1 - s0);
}
const COLORS = ['#3a64b5', '#e08a1e', '#2f9e58', '#b23a48', '#7b4bb7', '#1f9bb2', '#8a6d3b', '#555', '#c2417f'];
function chart(title, series, kind) {
	const svg = sv('svg', {width: CW, height: CH + 16});
	svg.appendChild(sv('text', {x: PAD, y: 11, class: 'chart-title'})).textContent = title;
	let max = 1;
	for (const s of series) for (const v of s.values) max = Math.max(max, v);
	const y = (v) => 14 + CH - 4 - (CH - 8) * v / max;
	svg.appendChild(sv('text', {x: PAD - 4, y: 20, class: 'axis', 'text-anchor': 'end'})).textContent = String(max);
	svg.appendChild(sv('text', {x: PAD - 4, y: CH + 10, class: 'axis', 'text-anchor': 'end'})).textContent = '0';
	const ws = W.drawable ? xOf(W.from_seconds) : 0, we = W.drawable ? xOf(W.to_seconds) : 0;
	if (W.drawable) svg.appendChild(sv('rect', {x: ws, y: 14, width: Math.max(we - ws, 2), height: CH - 4, fill: '#fff3c4'}));
	series.forEach((s, si) => {
		if (kind === 'bars') {
			s.values.forEach((v, i) => {
				if (!v) return;
				const x = xOf(TL.seconds[i]);
				svg.appendChild(sv('rect', {x, y: y(v), width: Math.max(1, xOf(TL.seconds[i + 1] || TL.seconds[i]) - x), height: y(0) - y(v), fill: s.color}));
			});
		} else {
			const pts = s.values.map((v, i) => xOf(TL.seconds[i]).toFixed(1) + ',' + y(v).toFixed(1)).join(' ');
			svg.appendChild(sv('polyline', {points: pts, fill: 'none', stroke: s.color, 'stroke-width': 1.2}));
			if (series.length > 1) svg.appendChild(sv('text', {x: PAD + 200 + si * 44, y: 11, class: 'axis', fill: s.color})).textContent = '— ' + s.name;
		}
	});
	const cur = sv('line', {class: 'cursor', x1: 0, x2: 0, y1: 14, y2: CH + 10, stroke: '#c0392b', 'stroke-width': 1.5});
	svg.appendChild(cur);
	svg.addEventListener('click', (ev) => jumpTo(secOf(ev.offsetX)));
	return svg;
}
// A scenario's page has its statements where a trace's has the timeline.
function drawStatements() {
	const box = $('timeline');
	box.textContent = '';
	const ol = el('ol', {id: 'statements', start: 0});
	const item = (frame, text) => {
		const li = el('li', {'data-frame': frame}, text);
		li.addEventListener('click', () => goTo(0, frame));
		ol.appendChild(li);
	};
	item(0, 'the wheel before the first statement, now ' + W.from);
	for (const [line, text, at, frame] of LAB.statements) item(frame, 'line ' + line + ', at ' + at + ': ' + text);
	box.appendChild(el('div', {class: 'note'}, 'Click a statement to see the wheel after it.'));
	box.appendChild(ol);
}
function drawTimeline() {
	if (LAB) return drawStatements();
	const box = $('timeline');
	box.textContent = '';
	const c = TL.cpus[view.cpu];
	if (!c) return;
	box.appendChild(chart('cascade moves: most in one tick, per ' + TL.width + ' jiffies (CPU ' + view.cpu + ')', [{values: c.max_moves, color: '#e08a1e'}], 'bars'));
	const pend = [];
	c.pending.forEach((vals, l) => { if (l > 0 && vals.some((v) => v)) pend.push({name: D.levels[l - 1], values: vals, color: COLORS[(l - 1) % COLORS.length]}); });
	if (!pend.length) pend.push({name: 'all', values: c.pending[0], color: COLORS[0]});
	box.appendChild(chart('pending timers per level', pend, 'lines'));
	box.appendChild(chart('expiries', [{values: c.expired, color: '#2f9e58'}], 'bars'));
	box.appendChild(chart('fidelity misses (early, late, unmatched recorded expiries)', [{values: c.misses, color: '#b23a48'}], 'bars'));
	const tc = timeChart(view.cpu);
	if (tc) box.appendChild(tc);
	const axis = sv('svg', {width: CW, height: 16});
	const s0 = TL.seconds[0], s1 = TL.seconds[TL.seconds.length - 1];
	for (let k = 0; k < 6; k++) {
		const s = s0 + (s1 - s0) * k / 6;
		axis.appendChild(sv('text', {x: xOf(s), y: 12, class: 'axis', 'text-anchor': 'middle'})).textContent = s.toFixed(2);
	}
	axis.appendChild(sv('text', {x: CW - 4, y: 12, class: 'axis', 'text-anchor': 'end'})).textContent = 'trace seconds';
	box.appendChild(axis);
	box.appendChild(el('div', {class: 'note', id: 'timeline-note'}, 'Click the timeline to jump the wheel there; the shaded band is the animated window.'));
}
function moveCursor() {
	if (LAB) {
		for (const li of document.querySelectorAll('#statements li'))
			li.className = Number(li.getAttribute('data-frame')) === view.frame ? 'cur' : '';
		// Scroll the list, not the page: a linked frame opens with the wheel in view.
		const cur = document.querySelector('#statements li.cur'), ol = $('statements');
		if (cur && (cur.offsetTop < ol.scrollTop || cur.offsetTop + cur.offsetHeight > ol.scrollTop + ol.clientHeight))
			ol.scrollTop = Math.max(0, cur.offsetTop - ol.clientHeight / 2);
		return;
	}
	const f = frames[view.cpu][view.frame];
	const x = f ? xOf(f.seconds) : -10;
	for (const l of document.querySelectorAll('#timeline .cursor')) { l.setAttribute('x1', x); l.setAttribute('x2', x); }
}
function jumpTo(sec) {
	const fs = frames[view.cpu];
	const note = $('timeline-note');
	if (!fs.length || sec < fs[0].seconds - 1e-6 || sec > fs[fs.length - 1].seconds + 1e-6) {
		const j = Math.round(TL.first + (sec - TL.seconds[0]) * D.hz);
		note.textContent = 'Second ' + sec.toFixed(3) + ' (about jiffy ' + j + ') is outside the animated window ' +
			W.from + '..' + W.to + '; to see it: timersim view TRACE --from ' + (j - 100) + ' --to ' + (j + 100) + ' -o view.html';
		return;
	}
	let best = 0;
	fs.forEach((f, i) => { if (Math.abs(f.seconds - sec) < Math.abs(fs[best].seconds - sec)) best = i; });
	note.textContent = '';
	goTo(view.cpu, best);
}

// ---- what the timer code cost: the report's time table (ms) and its seconds ---------------------
const TIME = (!LAB && D.report && D.report.time) || null;
const msOf = (ns) => (ns / 1e6).toFixed(3);
// A cell as the text report prints it: measured plain, modelled ~ with its
// interval on a line of its own (a narrow column).
function timeCell(c) {
	if (!c) return '-';
	return c.modelled ? '~' + msOf(c.ns) + '\n(' + msOf(c.low_ns) + '..' + msOf(c.high_ns) + ')' : msOf(c.ns);
}
// The CPU's seconds: measured ms as bars, modelled as a line with its
// interval as a band, on the timeline's time axis.
function timeChart(cpu) {
	const rows = TIME && TIME.per_second ? TIME.per_second.filter((r) => r.cpu === cpu) : [];
	if (!rows.length) return null;
	const svg = sv('svg', {width: CW, height: CH + 16, id: 'time-chart'});
	svg.appendChild(sv('text', {x: PAD, y: 11, class: 'chart-title'})).textContent =
		'timer time per second, ms (CPU ' + cpu + '): bars measured, line modelled, band its interval';
	let max = 0;
	for (const r of rows) max = Math.max(max, r.measured_ns || 0, r.modelled_high_ns || 0);
	max = Math.max(max, 1);
	const y = (v) => 14 + CH - 4 - (CH - 8) * v / max;
	svg.appendChild(sv('text', {x: PAD - 4, y: 20, class: 'axis', 'text-anchor': 'end'})).textContent = msOf(max);
	svg.appendChild(sv('text', {x: PAD - 4, y: CH + 10, class: 'axis', 'text-anchor': 'end'})).textContent = '0';
	const band = [], line = [];
	for (const r of rows) {
		const x0 = xOf(r.seconds), x1 = xOf(r.seconds + 1);
		if (r.measured_ns > 0)
			svg.appendChild(sv('rect', {x: x0, y: y(r.measured_ns), width: Math.max(1, x1 - x0 - 1), height: y(0) - y(r.measured_ns),
				fill: '#3a64b5', 'data-second': r.second, 'data-measured-ms': msOf(r.measured_ns)}));
		if (r.modelled_ns !== null) {
			const xm = ((x0 + x1) / 2).toFixed(1);
			line.push(xm + ',' + y(r.modelled_ns).toFixed(1));
			band.push([xm, y(r.modelled_low_ns).toFixed(1), y(r.modelled_high_ns).toFixed(1)]);
		}
	}
	if (band.length) {
		const pts = band.map((b) => b[0] + ',' + b[2]).concat(band.slice().reverse().map((b) => b[0] + ',' + b[1]));
		svg.appendChild(sv('polygon', {points: pts.join(' '), fill: '#e08a1e', 'fill-opacity': 0.25, stroke: 'none'}));
		svg.appendChild(sv('polyline', {points: line.join(' '), fill: 'none', stroke: '#e08a1e', 'stroke-width': 1.5}));
	}
	const cur = sv('line', {class: 'cursor', x1: 0, x2: 0, y1: 14, y2: CH + 10, stroke: '#c0392b', 'stroke-width': 1.5});
	svg.appendChild(cur);
	svg.addEventListener('click', (ev) => jumpTo(secOf(ev.offsetX)));
	return svg;
}
// The callback table, full width under the wheel (its intervals need room).
function drawTime() {
	const box = $('time-ns');
	if (!box) return;
	if (!TIME || !TIME.callbacks.length) return;
	const top = 20;
	table('what the timer code cost, ms, per callback, most first (plain: measured; ~: modelled, its interval beneath)',
		['callback', 'total ms', 'process ms', 'softirq ms', 'callbacks ms', 'interrupts ms', 'starts', 'cancels', 'expiries', 'wakeups'],
		TIME.callbacks.slice(0, top).map((r) => [r.function + (r.hrtimer ? ' (hr)' : ''), timeCell(r.total), timeCell(r.process),
			timeCell(r.softirq), timeCell(r.callbacks), timeCell(r.interrupts), r.starts, r.cancels, r.expiries, r.wakeups]), box);
	box.appendChild(el('p', {class: 'note'}, (TIME.callbacks.length > top ? (TIME.callbacks.length - top) + ' more rows in the JSON report. ' : '') +
		'process: starts and cancels, each priced as ' + TIME.start_price_from + '; softirq: the scheme\'s expiries, wakeups and cascades by the cost model ' +
		'(an hrtimer callback\'s: its share of the measured HRTIMER softirq overhead); callbacks: their own time; interrupts: the timer interrupts each caused, ' +
		'less the callbacks run in them. Per second: the chart under the timeline.'));
	if (TIME.cpus.length)
		table('per CPU, measured, ms', ['CPU', 'total', 'TIMER softirq', 'HRTIMER softirq', 'callbacks', 'interrupts'],
			TIME.cpus.map((c) => ['CPU ' + c.cpu, timeCell(c.total), timeCell(c.timer_softirq), timeCell(c.hrtimer_softirq),
				timeCell(c.callbacks), timeCell(c.interrupts)]), box);
}

// ---- the report's tables -------------------------------------------------------------------
function table(title, head, rows, into) {
	const box = into || $('report');
	box.appendChild(el('h3', {}, title));
	const t = el('table');
	const tr = el('tr');
	for (const h of head) tr.appendChild(el('th', {}, h));
	t.appendChild(tr);
	for (const r of rows) {
		const row = el('tr');
		for (const v of r) row.appendChild(el('td', {}, String(v)));
		t.appendChild(row);
	}
	box.appendChild(t);
}
function drawReport() {
	$('report').textContent = '';
	if (LAB) {
		const S = LAB.setup;
		table('scenario', ['', ''], [['file', D.trace], ['scheme', S.scheme], ['HZ', S.hz], ['word bits', S.word_bits],
			['geometry', S.base_small ? 'CONFIG_BASE_SMALL' : 'normal'], ['slot order', S.scheme === 'classic' ? S.order : '(a classic setting)'], ['start', S.start],
			['statements', LAB.statements.length]]);
		$('report').appendChild(el('p', {class: 'note'}, LAB.wheel));
		return;
	}
	const R = D.report;
	const inp = R.input;
	$('time').textContent = '';
	$('time').appendChild(el('div', {id: 'time-ns'}));
	$('time').appendChild(el('div', {id: 'time-work'}));
	table('input', ['', ''], [['trace', inp.path], ['format', inp.format], ['events', inp.events], ['CPUs', inp.cpus],
		['HZ', inp.hz], ['jiffies', inp.first_jiffies + ' .. ' + inp.last_jiffies], ['kernel', inp.kernel],
		['scheme', R.scheme.name]]);
	table('timers', ['started', 're-armed', 'canceled', 'expired', 'pending at end'],
		[[R.timers.started, R.timers.rearmed, R.timers.canceled, R.timers.expired, R.timers.pending_at_end]]);
	const lv = R.enqueue.levels.map((e) => {
		const c = R.cascade.levels.find((x) => x.level === e.level);
		return [e.level, e.count, c ? c.calls : '-', c ? c.moved : '-'];
	});
	table('enqueues and cascades by level', ['level', 'enqueued', 'cascades', 'moved out'], lv);
	const C = R.cascade;
	table('cascade moves', ['', ''], [['moved', C.moved_total], ['moved, then canceled', C.moved_then_canceled],
		['moved, then re-armed', C.moved_then_rearmed], ['worst tick', C.max_moved_in_one_tick ? C.max_moved_in_one_tick + ' at jiffy ' + C.max_moved_jiffy + ' on CPU ' + C.max_moved_cpu : '-']]);
	table('moves per tick', ['moves', 'ticks'], C.moves_per_tick.map((b) => [b.low === b.high ? b.low : b.low + '-' + b.high, b.ticks]));
	const F = R.fidelity;
	table('fidelity', ['compared', 'exact', 'early', 'late', 'unmatched', 'sim. only'],
		[[F.compared, F.exact, F.early, F.late, F.unmatched, F.simulated_only]]);
	table('lateness (jiffies after the requested expiry)', ['jiffies', 'expiries'],
		R.lateness.buckets.map((b) => [b.low === b.high ? b.low : b.low + '-' + b.high, b.expiries]));
	// Nine columns: full width, beside the time table (drawTime), not in the aside.
	table('top callbacks by work (cost units)', ['function', 'work', 'process', 'softirq', 'expired', 'wakeups', 'moved', 'started', 'canceled'],
		R.functions.slice(0, 12).map((f) => [f.function, f.work_units, f.process_units, f.softirq_units, f.expired, f.wakeups, f.moved, f.started, f.canceled]),
		$('time-work'));
	const Wk = R.work;
	table('work by context (cost units)', ['', 'process', 'softirq'], [['units', Wk.process.units, Wk.softirq.units],
		['insertions', Wk.process.insertions, Wk.softirq.insertions], ['removals', Wk.process.removals, Wk.softirq.removals],
		['relinks', Wk.process.relinks, Wk.softirq.relinks], ['slot visits', Wk.process.slot_visits, Wk.softirq.slot_visits],
		['key comparisons', Wk.process.key_comparisons, Wk.softirq.key_comparisons]]);
	const K = R.costs;
	table('costs', ['unit', 'count'], [['insertions', K.insertions], ['removals', K.removals], ['relinks', K.relinks],
		['slot visits', K.slot_visits], ['key comparisons', K.key_comparisons], ['peak bytes', K.peak_scheme_bytes]]);
}

// ---- frame numbers and links ------------------------------------------------------------------
// One numbering everywhere: the frame-info line, the statement list, the
// slider and the link. Frame 0 is the wheel before anything ran; frame k
// the wheel after step k (a scenario's statement k, a trace window's k-th
// tick of the CPU).
function numbering() {
	const link = 'link to this frame: #' + hashOf(view.cpu, view.frame);
	return LAB ? 'Frame k is the wheel after statement k (the list\'s number k); frame 0, before the first. ' + link
		: 'Frame k is the wheel after CPU ' + view.cpu + '\'s k-th tick in the window; frame 0, before its first. ' + link;
}
function hashOf(cpu, k) { return (D.cpus > 1 ? 'cpu=' + cpu + '&' : '') + 'frame=' + k; }
// #frame=N, or #cpu=C&frame=N: null when the link names no frame.
function hashFrame() {
	const q = new URLSearchParams(location.hash.slice(1));
	const k = q.get('frame'), c = q.get('cpu');
	if (k === null || !/^[0-9]+$/.test(k)) return null;
	const cpu = c !== null && /^[0-9]+$/.test(c) && Number(c) < D.cpus && frames[Number(c)].length ? Number(c) : view.cpu;
	return {cpu, frame: Number(k)};
}
// The address names the frame shown, without a history entry per step.
function writeHash() {
	const h = '#' + hashOf(view.cpu, view.frame);
	if (location.hash === h) return;
	try { history.replaceState(null, '', h); } catch (e) { /* a browser that refuses it on file:// */ }
}

// ---- controls ------------------------------------------------------------------------------
function goTo(cpu, k) {
	if (cpu !== view.cpu) { view.cpu = cpu; view.selected = null; buildWheel(); drawTimeline(); $('cpu').value = cpu; }
	const fs = frames[cpu];
	if (!fs.length) { view.frame = 0; view.changes = []; render(); return; }
	view.frame = Math.max(0, Math.min(k, fs.length - 1));
	view.changes = seek(cpu, view.frame);
	render();
}
function step(n) { goTo(view.cpu, view.frame + n); }
function render() {
	const fs = frames[view.cpu];
	const f = fs[view.frame];
	const info = $('frame-info');
	if (f) {
		let pending = 0;
		for (const b of slots[view.cpu]) for (const l of b) for (const s of l) pending += s.length;
		if (LAB) info.textContent = 'frame ' + view.frame + ' of ' + (fs.length - 1) + ' · ' +
			(view.frame ? 'after ' + f.label : 'before the first statement') + ' · now ' + f.jiffy + ' · ' + pending + ' pending' +
			(W.truncated ? ' · page truncated: ' + LAB.statements.length + ' of ' + LAB.statements_total + ' statements' : '');
		else info.textContent = 'CPU ' + view.cpu + ' · frame ' + view.frame + ' of ' + (fs.length - 1) + ' · ' +
			(view.frame ? 'after the tick at jiffy ' + fs[view.frame - 1].jiffy + ', before jiffy ' : 'before the window\'s first tick, jiffy ') +
			f.jiffy + ' (' + fmt(f.seconds) + ') · ' + pending + ' pending' + (W.truncated ? ' · window truncated' : '');
		writeHash();
		info.setAttribute('data-frame', view.frame);
		info.setAttribute('data-jiffy', f.jiffy);
	} else {
		info.textContent = 'CPU ' + view.cpu + ': no tick in the window ' + W.from + '..' + W.to;
		info.setAttribute('data-frame', -1);
	}
	info.setAttribute('data-cpu', view.cpu);
	const slider = $('frame-slider');
	if (slider) { slider.max = Math.max(0, fs.length - 1); slider.value = view.frame; }
	$('numbering').textContent = numbering();
	drawCells();
	drawSlotPanel();
	drawChanges();
	moveCursor();
}
function play(on) {
	view.playing = on;
	$('play').textContent = on ? 'pause' : 'play';
	clearInterval(view.timer);
	if (on) view.timer = setInterval(() => {
		if (view.frame + 1 >= frames[view.cpu].length) return play(false);
		step(1);
	}, 1000 / Number($('speed').value));
}
// The frame right after the worst tick ran, so that its cascade shows.
function worstFrame() {
	if (D.worst.frame !== undefined) return D.worst.frame;
	const fs = frames[D.worst.cpu];
	const k = fs.findIndex((f) => f.jiffy > D.worst.jiffy);
	return k < 0 ? Math.max(0, fs.length - 1) : k;
}
function buildControls() {
	const c = $('controls');
	const btn = (id, text, fn) => { const b = el('button', {id}, text); b.addEventListener('click', fn); c.appendChild(b); };
	const cpuSel = el('select', {id: 'cpu'});
	for (let i = 0; i < D.cpus; i++) cpuSel.appendChild(el('option', {value: i}, 'CPU ' + i + (frames[i].length ? '' : ' (no tick in window)')));
	cpuSel.value = view.cpu;
	cpuSel.addEventListener('change', () => goTo(Number(cpuSel.value), 0));
	c.appendChild(cpuSel);
	btn('worst', LAB ? 'busiest step' : 'busiest tick', () => { cpuSel.value = D.worst.cpu; goTo(D.worst.cpu, worstFrame()); });
	btn('back', '◀ step', () => step(-1));
	btn('play', 'play', () => play(!view.playing));
	btn('forward', 'step ▶', () => step(1));
	const speed = el('select', {id: 'speed', title: 'frames per second'});
	for (const s of [1, 2, 4, 8, 15, 30, 60]) speed.appendChild(el('option', {value: s}, s + ' fps'));
	speed.value = 4;
	speed.addEventListener('change', () => { if (view.playing) play(true); });
	c.appendChild(speed);
	const slider = el('input', {id: 'frame-slider', type: 'range', min: 0, max: 0, value: 0});
	slider.addEventListener('input', () => goTo(view.cpu, Number(slider.value)));
	c.appendChild(slider);
	if (LAB) c.appendChild(el('span', {}, LAB.statements.length + ' statements, jiffies ' + W.from + '..' + W.to +
		' · busiest step: frame ' + D.worst.frame + ', ' + D.worst.moves + ' moved, ' + D.worst.expired + ' expired'));
	else c.appendChild(el('span', {}, 'window jiffies ' + W.from + '..' + W.to + ' · busiest tick: ' + D.worst.units +
		' units of softirq work, ' + D.worst.moves + ' moves, ' + D.worst.expired + ' expiries at jiffy ' + D.worst.jiffy + ' on CPU ' + D.worst.cpu + ' (' + fmt(D.worst.seconds) + ')'));
	document.addEventListener('keydown', (ev) => {
		if (ev.key === 'ArrowRight') step(1);
		else if (ev.key === 'ArrowLeft') step(-1);
		else if (ev.key === ' ') { play(!view.playing); ev.preventDefault(); }
	});
}

fresh();
buildControls();
buildWheel();
drawTimeline();
drawReport();
drawTime();
// A link's frame (#frame=N), else a scenario opens at its first statement's
// effect, a trace after its worst tick; frame 0 (nothing done yet) is a
// step back.
const firstStep = Math.min(1, Math.max(0, frames[view.cpu].length - 1));
const linked = hashFrame();
if (linked) goTo(linked.cpu, linked.frame);
else goTo(view.cpu, LAB || view.cpu !== D.worst.cpu ? firstStep : Math.max(firstStep, worstFrame()));
window.addEventListener('hashchange', () => { const h = hashFrame(); if (h) goTo(h.cpu, h.frame); });

// The handle tests step the page with; shown() reads the page, not the model
// (cells with a slot: the legend's samples have none).
window.timersimView = {
	frames: (cpu) => frames[cpu].length,
	goTo, step,
	worst: () => document.getElementById('worst').click(),
	info: () => {
		const i = $('frame-info');
		return {cpu: Number(i.getAttribute('data-cpu')), frame: Number(i.getAttribute('data-frame')),
			jiffy: Number(i.getAttribute('data-jiffy'))};
	},
	shown: () => Array.from(document.querySelectorAll('#wheel .cell[data-slot]')).filter((c) => c.getAttribute('data-timers'))
		.map((c) => ({base: Number(c.getAttribute('data-base')), level: c.getAttribute('data-level'),
			slot: Number(c.getAttribute('data-slot')), timers: c.getAttribute('data-timers').split(' ').map(Number),
			names: c.getAttribute('data-timers').split(' ').map((id) => tname(Number(id)))})),
	indexes: () => Array.from(document.querySelectorAll('#wheel .cell.idx[data-slot]')).map((c) =>
		({base: Number(c.getAttribute('data-base')), level: c.getAttribute('data-level'), slot: Number(c.getAttribute('data-slot'))})),
};
})();
)js";

}  // namespace timersim
