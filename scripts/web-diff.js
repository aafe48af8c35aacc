#!/usr/bin/env node
// The browser lab's wasm against the native timersim (make check-web): for
// every kind, SEEDS seeds from 0 and every fixed exercise (F1..), under the
// default wheel options and under --hz 1000 --word-bits 32 --base-small,
// the questions with their answers and working (`lab KIND -s S -n N -c`),
// and the grades of an answers file with every other answer wrong (`lab
// check FILE` as text, gradescope and json) must be byte for byte the same,
// and so must the errors of options a kind refuses.
//
//   NODE_PATH=/usr/share/nodejs node scripts/web-diff.js MODULE.js TIMERSIM [SEEDS]
//
// Prints a line per comparison and a summary; exit 0 when all agree.
'use strict';
const {spawnSync} = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const [moduleJs, timersim, seedsArg] = process.argv.slice(2);
if (!moduleJs || !timersim) {
	console.error('usage: web-diff.js MODULE.js TIMERSIM [SEEDS]');
	process.exit(2);
}
const seeds = Number(seedsArg || 1000);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'timersim-web-diff-'));

function native(args) {
	const r = spawnSync(timersim, args, {encoding: 'utf8', maxBuffer: 1 << 30});
	return {status: r.status, out: r.stdout, err: r.stderr};
}

let compared = 0, differ = 0;
function same(what, wasm, nat) {
	compared++;
	if (wasm === nat) {
		console.log('same   ' + what);
		return;
	}
	differ++;
	let i = 0;
	while (i < wasm.length && wasm[i] === nat[i]) i++;
	console.log('DIFFER ' + what + ' at byte ' + i + ':\n  wasm:   ' + JSON.stringify(wasm.slice(Math.max(0, i - 80), i + 80)) +
		    '\n  native: ' + JSON.stringify(nat.slice(Math.max(0, i - 80), i + 80)));
}

// The wasm's answer as the native tool gives it: text, or "timersim: MSG" and exit 2.
function asNative(json, field) {
	const r = JSON.parse(json);
	return r.error !== undefined ? {status: 2, out: '', err: 'timersim: ' + r.error + '\n'} : {status: null, out: r[field]};
}

function compareRun(what, wasm, nat) {
	if (wasm.status === 2 || nat.status === 2) {
		same(what + ' (refused)', (wasm.status === 2 ? 'exit 2 ' + wasm.err : 'exit 0 ' + wasm.out),
		     (nat.status === 2 ? 'exit 2 ' + nat.err.split('\ntry ')[0].replace(/\n$/, '') + '\n' : 'exit 0 ' + nat.out));
		return false;
	}
	same(what, wasm.out, nat.out);
	return true;
}

// The answers a -c output gives, by question key.
function answersOf(text) {
	const out = [];
	const re = /^Question \d+ of \d+: (.*)$[\s\S]*?^ {2}Answer: (.*)$/gm;
	let m;
	while ((m = re.exec(text))) out.push([m[1], m[2]]);
	return out;
}

// Every other answer wrong, a different way per kind of slip: a part
// changed, a part left out, a word added.
function wrongOf(answer, i) {
	const words = answer.split(' ');
	if (i % 6 === 1) return words.slice(0, Math.max(1, words.length - 1)).join(' ') + (words.length === 1 ? 'x' : '');
	if (i % 6 === 3) return answer + ' extra';
	return words.map((w, j) => (j === words.length - 1 ? w.replace(/\d/, (d) => String((Number(d) + 1) % 10)) : w)).join(' ');
}

require(path.resolve(moduleJs))().then((lab) => {
	const started = Date.now();
	const kinds = JSON.parse(lab.kinds()).kinds;
	const configs = [
		{name: 'defaults', hz: 250, bits: 64, small: false, args: []},
		{name: '--hz 1000 --word-bits 32 --base-small', hz: 1000, bits: 32, small: true,
		 args: ['--hz', '1000', '--word-bits', '32', '--base-small']},
	];
	for (const k of kinds) {
		for (const cfg of configs) {
			const runs = [['0', cfg.name === 'defaults' ? seeds : Math.min(seeds, 200)]];
			if (k.fixed.length) runs.push(['F1', k.fixed.length]);
			for (const [seed, n] of runs) {
				const what = 'lab ' + k.name + ' -s ' + seed + ' -n ' + n + ' -c ' + cfg.args.join(' ');
				const nat = native(['lab', k.name, '-s', seed, '-n', String(n), '-c'].concat(cfg.args));
				const wasm = asNative(lab.labText(k.name, seed, n, cfg.hz, cfg.bits, cfg.small, true), 'text');
				if (!compareRun(what, wasm, nat)) continue;
				// The questions alone (what a student sees first).
				const natQ = native(['lab', k.name, '-s', seed, '-n', String(n)].concat(cfg.args));
				same(what.replace(' -c', ''), asNative(lab.labText(k.name, seed, n, cfg.hz, cfg.bits, cfg.small, false), 'text').out, natQ.out);
				// Grades: every other answer wrong.
				const lines = answersOf(nat.out).map(([key, a], i) => key + ' = ' + (i % 2 ? wrongOf(a, i) : a));
				if (lines.length !== n) {
					same(what + ': answers read back', String(lines.length), String(n));
					continue;
				}
				const text = lines.join('\n') + '\n';
				const file = path.join(tmp, 'answers.txt');
				fs.writeFileSync(file, text);
				for (const format of ['text', 'gradescope', 'json']) {
					const natC = native(['lab', 'check', '--format', format, file]);
					const wasmC = JSON.parse(lab.check(text, format));
					if (wasmC.error !== undefined) { same(what + ' check ' + format, 'error ' + wasmC.error, natC.out); continue; }
					// `lab check` without --questions: text is check_text alone.
					same('lab check --format ' + format + ' (' + what + ')', wasmC.text, natC.out);
					if (format === 'text')
						same('lab check exit status (' + what + ')', String(wasmC.all_right ? 0 : 1), String(natC.status));
				}
			}
		}
	}
	fs.rmSync(tmp, {recursive: true, force: true});
	console.log('web-diff: ' + compared + ' comparisons, ' + differ + ' differ (' + ((Date.now() - started) / 1000).toFixed(1) + ' s)');
	process.exit(differ ? 1 : 0);
}).catch((e) => {
	console.error('web-diff: ' + (e && e.stack || e));
	process.exit(1);
});
