// The browser lab's page script (tools/web/index.html). Every question,
// answer, grade and wheel picture comes from the lab's C++ compiled to
// WebAssembly (tools/web/lab_api.cc: the functions `timersim lab`, `lab
// check`, `step` and `view` call); this script only lays them out.
// window.timersimLab is the handle the browser test drives the page with.
(function () {
'use strict';
const $ = (id) => document.getElementById(id);
let lab = null;		// the wasm module
let current = null;	// the exercise shown: {kind, id, hz, wordBits, baseSmall, key}
let handed = null;	// the questions file opened: {text, name, questions, student}

function call(fn, ...args) {
	const r = JSON.parse(lab[fn](...args));
	if (r.error) throw new Error(r.error);
	return r;
}
function status(text) { $('status').textContent = text; }

// ---- tabs -------------------------------------------------------------------
const tabs = ['exercise', 'questions', 'handbook'];
function showTab(name) {
	for (const t of tabs) {
		$('tab-' + t).setAttribute('aria-selected', String(t === name));
		$(t).hidden = t !== name;
	}
}
tabs.forEach((t, i) => {
	const b = $('tab-' + t);
	b.addEventListener('click', () => showTab(t));
	b.addEventListener('keydown', (ev) => {
		const d = ev.key === 'ArrowRight' ? 1 : ev.key === 'ArrowLeft' ? -1 : 0;
		if (!d) return;
		const next = tabs[(i + d + tabs.length) % tabs.length];
		showTab(next);
		$('tab-' + next).focus();
	});
});

// ---- the address: #kind=place&seed=7[&hz=..&word-bits=..&base-small=1][&frame=N]
function readHash() {
	const q = new URLSearchParams(location.hash.slice(1));
	if (!q.get('kind')) return null;
	return {kind: q.get('kind'), id: q.get('seed') || '0', hz: Number(q.get('hz') || 250),
		wordBits: Number(q.get('word-bits') || 64), baseSmall: q.get('base-small') === '1',
		frame: q.has('frame') && /^[0-9]+$/.test(q.get('frame')) ? Number(q.get('frame')) : null};
}
function hashOf(e, frame) {
	let h = '#kind=' + encodeURIComponent(e.kind) + '&seed=' + encodeURIComponent(e.id);
	if (e.hz !== 250) h += '&hz=' + e.hz;
	if (e.wordBits !== 64) h += '&word-bits=' + e.wordBits;
	if (e.baseSmall) h += '&base-small=1';
	if (frame !== null && frame !== undefined) h += '&frame=' + frame;
	return h;
}
function writeHash(h) {
	if (location.hash === h) return;
	try { history.replaceState(null, '', h); } catch (e) { location.hash = h; }
}

// ---- one exercise -----------------------------------------------------------
function openExercise(e) {
	const ex = call('exercise', e.kind, e.id, e.hz, e.wordBits, e.baseSmall);
	current = Object.assign({}, e, {key: ex.key, hr: ex.hr});
	$('kind').value = e.kind;
	$('seed').value = e.id;
	$('hz').value = String(e.hz);
	$('word-bits').value = String(e.wordBits);
	$('base-small').checked = e.baseSmall;
	$('question-key').textContent = ex.key;
	$('question').textContent = ex.question;
	$('answer-form').textContent = ex.answer_form;
	$('answer').value = '';
	$('verdict').textContent = '';
	$('question-box').hidden = false;
	$('steps').hidden = true;
	$('view').removeAttribute('srcdoc');
	writeHash(hashOf(current, null));
	showTab('exercise');
}

function pickedExercise() {
	return {kind: $('kind').value, id: $('seed').value.trim(), hz: Number($('hz').value),
		wordBits: Number($('word-bits').value), baseSmall: $('base-small').checked};
}

function el(tag, cls, text) {
	const e = document.createElement(tag);
	if (cls) e.className = cls;
	if (text !== undefined) e.textContent = text;
	return e;
}

// The answer line `lab check` grades, graded by its code.
function checkAnswer() {
	const given = $('answer').value.trim();
	const v = $('verdict');
	v.textContent = '';
	if (!given) { v.appendChild(el('p', 'wrong', 'write an answer first')); return; }
	const line = current.key + ' = ' + given.replace(/[\r\n#]/g, ' ');
	let r;
	try { r = call('check', line + '\n', 'text'); } catch (err) { v.appendChild(el('p', 'wrong', err.message)); return; }
	const g = r.lines[0];
	if (g.problem) v.appendChild(el('p', 'wrong', 'not an answer: ' + g.problem));
	else if (g.right) v.appendChild(el('p', 'right', 'right'));
	else {
		v.appendChild(el('p', 'wrong', 'wrong'));
		v.appendChild(el('p', '', 'you gave: ' + g.given));
		v.appendChild(el('p', '', 'expected: ' + g.expected));
	}
	if (!g.problem) {
		v.appendChild(el('h3', '', 'working'));
		v.appendChild(el('pre', 'working', g.working.join('\n')));
	}
	v.appendChild(el('p', 'same', 'graded as `timersim lab check` grades the line: ' + line));
	v.setAttribute('data-right', g.right ? '1' : '0');
}

// ---- stepping the exercise's scenario ---------------------------------------
function viewHandle() {
	const w = $('view').contentWindow;
	return w && w.timersimView ? w.timersimView : null;
}
function showSteps(frame) {
	const s = call('steps', current.kind, current.id, current.hz, current.wordBits, current.baseSmall);
	$('steps').hidden = false;
	if (s.text !== undefined) {
		$('view').hidden = true;
		$('steps-text').hidden = false;
		$('steps-text').textContent = s.text;
		$('steps-note').textContent = 'hrtimers have no wheel to draw: each statement and what the hrtimer base did (timersim step --explain).';
		return;
	}
	$('view').hidden = false;
	$('steps-text').hidden = true;
	$('steps-note').textContent = 'The wheel after each statement (timersim view of the scenario): ◀ ▶ or the arrow keys inside the picture step it; the address links the frame shown.';
	const iframe = $('view');
	iframe.onload = () => {
		const v = viewHandle();
		if (!v) return;
		if (frame !== null && frame !== undefined) v.goTo(0, frame);
		followFrames();
	};
	iframe.srcdoc = s.html;
}
// The view's frame in this page's address, so a link opens at it.
function followFrames() {
	const doc = $('view').contentDocument;
	const info = doc && doc.getElementById('frame-info');
	if (!info) return;
	const write = () => writeHash(hashOf(current, Number(info.getAttribute('data-frame'))));
	write();
	new MutationObserver(write).observe(info, {attributes: true, attributeFilter: ['data-frame']});
}

// ---- a questions file --------------------------------------------------------
function openQuestions(text, name) {
	const r = call('handedQuestions', text);
	const m = /^# timersim lab: .* for (\S+) \(a private variant/m.exec(text);
	handed = {text, name, questions: r.questions, student: m ? m[1] : ''};
	const list = $('question-list');
	list.textContent = '';
	r.questions.forEach((q, i) => {
		const li = el('li');
		li.appendChild(el('h2', '', q.key));
		li.appendChild(el('pre', '', q.question));
		li.appendChild(el('p', '', 'Answer as: ' + q.answer_form));
		const input = el('input');
		input.id = 'handed-' + i;
		input.value = q.answer;
		input.setAttribute('aria-label', 'answer to ' + q.key);
		input.spellcheck = false;
		li.appendChild(input);
		list.appendChild(li);
	});
	$('questions-note').textContent = r.questions.length + ' questions from ' + name +
		(handed.student ? ' for ' + handed.student + ': a private variant, graded by your instructor (this page has no key)'
				: ': the public seeds, checked here as `timersim lab check` does');
	$('questions-actions').hidden = false;
	$('grade-all').hidden = !!handed.student;
	$('questions-grades').textContent = '';
	showTab('questions');
}
// The file as handed out, each answer line filled in after its '='.
function answeredText() {
	const answers = new Map(handed.questions.map((q, i) => [q.key, $('handed-' + i).value.replace(/[\r\n#]/g, ' ').trim()]));
	const eol = handed.text.includes('\r\n') ? '\r\n' : '\n';
	return handed.text.split(/\r?\n/).map((line) => {
		if (line.startsWith('#')) return line;
		const at = line.indexOf(' =');
		const key = at < 0 ? '' : line.slice(0, at);
		return answers.has(key) ? key + ' =' + (answers.get(key) ? ' ' + answers.get(key) : '') : line;
	}).join(eol);
}
function saveAnswers() {
	const blob = new Blob([answeredText()], {type: 'text/plain'});
	const a = document.createElement('a');
	a.href = URL.createObjectURL(blob);
	a.download = handed.name.replace(/(\.txt)?$/, '').replace(/-questions$/, '') + '-answers.txt';
	document.body.appendChild(a);
	a.click();
	a.remove();
}
function gradeAll() {
	try { $('questions-grades').textContent = call('check', answeredText(), 'text').text; }
	catch (err) { $('questions-grades').textContent = err.message; }
}

// ---- the handbook -------------------------------------------------------------
const handbook = JSON.parse($('handbook-data').textContent);
function inline(text, parent) {
	// `code`, **bold**, [text](link): a link to another page of the handbook opens it.
	// An image (![alt](file)) is a file beside the handbook, not in the page: its alt text stands.
	const re = /(`[^`]+`)|(\*\*[^*]+\*\*)|(!?\[[^\]]+\]\([^)]+\))/g;
	let last = 0, m;
	while ((m = re.exec(text))) {
		parent.appendChild(document.createTextNode(text.slice(last, m.index)));
		if (m[1]) parent.appendChild(el('code', '', m[1].slice(1, -1)));
		else if (m[2]) parent.appendChild(el('strong', '', m[2].slice(2, -2)));
		else if (m[3].startsWith('!')) parent.appendChild(el('em', '', '(picture: ' + /^!\[([^\]]*)\]/.exec(m[3])[1] + ')'));
		else {
			const [, label, href] = /^\[([^\]]+)\]\(([^)]+)\)$/.exec(m[3]);
			const page = handbook.find((p) => p.name === href.split('#')[0].replace(/^\.\//, ''));
			const a = el('a', '', label);
			if (page) { a.href = '#handbook=' + page.name; a.addEventListener('click', (ev) => { ev.preventDefault(); showPage(page.name); }); }
			else a.href = href;
			parent.appendChild(a);
		}
		last = re.lastIndex;
	}
	parent.appendChild(document.createTextNode(text.slice(last)));
}
function render(md, into) {
	into.textContent = '';
	const lines = md.split('\n');
	for (let i = 0; i < lines.length;) {
		const line = lines[i];
		if (line.startsWith('```')) {
			const body = [];
			for (i++; i < lines.length && !lines[i].startsWith('```'); i++) body.push(lines[i]);
			i++;
			into.appendChild(el('pre', '', body.join('\n')));
		} else if (/^    /.test(line)) {
			const body = [];
			for (; i < lines.length && (/^    /.test(lines[i]) || (lines[i] === '' && /^    /.test(lines[i + 1] || ''))); i++) body.push(lines[i].slice(4));
			into.appendChild(el('pre', '', body.join('\n')));
		} else if (/^#{1,4} /.test(line)) {
			const n = line.indexOf(' ');
			const h = el('h' + Math.min(n, 5));
			inline(line.slice(n + 1), h);
			into.appendChild(h);
			i++;
		} else if (line.startsWith('|')) {
			const table = el('table');
			for (; i < lines.length && lines[i].startsWith('|'); i++) {
				if (/^\|[-| :]+\|$/.test(lines[i])) continue;
				const tr = el('tr');
				for (const cell of lines[i].slice(1, -1).split('|')) { const td = el('td'); inline(cell.trim(), td); tr.appendChild(td); }
				table.appendChild(tr);
			}
			into.appendChild(table);
		} else if (/^\s*([-*]|\d+\.) /.test(line)) {
			const ordered = /^\s*\d+\./.test(line);
			const list = el(ordered ? 'ol' : 'ul');
			let item = null;
			for (; i < lines.length && lines[i].trim() !== ''; i++) {
				const m = /^\s*(?:[-*]|\d+\.) (.*)$/.exec(lines[i]);
				if (m) { item = el('li'); list.appendChild(item); inline(m[1], item); }
				else if (item) inline(' ' + lines[i].trim(), item);
			}
			into.appendChild(list);
		} else if (line.trim() === '') {
			i++;
		} else {
			const para = [];
			for (; i < lines.length && lines[i].trim() !== '' && !/^(```|#{1,4} |\||    )/.test(lines[i]); i++) para.push(lines[i]);
			const p = el('p');
			inline(para.join(' '), p);
			into.appendChild(p);
		}
	}
}
function showPage(name) {
	const page = handbook.find((p) => p.name === name) || handbook[0];
	render(page.text, $('handbook-page'));
	for (const b of $('handbook-pages').children) b.setAttribute('aria-current', b.dataset.name === page.name ? 'page' : 'false');
	showTab('handbook');
}
for (const p of handbook) {
	const b = el('button', '', p.title);
	b.type = 'button';
	b.dataset.name = p.name;
	b.addEventListener('click', () => showPage(p.name));
	$('handbook-pages').appendChild(b);
}
render(handbook[0].text, $('handbook-page'));

// ---- start --------------------------------------------------------------------
function guard(fn) {
	return (...a) => { try { fn(...a); } catch (err) { status(err.message); } };
}
$('pick').addEventListener('submit', guard((ev) => { ev.preventDefault(); openExercise(pickedExercise()); }));
$('next-seed').addEventListener('click', guard(() => {
	const e = pickedExercise();
	const m = /^(F?)(\d+)$/.exec(e.id);
	e.id = m ? m[1] + (Number(m[2]) + 1) : '0';
	openExercise(e);
}));
$('answer-row').addEventListener('submit', (ev) => { ev.preventDefault(); checkAnswer(); });
$('show-steps').addEventListener('click', guard(() => showSteps(null)));
$('questions-file').addEventListener('change', () => {
	const f = $('questions-file').files[0];
	if (!f) return;
	f.text().then(guard((text) => openQuestions(text, f.name)));
});
$('save-answers').addEventListener('click', saveAnswers);
$('grade-all').addEventListener('click', gradeAll);

function fromHash() {
	const h = readHash();
	if (!h) return false;
	openExercise(h);
	if (h.frame !== null) showSteps(h.frame);
	return true;
}

TimersimLab().then((m) => {
	lab = m;
	for (const k of call('kinds').kinds) {
		const o = el('option', '', k.name);
		o.value = k.name;
		$('kind').appendChild(o);
	}
	const started = performance.now();
	try {
		if (!fromHash()) openExercise(pickedExercise());
	} catch (err) { status(err.message); }
	window.addEventListener('hashchange', guard(() => {
		const h = readHash();
		if (!h) return;
		if (!current || h.kind !== current.kind || h.id !== current.id || h.hz !== current.hz ||
		    h.wordBits !== current.wordBits || h.baseSmall !== current.baseSmall) fromHash();
		else if (h.frame !== null) {
			// A link to a frame of the exercise shown.
			const v = viewHandle();
			if (v && !$('steps').hidden) { if (v.info().frame !== h.frame) v.goTo(0, h.frame); }
			else showSteps(h.frame);
		}
	}));
	status('ready');
	document.body.setAttribute('data-ready', String(Math.round(performance.now() - started)));
	window.timersimLab = {
		module: lab, open: openExercise, check: checkAnswer, showSteps, view: viewHandle,
		openQuestions, answeredText, current: () => current,
	};
});
})();
