// SPDX-License-Identifier: GPL-2.0
/*
 * vtrace view: the page's script. It reads the data vtrace wrote into the
 * "vtrace-data" element and draws Traceview's two panels: the timeline on
 * a canvas (a row per thread, grouped by process; spans smaller than a
 * pixel merged into one block) and the profile table. What the page shows
 * is kept in window.vtraceViewState and, as JSON, in the "vtrace-state"
 * element, for tests. Nothing is fetched: the page works from file://.
 *
 * The location's hash sets the initial view: #t0=NS&t1=NS (ns from the
 * trace's start), sel=NAME, sort=COLUMN, asc=1, filter=TEXT, and
 * hover=X,Y: the pointer at (X, Y) in the timeline, its tooltip kept in
 * the state as a mouse's is.
 */
'use strict';

(function () {
	const started = performance.now();
	const data = JSON.parse(document.getElementById('vtrace-data').textContent);
	const state = { mode: data.mode, file: data.file || '', ready: false };
	window.vtraceViewState = state;

	/* Layout of the timeline, in CSS pixels. */
	const LABEL_W = 200;
	const AXIS_H = 22;
	const LANE_H = 16;
	const GROUP_H = 18;
	const COUNTER_H = 36;
	/* Widths kept per name in the state, for tests. */
	const WIDTHS_KEPT = 50;
	/* Profile rows put in the table at once; the filter finds the rest. */
	const TABLE_MAX = 1000;

	const params = {};
	location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
		const i = kv.indexOf('=');

		if (i > 0)
			params[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1));
	});

	function fmtNs(ns, digits) {
		const a = Math.abs(ns);
		let unit = 'ns', div = 1;

		if (a >= 1e9) {
			unit = 's';
			div = 1e9;
		} else if (a >= 1e6) {
			unit = 'ms';
			div = 1e6;
		} else if (a >= 1e3) {
			unit = 'us';
			div = 1e3;
		}
		if (div === 1)
			return Math.round(ns) + ' ns';
		return (ns / div).toFixed(digits === undefined ? 3 : digits) +
			' ' + unit;
	}

	function ms(ns) {
		return (ns / 1e6).toFixed(6);
	}

	function pct(part, whole) {
		return (whole ? 100 * part / whole : 0).toFixed(1) + '%';
	}

	/* A colour per name: the same name is the same colour everywhere. */
	const colourCache = new Map();
	function colour(name) {
		let c = colourCache.get(name);
		let h = 2166136261;

		if (c)
			return c;
		for (let i = 0; i < name.length; i++)
			h = Math.imul(h ^ name.charCodeAt(i), 16777619);
		h >>>= 0;
		c = 'hsl(' + (h % 360) + ',' + (45 + (h >> 9) % 30) + '%,' +
			(55 + (h >> 17) % 15) + '%)';
		colourCache.set(name, c);
		return c;
	}

	/* The first index of sorted @arr whose value is >= @v. */
	function lowerBound(arr, v) {
		let lo = 0, hi = arr.length;

		while (lo < hi) {
			const mid = (lo + hi) >> 1;

			if (arr[mid] < v)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo;
	}

	/* Profile panel -------------------------------------------------- */

	const profile = data.profile;
	const table = document.getElementById('profile');
	const filterBox = document.getElementById('filter');
	const sel = { name: null };
	let timeline = null;

	const methodByName = new Map();
	let columns, rows;

	if (data.mode === 'diff') {
		columns = [
			{ key: 'order', label: '#' },
			{ key: 'name', label: 'name', cls: 'name' },
			{ key: 'in', label: 'in' },
			{ key: 'inclA', label: 'incl ms A' },
			{ key: 'inclB', label: 'incl ms B' },
			{ key: 'inclD', label: 'change' },
			{ key: 'exclA', label: 'excl ms A' },
			{ key: 'exclB', label: 'excl ms B' },
			{ key: 'exclD', label: 'change' },
			{ key: 'callsA', label: 'calls A' },
			{ key: 'callsB', label: 'calls B' },
			{ key: 'callsD', label: 'change' },
		];
		rows = data.methods.map(function (m, i) {
			const a = m.a || {}, b = m.b || {};

			return {
				order: i + 1, name: m.name,
				in: m.in === 'both' ? 'both' : 'only ' + m.in.toUpperCase(),
				inclA: a.inclusive, inclB: b.inclusive,
				inclD: m.change.inclusive,
				exclA: a.exclusive, exclB: b.exclusive,
				exclD: m.change.exclusive,
				callsA: a.calls, callsB: b.calls,
				callsD: m.change.calls,
			};
		});
	} else {
		columns = [
			{ key: 'order', label: '#' },
			{ key: 'name', label: 'name', cls: 'name' },
			{ key: 'inclusive', label: 'incl ms' },
			{ key: 'inclPct', label: 'incl %' },
			{ key: 'exclusive', label: 'excl ms' },
			{ key: 'exclPct', label: 'excl %' },
			{ key: 'calls', label: 'calls+rec' },
		];
		rows = profile.methods.map(function (m, i) {
			methodByName.set(m.name, m);
			return {
				order: i + 1, name: m.name, m: m,
				inclusive: m.inclusive, exclusive: m.exclusive,
				inclPct: m.inclusive / (profile.total || 1),
				exclPct: m.exclusive / (profile.total || 1),
				calls: m.calls,
			};
		});
	}

	/* By default the order vtrace gave; a column asked for: descending. */
	const sort = { key: params.sort || 'order',
		       asc: params.sort === undefined || params.asc === '1' };
	filterBox.value = params.filter || '';

	function cellText(r, key) {
		const v = r[key];

		if (v === undefined)
			return '-';
		switch (key) {
		case 'inclusive': case 'exclusive': case 'inclA': case 'inclB':
		case 'exclA': case 'exclB':
			return ms(v);
		case 'inclD': case 'exclD':
			return (v < 0 ? '-' : '+') + ms(Math.abs(v));
		case 'callsD':
			return (v < 0 ? '' : '+') + v;
		case 'inclPct': case 'exclPct':
			return (100 * v).toFixed(1) + '%';
		case 'calls':
			return (r.m.calls - r.m.recursive) + '+' + r.m.recursive;
		default:
			return String(v);
		}
	}

	function compare(a, b) {
		let x = a[sort.key], y = b[sort.key];

		if (x === undefined)
			x = -Infinity;
		if (y === undefined)
			y = -Infinity;
		if (x < y)
			return sort.asc ? -1 : 1;
		if (x > y)
			return sort.asc ? 1 : -1;
		return a.order - b.order;
	}

	function edgeRows(tbody, m, parents) {
		const edges = parents ? m.parents : m.children;

		edges.forEach(function (e) {
			const tr = document.createElement('tr');
			const other = methodByName.get(e.name);
			const total = parents ? m.calls : other ? other.calls : 0;

			tr.className = parents ? 'parent' : 'child';
			tr.innerHTML = '<td></td><td class="name"></td><td></td>' +
				'<td></td><td></td><td></td><td></td>';
			tr.cells[0].textContent = parents ? 'parent' : 'child';
			tr.cells[1].textContent = e.name;
			tr.cells[2].textContent = ms(e.inclusive);
			tr.cells[3].textContent = pct(e.inclusive, m.inclusive);
			tr.cells[6].textContent = e.calls + '/' + total;
			if (other)
				tr.addEventListener('click', function () {
					select(e.name, true);
				});
			tbody.appendChild(tr);
		});
	}

	function renderTable() {
		const thead = table.tHead, tbody = table.tBodies[0];
		const f = filterBox.value.toLowerCase();
		const shown = rows.filter(function (r) {
			return !f || r.name.toLowerCase().indexOf(f) >= 0;
		}).sort(compare);
		const hr = document.createElement('tr');

		columns.forEach(function (c) {
			const th = document.createElement('th');

			th.textContent = c.label;
			th.className = (c.cls || '') +
				(c.key === sort.key ? ' sorted' + (sort.asc ? ' asc' : '') : '');
			th.dataset.key = c.key;
			th.addEventListener('click', function () {
				if (sort.key === c.key) {
					sort.asc = !sort.asc;
				} else {
					sort.key = c.key;
					sort.asc = c.key === 'name' || c.key === 'order';
				}
				renderTable();
			});
			hr.appendChild(th);
		});
		thead.replaceChildren(hr);
		tbody.replaceChildren();
		shown.slice(0, TABLE_MAX).forEach(function (r) {
			const tr = document.createElement('tr');

			tr.className = 'method' + (r.name === sel.name ? ' selected' : '');
			columns.forEach(function (c) {
				const td = document.createElement('td');

				td.className = c.cls || '';
				if (c.key === 'name' && data.mode !== 'diff') {
					const sw = document.createElement('span');

					sw.className = 'swatch';
					sw.style.background = colour(r.name);
					td.appendChild(sw);
					td.appendChild(document.createTextNode(r.name));
				} else {
					td.textContent = cellText(r, c.key);
				}
				if (c.key === 'in' && r.in !== 'both')
					td.className += ' only';
				if ((c.key === 'inclD' || c.key === 'exclD' ||
				     c.key === 'callsD') && r[c.key])
					td.className += r[c.key] > 0 ? ' up' : ' down';
				tr.appendChild(td);
			});
			tr.addEventListener('click', function () {
				select(r.name === sel.name ? null : r.name, false);
			});
			tbody.appendChild(tr);
			if (r.m && r.name === sel.name) {
				edgeRows(tbody, r.m, true);
				edgeRows(tbody, r.m, false);
			}
		});
		document.getElementById('profile-count').textContent =
			shown.length + ' of ' + rows.length + ' methods' +
			(shown.length > TABLE_MAX ? ' (first ' + TABLE_MAX + ' shown)' : '');
		state.profile = {
			count: shown.length,
			sort: sort.key,
			asc: sort.asc,
			filter: filterBox.value,
			rows: shown.slice(0, 200).map(function (r) {
				const o = {};

				columns.forEach(function (c) {
					if (c.key !== 'order')
						o[c.key] = r[c.key];
				});
				if (r.m)
					o.recursive = r.m.recursive;
				return o;
			}),
		};
		publish();
	}

	/* Select a method: its parents and children, its spans highlighted. */
	function select(name, scroll) {
		const m = name === null ? null : methodByName.get(name);

		sel.name = m ? name : null;
		state.selected = sel.name;
		state.parents = m ? m.parents.map(function (e) {
			return { name: e.name, inclusive: e.inclusive, calls: e.calls,
				 share: pct(e.inclusive, m.inclusive) };
		}) : [];
		state.children = m ? m.children.map(function (e) {
			return { name: e.name, inclusive: e.inclusive, calls: e.calls,
				 share: pct(e.inclusive, m.inclusive) };
		}) : [];
		renderTable();
		if (scroll) {
			const tr = table.querySelector('tr.selected');

			if (tr)
				tr.scrollIntoView({ block: 'nearest' });
		}
		if (timeline)
			timeline.selectName(sel.name);
	}

	filterBox.addEventListener('input', renderTable);

	let publishPending = false;
	function publish() {
		if (publishPending)
			return;
		publishPending = true;
		Promise.resolve().then(function () {
			publishPending = false;
			document.getElementById('vtrace-state').textContent =
				JSON.stringify(state);
		});
	}

	/* Timeline panel ------------------------------------------------- */

	function Timeline() {
		const names = data.names;
		const sl = data.slices;
		const n = sl.ts.length;
		const ts = Float64Array.from(sl.ts);
		const dur = Float64Array.from(sl.dur);
		const nameOf = Int32Array.from(sl.name);
		const kernel = new Uint8Array(n);
		/* A span's arguments: an index in names, -1 for none. */
		const argsOf = new Int32Array(n).fill(-1);
		const nameIndex = new Map();
		const canvas = document.getElementById('timeline');
		const scroller = document.getElementById('timeline-scroll');
		const spacer = document.getElementById('timeline-spacer');
		const tooltip = document.getElementById('tooltip');
		const ctx = canvas.getContext('2d');
		const end = data.end > 0 ? data.end : 1;
		const view = { t0: 0, t1: end };
		const rowsList = [];
		let selName = -1;
		let height = AXIS_H;

		names.forEach(function (s, i) {
			nameIndex.set(s, i);
		});
		sl.kernel.forEach(function (i) {
			kernel[i] = 1;
		});
		if (sl.args)
			sl.args.slice.forEach(function (i, k) {
				argsOf[i] = sl.args.text[k];
			});

		/*
		 * A lane: spans that do not nest in each other, sorted by
		 * begin; maxEnd[i] is the latest end of the first i + 1, so a
		 * binary search finds the first span that reaches a time.
		 */
		function makeLane(ids, begin, length) {
			const k = ids.length;
			const lane = { id: Int32Array.from(ids), ts: new Float64Array(k),
				       end: new Float64Array(k), maxEnd: new Float64Array(k) };
			let m = -Infinity;

			for (let i = 0; i < k; i++) {
				lane.ts[i] = begin[ids[i]];
				lane.end[i] = begin[ids[i]] + length[ids[i]];
				m = Math.max(m, lane.end[i]);
				lane.maxEnd[i] = m;
			}
			return lane;
		}

		function addRow(r) {
			r.y = height;
			height += r.h;
			rowsList.push(r);
		}

		/* CPUs: which thread ran, from sched_switch. */
		const cpus = data.cpus;
		const byCpu = new Map();
		for (let i = 0; i < cpus.cpu.length; i++) {
			if (!byCpu.has(cpus.cpu[i]))
				byCpu.set(cpus.cpu[i], []);
			byCpu.get(cpus.cpu[i]).push(i);
		}
		const runTs = Float64Array.from(cpus.ts), runDur = Float64Array.from(cpus.dur);
		if (byCpu.size)
			addRow({ kind: 'group', label: 'CPUs', h: GROUP_H });
		Array.from(byCpu.keys()).sort(function (a, b) {
			return a - b;
		}).forEach(function (c) {
			addRow({ kind: 'cpu', label: 'CPU ' + c, h: LANE_H,
				 lanes: [makeLane(byCpu.get(c), runTs, runDur)] });
		});

		/* Threads, grouped by process; their lanes by depth. */
		const perThread = data.threads.map(function () {
			return [];
		});
		for (let i = 0; i < n; i++) {
			const lanes = perThread[sl.thread[i]];
			const d = sl.depth[i];

			while (lanes.length <= d)
				lanes.push([]);
			lanes[d].push(i);
		}
		const procs = new Map();
		function proc(pid) {
			if (!procs.has(pid))
				procs.set(pid, { pid: pid, threads: [], async: [], counters: [] });
			return procs.get(pid);
		}
		data.threads.forEach(function (t, i) {
			proc(t.pid).threads.push(i);
		});
		const async = data.async;
		const asyncTs = Float64Array.from(async, function (a) {
			return a.ts;
		});
		const asyncDur = Float64Array.from(async, function (a) {
			return a.dur;
		});
		async.forEach(function (a, i) {
			proc(a.pid).async.push(i);
		});
		/* Counters of no process (pid -1: vendor and kernel events) go last. */
		const sysCounters = data.counters.filter(function (c) {
			return c.pid < 0;
		});
		data.counters.forEach(function (c) {
			if (c.pid >= 0)
				proc(c.pid).counters.push(c);
		});
		function addCounter(c) {
			let lo = Infinity, hi = -Infinity;

			c.value.forEach(function (v) {
				lo = Math.min(lo, v);
				hi = Math.max(hi, v);
			});
			addRow({ kind: 'counter', label: names[c.name], h: COUNTER_H,
				 counter: c, tsArr: Float64Array.from(c.ts), lo: lo, hi: hi });
		}
		Array.from(procs.keys()).sort(function (a, b) {
			return a - b;
		}).forEach(function (pid) {
			const p = procs.get(pid);
			const main = data.threads.find(function (t) {
				return t.tid === pid;
			});
			const pname = main ? main.name : p.threads.length ?
				data.threads[p.threads[0]].name : '';

			addRow({ kind: 'group', label: (pname || 'process') + ' ' + pid, h: GROUP_H });
			p.threads.forEach(function (ti) {
				const t = data.threads[ti];
				const lanes = perThread[ti].map(function (ids) {
					return makeLane(ids, ts, dur);
				});

				addRow({ kind: 'thread', label: (t.name || 'thread') + ' ' + t.tid,
					 tid: t.tid, h: LANE_H * Math.max(1, lanes.length), lanes: lanes });
			});
			if (p.async.length) {
				/* Async slices may overlap: packed into lanes, first fit. */
				const lanes = [], ends = [];

				p.async.forEach(function (i) {
					let l = ends.findIndex(function (e) {
						return e <= async[i].ts;
					});

					if (l < 0) {
						l = lanes.length;
						lanes.push([]);
						ends.push(0);
					}
					lanes[l].push(i);
					ends[l] = async[i].ts + async[i].dur;
				});
				addRow({ kind: 'async', label: 'async ' + pid, h: LANE_H * lanes.length,
					 lanes: lanes.map(function (ids) {
						 return makeLane(ids, asyncTs, asyncDur);
					 }) });
			}
			p.counters.forEach(addCounter);
		});
		if (sysCounters.length) {
			addRow({ kind: 'group', label: 'Counters', h: GROUP_H });
			sysCounters.sort(function (a, b) {
				return names[a.name] < names[b.name] ? -1 :
					names[a.name] > names[b.name] ? 1 : 0;
			}).forEach(addCounter);
		}

		function spanName(row, id) {
			if (row.kind === 'cpu')
				return cpus.comm[id] + ' ' + cpus.tid[id];
			if (row.kind === 'async')
				return names[async[id].name];
			return names[nameOf[id]];
		}

		/* How a span of @row is coloured; null: dimmed (not selected). */
		function spanColour(row, id) {
			if (row.kind === 'cpu')
				return colour(String(cpus.tid[id]));
			const nm = row.kind === 'async' ? async[id].name : nameOf[id];

			if (selName >= 0 && nm !== selName)
				return null;
			return colour(names[nm]);
		}

		let W = 0, H = 0, scale = 1;
		const stats = {};

		function x(t) {
			return LABEL_W + (t - view.t0) * scale;
		}

		function drawLane(row, lane, y) {
			const first = lowerBound(lane.maxEnd, view.t0);
			let pend = null;

			function flush() {
				if (!pend)
					return;
				ctx.fillStyle = pend.colour || '#b8b8b8';
				ctx.fillRect(pend.x0, y + 1, Math.max(1, pend.x1 - pend.x0), LANE_H - 2);
				stats.rects++;
				pend = null;
			}
			for (let i = first; i < lane.ts.length && lane.ts[i] <= view.t1; i++) {
				if (lane.end[i] < view.t0)
					continue;
				const id = lane.id[i];
				const x0 = Math.max(LABEL_W, x(lane.ts[i]));
				const x1 = Math.min(W, x(lane.end[i]));
				const c = spanColour(row, id);

				if (x1 - x0 < 1) {
					/* Smaller than a pixel: merged with its neighbours. */
					stats.aggregated++;
					if (pend && x0 <= pend.x1 + 1) {
						pend.x1 = Math.max(pend.x1, x1);
					} else {
						flush();
						pend = { x0: x0, x1: x1, colour: c };
					}
					continue;
				}
				flush();
				stats.drawn++;
				ctx.fillStyle = c || '#dcdcdc';
				ctx.fillRect(x0, y + 1, x1 - x0, LANE_H - 2);
				stats.rects++;
				if (c && selName >= 0 && row.kind !== 'cpu') {
					ctx.strokeStyle = '#000';
					ctx.strokeRect(x0 + 0.5, y + 1.5, x1 - x0 - 1, LANE_H - 3);
				}
				const nm = spanName(row, id);
				let w = stats.widths[nm];

				if (!w)
					w = stats.widths[nm] = [];
				if (w.length < WIDTHS_KEPT)
					w.push(Math.round((x1 - x0) * 100) / 100);
				if (x1 - x0 > 24) {
					ctx.fillStyle = c ? '#111' : '#888';
					ctx.save();
					ctx.beginPath();
					ctx.rect(x0, y, x1 - x0, LANE_H);
					ctx.clip();
					ctx.fillText(nm, x0 + 3, y + LANE_H - 4);
					ctx.restore();
				}
			}
			flush();
		}

		function drawCounter(row, y) {
			const c = row.counter, t = row.tsArr, k = t.length;
			const range = row.hi - row.lo || 1;
			const top = y + 3, h = row.h - 6;
			let i = Math.max(0, lowerBound(t, view.t0) - 1);
			let colX = -1, colLo = 0, colHi = 0, lastY = null;

			function yOf(v) {
				return top + h - (v - row.lo) / range * h;
			}
			ctx.strokeStyle = colour(row.label);
			ctx.fillStyle = colour(row.label);
			ctx.beginPath();
			for (; i < k && t[i] <= view.t1; i++) {
				const px = Math.max(LABEL_W, Math.floor(x(t[i])));
				const vy = yOf(c.value[i]);

				if (px === colX) {
					/* Samples within a pixel: their range, one line. */
					colLo = Math.min(colLo, vy);
					colHi = Math.max(colHi, vy);
					lastY = vy;
					continue;
				}
				if (colX >= 0) {
					ctx.moveTo(colX + 0.5, colLo);
					ctx.lineTo(colX + 0.5, colHi);
					ctx.moveTo(colX + 0.5, lastY);
					ctx.lineTo(px + 0.5, lastY);
				} else if (lastY !== null) {
					ctx.moveTo(LABEL_W, lastY);
					ctx.lineTo(px + 0.5, lastY);
				}
				ctx.moveTo(px + 0.5, lastY === null ? vy : lastY);
				ctx.lineTo(px + 0.5, vy);
				colX = px;
				colLo = colHi = lastY = vy;
				stats.samples++;
			}
			if (colX >= 0) {
				ctx.moveTo(colX + 0.5, colLo);
				ctx.lineTo(colX + 0.5, colHi);
				ctx.moveTo(colX + 0.5, lastY);
				ctx.lineTo(W, lastY);
			}
			ctx.stroke();
			ctx.fillStyle = '#333';
			ctx.fillText(String(row.hi), LABEL_W + 3, top + 9);
		}

		function niceStep(ns) {
			const p = Math.pow(10, Math.floor(Math.log10(ns)));

			for (const m of [1, 2, 5, 10])
				if (m * p >= ns)
					return m * p;
			return 10 * p;
		}

		/* Decimals a tick at @t needs in its unit for steps of @step. */
		function tickDigits(t, step) {
			const a = Math.abs(t);
			const div = a >= 1e9 ? 1e9 : a >= 1e6 ? 1e6 : a >= 1e3 ? 1e3 : 1;

			return Math.max(0, Math.min(6, Math.ceil(Math.log10(div / step) - 1e-9)));
		}

		function drawAxis() {
			const step = niceStep(100 / scale);

			ctx.fillStyle = '#eef1f4';
			ctx.fillRect(0, 0, W, AXIS_H);
			ctx.strokeStyle = '#c4c9cf';
			ctx.fillStyle = '#333';
			ctx.beginPath();
			for (let t = Math.ceil(view.t0 / step) * step; t <= view.t1; t += step) {
				const px = Math.round(x(t)) + 0.5;

				ctx.moveTo(px, AXIS_H - 6);
				ctx.lineTo(px, H);
				ctx.fillText(fmtNs(t, tickDigits(t, step)), px + 3, AXIS_H - 8);
			}
			ctx.stroke();
			ctx.fillStyle = '#eef1f4';
			ctx.fillRect(0, 0, LABEL_W, AXIS_H);
			ctx.fillStyle = '#333';
			ctx.fillText(fmtNs(view.t1 - view.t0) + ' shown', 4, AXIS_H - 8);
		}

		function draw() {
			const dpr = window.devicePixelRatio || 1;
			const top = scroller.scrollTop;

			W = scroller.clientWidth;
			H = scroller.clientHeight;
			if (canvas.width !== W * dpr || canvas.height !== H * dpr) {
				canvas.width = W * dpr;
				canvas.height = H * dpr;
				canvas.style.width = W + 'px';
				canvas.style.height = H + 'px';
			}
			spacer.style.height = height + 'px';
			ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
			ctx.font = '11px sans-serif';
			ctx.clearRect(0, 0, W, H);
			scale = (W - LABEL_W) / (view.t1 - view.t0);
			stats.rects = stats.drawn = stats.aggregated = stats.samples = 0;
			stats.widths = {};
			ctx.save();
			ctx.beginPath();
			ctx.rect(0, AXIS_H, W, H - AXIS_H);
			ctx.clip();
			rowsList.forEach(function (r) {
				const y = r.y - top;

				if (y + r.h < AXIS_H || y > H)
					return;
				ctx.fillStyle = r.kind === 'group' ? '#dde3ea' : '#fff';
				ctx.fillRect(0, y, W, r.h);
				ctx.strokeStyle = '#e4e4e4';
				ctx.beginPath();
				ctx.moveTo(0, y + r.h - 0.5);
				ctx.lineTo(W, y + r.h - 0.5);
				ctx.stroke();
				ctx.save();
				ctx.beginPath();
				ctx.rect(LABEL_W, y, W - LABEL_W, r.h);
				ctx.clip();
				if (r.lanes)
					r.lanes.forEach(function (lane, d) {
						drawLane(r, lane, y + d * LANE_H);
					});
				else if (r.counter)
					drawCounter(r, y);
				ctx.restore();
				ctx.fillStyle = r.kind === 'group' ? '#dde3ea' : '#f4f4f4';
				ctx.fillRect(0, y, LABEL_W, r.h - 1);
				ctx.fillStyle = '#111';
				ctx.font = r.kind === 'group' ? 'bold 11px sans-serif' : '11px sans-serif';
				ctx.fillText(r.label, r.kind === 'group' ? 4 : 14, y + 12, LABEL_W - 16);
				ctx.font = '11px sans-serif';
			});
			ctx.restore();
			ctx.strokeStyle = '#999';
			ctx.beginPath();
			ctx.moveTo(LABEL_W - 0.5, 0);
			ctx.lineTo(LABEL_W - 0.5, H);
			ctx.stroke();
			drawAxis();
			state.t0 = view.t0;
			state.t1 = view.t1;
			state.trackWidth = W - LABEL_W;
			state.rects = stats.rects;
			state.drawnSpans = stats.drawn;
			state.aggregatedSpans = stats.aggregated;
			state.counterSamplesDrawn = stats.samples;
			state.widths = stats.widths;
			publish();
		}

		let frame = 0;
		function redraw() {
			if (!frame)
				frame = requestAnimationFrame(function () {
					frame = 0;
					draw();
				});
		}

		function setView(t0, t1) {
			const span = Math.max(10, t1 - t0);
			const lo = -0.05 * end, hi = end * 1.05;

			if (span >= hi - lo) {
				t0 = lo;
				t1 = hi;
			} else {
				t0 = Math.min(Math.max(t0, lo), hi - span);
				t1 = t0 + span;
			}
			view.t0 = t0;
			view.t1 = t1;
			redraw();
		}

		function zoom(factor, atX) {
			const t = view.t0 + (atX - LABEL_W) / scale;

			setView(t - (t - view.t0) * factor, t + (view.t1 - t) * factor);
		}

		function pan(dt) {
			setView(view.t0 + dt, view.t1 + dt);
		}

		/* The span under (@px, @py), with a pixel of slack. */
		function hit(px, py) {
			const y = py + scroller.scrollTop;
			const r = rowsList.find(function (row) {
				return y >= row.y && y < row.y + row.h;
			});

			if (!r || px < LABEL_W)
				return null;
			const t = view.t0 + (px - LABEL_W) / scale, slack = 1 / scale;
			if (r.counter) {
				const i = lowerBound(r.tsArr, t + 1e-9) - 1;

				return i >= 0 ? { row: r, sample: i } : null;
			}
			if (!r.lanes)
				return null;
			const lane = r.lanes[Math.floor((y - r.y) / LANE_H)];
			if (!lane)
				return null;
			let best = -1;
			for (let i = lowerBound(lane.ts, t + slack + 1e-9) - 1;
			     i >= 0 && lane.maxEnd[i] >= t - slack; i--) {
				if (lane.end[i] >= t - slack) {
					best = i;
					break;
				}
			}
			return best < 0 ? null : { row: r, lane: lane, id: lane.id[best],
						   depth: Math.floor((y - r.y) / LANE_H) };
		}

		function describe(h) {
			const r = h.row, id = h.id;

			if (h.sample !== undefined)
				return r.label + '\nat     ' + fmtNs(r.tsArr[h.sample]) +
					'\nvalue  ' + r.counter.value[h.sample];
			if (r.kind === 'cpu')
				return cpus.comm[id] + ' (tid ' + cpus.tid[id] + ')\n' + r.label +
					'\nstart  ' + fmtNs(runTs[id]) + '\ndur    ' + fmtNs(runDur[id]);
			if (r.kind === 'async')
				return names[async[id].name] + '\ncookie ' + async[id].cookie +
					'\nstart  ' + fmtNs(asyncTs[id]) + '\ndur    ' +
					fmtNs(asyncDur[id]) + '\npid    ' + async[id].pid;
			let s = names[nameOf[id]] + '\nstart  ' + fmtNs(ts[id]) +
				'\ndur    ' + fmtNs(dur[id]) + '\ndepth  ' + sl.depth[id] +
				'\nthread ' + r.label + '\nkind   ' +
				(kernel[id] ? 'kernel function' : 'marker / method');
			if (sl.cpu)
				s += '\ncpu    ' + fmtNs(sl.cpu[id]);
			if (argsOf[id] >= 0)
				s += '\nargs   ' + names[argsOf[id]];
			return s;
		}

		/*
		 * The tooltip of the pointer at (@px, @py) on the canvas, or
		 * hidden; its text is kept in the state.
		 */
		function hover(px, py) {
			const h = hit(px, py);

			state.hover = h ? describe(h) : null;
			publish();
			tooltip.hidden = !h;
			if (!h)
				return;
			tooltip.textContent = state.hover;
			tooltip.style.left = Math.min(px + 12, W - 260) + 'px';
			tooltip.style.top = (py + 16) + 'px';
		}

		const drag = { on: false, x: 0, moved: false };
		canvas.addEventListener('mousedown', function (e) {
			drag.on = true;
			drag.x = e.clientX;
			drag.moved = false;
			canvas.classList.add('dragging');
		});
		window.addEventListener('mouseup', function (e) {
			if (!drag.on)
				return;
			drag.on = false;
			canvas.classList.remove('dragging');
			if (!drag.moved) {
				const b = canvas.getBoundingClientRect();
				const h = hit(e.clientX - b.left, e.clientY - b.top);

				if (h && h.row.kind === 'thread')
					select(names[nameOf[h.id]], true);
			}
		});
		canvas.addEventListener('mousemove', function (e) {
			const b = canvas.getBoundingClientRect();

			if (drag.on) {
				const dx = e.clientX - drag.x;

				if (Math.abs(dx) > 2)
					drag.moved = true;
				if (drag.moved) {
					pan(-dx / scale);
					drag.x = e.clientX;
				}
				tooltip.hidden = true;
				return;
			}
			hover(e.clientX - b.left, e.clientY - b.top);
		});
		canvas.addEventListener('mouseleave', function () {
			tooltip.hidden = true;
			state.hover = null;
			publish();
		});
		scroller.addEventListener('wheel', function (e) {
			const b = canvas.getBoundingClientRect();

			if (e.shiftKey) {
				scroller.scrollTop += e.deltaY;
			} else if (Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
				pan(e.deltaX / scale);
			} else {
				zoom(Math.exp(e.deltaY * 0.002), e.clientX - b.left);
			}
			e.preventDefault();
		}, { passive: false });
		scroller.addEventListener('scroll', redraw);
		window.addEventListener('resize', redraw);
		document.addEventListener('keydown', function (e) {
			if (e.target === filterBox || e.ctrlKey || e.metaKey)
				return;
			const mid = LABEL_W + (W - LABEL_W) / 2;

			switch (e.key) {
			case 'w': case 'W': case '+': case '=':
				zoom(0.8, mid);
				break;
			case 's': case 'S': case '-':
				zoom(1.25, mid);
				break;
			case 'a': case 'A': case 'ArrowLeft':
				pan(-(view.t1 - view.t0) * 0.1);
				break;
			case 'd': case 'D': case 'ArrowRight':
				pan((view.t1 - view.t0) * 0.1);
				break;
			case '0': case 'Home':
				setView(0, end);
				break;
			default:
				return;
			}
			e.preventDefault();
		});

		let selCount = 0;
		this.selectName = function (name) {
			selName = name === null || !nameIndex.has(name) ? -1 : nameIndex.get(name);
			selCount = 0;
			if (selName >= 0)
				for (let i = 0; i < n; i++)
					if (nameOf[i] === selName)
						selCount++;
			state.selectedSpans = selCount;
			redraw();
		};
		this.draw = draw;
		this.hover = hover;

		state.spans = n;
		state.threads = data.threads.length;
		state.processes = rowsList.filter(function (r) {
			return r.kind === 'group' && r.label !== 'CPUs' && r.label !== 'Counters';
		}).length;
		state.rows = rowsList.map(function (r) {
			const o = { kind: r.kind, label: r.label, y: r.y,
				    lanes: r.lanes ? r.lanes.length : r.counter ? 1 : 0,
				    spans: r.lanes ? r.lanes.reduce(function (a, l) {
					    return a + l.id.length;
				    }, 0) : r.counter ? r.counter.ts.length : 0 };

			/* A counter's samples, for tests to read in order. */
			if (r.counter)
				o.values = r.counter.value;
			return o;
		});
		const t0 = params.t0 !== undefined ? Number(params.t0) : 0;
		const t1 = params.t1 !== undefined ? Number(params.t1) : end;
		view.t0 = t0;
		view.t1 = t1 > t0 ? t1 : end;
	}

	/* Start ---------------------------------------------------------- */

	const title = document.getElementById('title');
	const summary = document.getElementById('summary');

	if (data.mode === 'view') {
		document.getElementById('timeline-panel').hidden = false;
		timeline = new Timeline();
		summary.textContent = data.file + ': ' + data.slices.ts.length +
			' spans, ' + data.threads.length + ' threads, ' +
			fmtNs(data.end) + (data.faults.unmatched || data.faults.open ||
				data.faults.malformed ? ' (' + data.faults.unmatched +
				' unmatched ends, ' + data.faults.open + ' open, ' +
				data.faults.malformed + ' malformed markers)' : '');
		title.textContent = 'vtrace view';
	} else if (data.mode === 'profile') {
		document.body.classList.add('profile-only');
		summary.textContent = data.file + ': ' + profile.methods.length +
			' methods, total ' + fmtNs(profile.total);
		title.textContent = 'vtrace profile';
	} else {
		document.body.classList.add('profile-only');
		document.getElementById('help').textContent = 'click a column to sort';
		summary.textContent = 'A ' + data.a.file + ' (' + fmtNs(data.a.total) +
			') vs B ' + data.b.file + ' (' + fmtNs(data.b.total) + ')';
		title.textContent = 'vtrace profile --diff';
	}
	document.title = title.textContent + ' - ' + (data.file || '');
	renderTable();
	select(params.sel !== undefined ? params.sel : null, true);
	if (timeline) {
		timeline.draw();
		if (params.hover !== undefined)
			timeline.hover.apply(null, params.hover.split(',').map(Number));
	}
	/* The script's own time, and the time since the page was asked for. */
	state.loadMs = Math.round(performance.now() - started);
	state.openMs = Math.round(performance.now());
	state.ready = true;
	publish();
})();
