// The view page's hrtimer lane (sim/view/view_hrlane.h), a script of its
// own after the page's: per CPU on the window's time axis, the recorded
// timer interrupts coloured by cause, the hrtimer expiries under them (the
// tick's grey), the hrtimer model's interrupts above (filled: its device had
// come due), and a cursor at the frame the wheel shows. A click on an
// interrupt says why the CPU woke. It reads the page's data and the frame
// the main script shows (#frame-info's data-cpu and data-frame), nothing
// else of it.
#include "sim/view/view_page.h"

namespace timersim {

const char view_hrlane_script[] = R"js(
(function () {
'use strict';
const D = JSON.parse(document.getElementById('timersim-data').textContent);
const H = D.hrtimers;
if (!H) return;
const W = D.window;
const SVG = 'http://www.w3.org/2000/svg';
const sv = (tag, attrs, title) => {
	const e = document.createElementNS(SVG, tag);
	for (const k in attrs) e.setAttribute(k, attrs[k]);
	if (title) { const t = document.createElementNS(SVG, 'title'); t.textContent = title; e.appendChild(t); }
	return e;
};
const names = H.names;
const COLOURS = {wheel: '#1f77b4', tick: '#999999', hrtimer: '#ff7f0e', none: '#d62728'};
const MODEL = ['not run', 'predicted it', 'did not predict it'];
const us = (ns) => (ns / 1e3).toFixed(3) + ' us';
const sec = (ns) => (ns / 1e9).toFixed(6) + ' s';

// The window's span in ns: its first jiffy to the end of its last.
const t0 = Math.round(W.from_seconds * 1e9);
const t1 = Math.round((W.to_seconds + 1 / D.hz) * 1e9);
const LEFT = 60, WIDTH = 1000, ROW = 46;
const x = (ns) => LEFT + (WIDTH - LEFT - 10) * Math.min(1, Math.max(0, (ns - t0) / Math.max(1, t1 - t0)));

const lane = document.createElement('div');
lane.id = 'hrlane';
lane.setAttribute('data-interrupts', H.interrupts.length);
lane.setAttribute('data-expiries', H.expiries.length);
lane.setAttribute('data-model', H.model.length);
const head = document.createElement('h3');
head.textContent = 'hrtimers and timer interrupts in the window' + (H.truncated ? ' (truncated)' : '');
lane.appendChild(head);
const legend = document.createElement('div');
legend.className = 'hrlane-legend';
legend.textContent = 'interrupts by cause: ';
for (const c of ['wheel', 'tick', 'hrtimer', 'none']) {
	const s = document.createElement('span');
	s.textContent = '\u25a0 ' + (c === 'wheel' ? 'the tick, for a wheel timer' : c === 'tick' ? 'the tick alone' :
		c === 'hrtimer' ? 'another hrtimer' : 'no callback') + '  ';
	s.style.color = COLOURS[c];
	legend.appendChild(s);
}
legend.appendChild(document.createTextNode('\u00b7 below: the hrtimers run (grey: the tick) \u00b7 above: the model\u2019s interrupts (filled: due)'));
lane.appendChild(legend);

const svg = sv('svg', {viewBox: '0 0 ' + WIDTH + ' ' + (ROW * D.cpus + 24), width: '100%', 'font-size': '11'});
for (let c = 0; c < D.cpus; c++) {
	const y = ROW * c;
	svg.appendChild(sv('text', {x: 4, y: y + 26}, null)).textContent = 'CPU ' + c;
	svg.appendChild(sv('line', {x1: LEFT, x2: WIDTH - 10, y1: y + 22, y2: y + 22, stroke: '#e0e0e0'}));
}
for (const m of H.model) {
	const [cpu, ns, due, recorded] = m;
	svg.appendChild(sv('circle', {cx: x(ns), cy: ROW * cpu + 5, r: 2.5, fill: due ? '#2ca02c' : 'none',
		stroke: due ? '#2ca02c' : '#d62728', class: 'hr-model'},
		'model interrupt at ' + sec(ns) + (recorded ? ' (at a recorded one)' : ' (of its own)') + (due ? '' : ', not due')));
}
const info = document.createElement('div');
info.id = 'hrlane-info';
info.textContent = 'click an interrupt: why did the CPU wake then';
H.interrupts.forEach((i, k) => {
	const [cpu, entry, exit, cause, wokeFor, first, expiries, model] = i;
	const why = 'CPU ' + cpu + ' \u00b7 interrupt at ' + sec(entry) + ', ' + us(exit - entry) + ' \u00b7 cause ' + cause +
		(names[wokeFor] ? ': ' + names[wokeFor] : '') + (names[first] ? ' \u00b7 first ' + names[first] + ' (' + expiries +
		(expiries === 1 ? ' hrtimer)' : ' hrtimers)') : '') + ' \u00b7 the model ' + MODEL[model];
	const r = sv('rect', {x: x(entry), y: ROW * cpu + 12, width: Math.max(2, x(exit) - x(entry)), height: 20,
		fill: COLOURS[cause] || '#000', class: 'hr-irq', 'data-index': k}, why);
	r.style.cursor = 'pointer';
	r.addEventListener('click', () => { info.textContent = why; });
	svg.appendChild(r);
});
for (const e of H.expiries) {
	const [cpu, entry, exit, name, tick] = e;
	svg.appendChild(sv('rect', {x: x(entry), y: ROW * cpu + 34, width: Math.max(1.5, x(exit) - x(entry)), height: 8,
		fill: tick ? '#999999' : '#ff7f0e', class: 'hr-expiry'}, names[name] + ' at ' + sec(entry) + ', ' + us(exit - entry)));
}
// The axis: five labels in trace seconds.
const axisY = ROW * D.cpus + 14;
for (let k = 0; k <= 4; k++) {
	const ns = t0 + (t1 - t0) * k / 4;
	svg.appendChild(sv('text', {x: x(ns), y: axisY, 'text-anchor': k === 0 ? 'start' : k === 4 ? 'end' : 'middle',
		fill: '#555'})).textContent = sec(ns);
}
const cursor = sv('line', {y1: 0, y2: ROW * D.cpus, stroke: '#000', 'stroke-dasharray': '3,2', id: 'hrlane-cursor'});
svg.appendChild(cursor);
lane.appendChild(svg);
lane.appendChild(info);
const timeline = document.getElementById('timeline');
timeline.parentNode.insertBefore(lane, timeline);
// As wide as the timeline's charts under it.
const chart = timeline.querySelector('svg');
if (chart && chart.getBoundingClientRect().width) lane.style.maxWidth = chart.getBoundingClientRect().width + 'px';

// The cursor follows the frame the wheel shows.
const frameSeconds = [];
for (let c = 0; c < D.cpus; c++) frameSeconds.push([]);
for (const e of W.events || []) if (e[0] === 'F') frameSeconds[e[1]].push(e[3]);
const frameInfo = document.getElementById('frame-info');
const follow = () => {
	const cpu = Number(frameInfo.getAttribute('data-cpu')), k = Number(frameInfo.getAttribute('data-frame'));
	const s = (frameSeconds[cpu] || [])[k];
	cursor.setAttribute('visibility', s === undefined ? 'hidden' : 'visible');
	if (s !== undefined) { cursor.setAttribute('x1', x(s * 1e9)); cursor.setAttribute('x2', x(s * 1e9)); }
};
new MutationObserver(follow).observe(frameInfo, {attributes: true});
follow();
})();
)js";

}  // namespace timersim
