/** The bench's figures as a Markdown table: median [min–max] over runs, kubectl alongside, budgets checked. */
import type {BigPlanFigures, FileMemoryFigures} from './file-run.js';
import type {FirstFrame} from './first-frame.js';
import type {SideFigures} from './cluster-run.js';
import type {FrameFigures} from './frame-time.js';
import {hostileCases, type HostileFigures} from './hostile-run.js';
import type {IdleFigures} from './idle-run.js';
import {spread, type Spread} from './stats.js';
import type {RateFigures, WatchFigures} from './watch-run.js';

export type Results = {
	readonly quick: boolean;
	readonly runs: number;
	environment: string;
	readonly frames: FrameFigures[];
	readonly watch: WatchFigures[];
	/** The record section: 'planwatch' and 'planwatch --record' runs over the same 1000 objects, alternating. */
	readonly record: WatchFigures[];
	/** --record's encoding (sanitize + JSON) of one update, measured in-process. */
	recordEncode?: {readonly micros: number; readonly chars: number};
	/** The recorder's CPU per update in process (encoding, buffering, writes), µs. */
	recorderCpu?: {readonly micros: number};
	readonly idle: IdleFigures[];
	readonly firstFrame: Record<string, FirstFrame[]>;
	readonly files: FileMemoryFigures[];
	readonly bigPlan: BigPlanFigures[];
	/** Peak memory against hostile loopback servers and a flooding exec plugin. */
	readonly hostile: HostileFigures[];
	/** planwatch, kubectl and k9s on a real kube-apiserver. */
	readonly side: SideFigures[];
	/** Why a side-by-side client is missing (e.g. no Go to build k9s). */
	readonly notes: string[];
	/** Sections that failed, one line each. */
	readonly errors: string[];
};

type Row = {readonly figure: string; readonly planwatch?: Spread; readonly kubectl?: Spread; readonly budget?: string; readonly met?: boolean; readonly digits: number};

function show(s: Spread | undefined, digits: number): string {
	if (!s) {
		return '–';
	}

	const f = (n: number) => n.toFixed(digits);
	return s.runs === 1 || s.min === s.max ? f(s.median) : `${f(s.median)} [${f(s.min)}–${f(s.max)}]`;
}

function ratio(row: Row): string {
	if (!row.planwatch || !row.kubectl || row.kubectl.median === 0) {
		return '';
	}

	return `${(row.planwatch.median / row.kubectl.median).toFixed(2)}×`;
}

export function renderTable(results: Results): string {
	const rows: Row[] = [];
	for (const f of results.frames) {
		if (f.framesPerChange !== undefined) {
			// A change off screen: what it costs, and that it costs no frame.
			const frames = {median: f.framesPerChange, min: f.framesPerChange, max: f.framesPerChange, runs: 1};
			rows.push({figure: `Ink frames per change (in process) · ${f.name}`, planwatch: frames, digits: 2, budget: '0', met: f.framesPerChange === 0});
			rows.push({figure: `CPU ms per change (process) · ${f.name}`, planwatch: {median: f.cpuMs, min: f.cpuMs, max: f.cpuMs, runs: 1}, digits: 3});
			rows.push({figure: `bytes per change · ${f.name}`, planwatch: {median: f.bytesPerFrame, min: f.bytesPerFrame, max: f.bytesPerFrame, runs: 1}, digits: 0});
			rows.push({figure: `KiB allocated per change · ${f.name}`, planwatch: {median: f.kibPerFrame, min: f.kibPerFrame, max: f.kibPerFrame, runs: 1}, digits: 1});
			continue;
		}

		// Issue #23's frame budget is for one update or step (ten updates a frame is a figure, not a goal).
		const oneChange = (f.name.includes('one update') || f.name.includes('moves on')) && !f.name.includes('10000');
		const budget = oneChange ? '≤ 5 ms' : undefined;
		const p50: Spread = {median: f.p50, min: f.p50, max: f.p50, runs: 1};
		rows.push({figure: `frame ms p50 (in process) · ${f.name}`, planwatch: p50, digits: 2, ...(budget ? {budget, met: f.p50 <= 5} : {})});
		rows.push({figure: `frame ms p99 (in process) · ${f.name}`, planwatch: {median: f.p99, min: f.p99, max: f.p99, runs: 1}, digits: 2});
		rows.push({figure: `of which the change ms p50 (store adapting the object) · ${f.name}`, planwatch: {median: f.changeP50, min: f.changeP50, max: f.changeP50, runs: 1}, digits: 2});
		rows.push({figure: `CPU ms per frame (process) · ${f.name}`, planwatch: {median: f.cpuMs, min: f.cpuMs, max: f.cpuMs, runs: 1}, digits: 2});
		rows.push({figure: `bytes per frame · ${f.name}`, planwatch: {median: f.bytesPerFrame, min: f.bytesPerFrame, max: f.bytesPerFrame, runs: 1}, digits: 0});
		rows.push({figure: `KiB allocated per frame · ${f.name}`, planwatch: {median: f.kibPerFrame, min: f.kibPerFrame, max: f.kibPerFrame, runs: 1}, digits: 1});
	}

	const counts = [...new Set(results.watch.map(w => w.objects))].sort((a, b) => a - b);
	const of = (client: string, objects: number) => results.watch.filter(w => w.client === client && w.objects === objects);
	const rateOf = (list: WatchFigures[], rate: number) => list.map(w => w.rates.find(r => r.rate === rate)).filter((r): r is RateFigures => r !== undefined);
	const rateList = [...new Set(results.watch.flatMap(w => w.rates.map(r => r.rate)))].sort((a, b) => a - b);

	for (const objects of counts) {
		const pw = of('planwatch', objects);
		const kc = of('kubectl', objects);
		for (const rate of rateList) {
			const p = rateOf(pw, rate);
			const k = rateOf(kc, rate);
			const key = objects === 1000 && rate === 100;
			const p99 = spread(p.map(r => r.p99));
			const k99 = spread(k.map(r => r.p99));
			const missed = p.reduce((a, r) => a + r.missed, 0);
			rows.push({figure: `latency p50 ms · ${objects} objects · ${rate}/s`, planwatch: spread(p.map(r => r.p50)), kubectl: spread(k.map(r => r.p50)), digits: 1});
			rows.push({
				figure: `latency p99 ms · ${objects} objects · ${rate}/s${missed > 0 ? ` (${missed} updates never shown)` : ''}`,
				planwatch: p99,
				kubectl: k99,
				digits: 1,
				...(key ? {budget: '≤ 50 ms and ≤ 1.5× kubectl', met: p99 !== undefined && p99.median <= 50 && (k99 === undefined || p99.median <= 1.5 * k99.median) && missed === 0} : {}),
			});
			rows.push({figure: `CPU % of a core · ${objects} objects · ${rate}/s`, planwatch: spread(p.map(r => r.cpu * 100)), kubectl: spread(k.map(r => r.cpu * 100)), digits: 1});
			rows.push({
				figure: `bytes to the terminal per update · ${objects} objects · ${rate}/s`,
				planwatch: spread(p.map(r => r.bytesPerUpdate)),
				kubectl: spread(k.map(r => r.bytesPerUpdate)),
				digits: 0,
			});
		}

		const offOf = (list: WatchFigures[]) => list.map(w => w.offScreen).filter((o): o is NonNullable<WatchFigures['offScreen']> => o !== undefined);
		const po = offOf(pw);
		const ko = offOf(kc);
		if (po.length > 0) {
			rows.push({
				figure: `CPU % of a core · ${objects} objects · ${po[0]!.rate}/s, all off screen`,
				planwatch: spread(po.map(o => o.cpu * 100)),
				kubectl: spread(ko.map(o => o.cpu * 100)),
				digits: 1,
			});
			rows.push({
				figure: `bytes to the terminal per update · ${objects} objects · ${po[0]!.rate}/s, all off screen`,
				planwatch: spread(po.map(o => o.bytesPerUpdate)),
				kubectl: spread(ko.map(o => o.bytesPerUpdate)),
				digits: 0,
			});
		}

		rows.push({figure: `CPU % of a core, idle list · ${objects} objects`, planwatch: spread(pw.map(w => w.idleCpu * 100)), kubectl: spread(kc.map(w => w.idleCpu * 100)), digits: 2});
		rows.push({figure: `bytes per idle second, list · ${objects} objects`, planwatch: spread(pw.map(w => w.idleBytesPerSecond)), kubectl: spread(kc.map(w => w.idleBytesPerSecond)), digits: 0});
		const rss = spread(pw.map(w => w.rssMiB));
		rows.push({
			figure: `RSS MiB after the updates · ${objects} objects`,
			planwatch: rss,
			kubectl: spread(kc.map(w => w.rssMiB)),
			digits: 0,
			...(objects === 10_000 ? {budget: '≤ 200 MB', met: rss !== undefined && rss.max * 1.048_576 <= 200} : {}),
		});
		rows.push({figure: `RSS peak MiB · ${objects} objects`, planwatch: spread(pw.map(w => w.peakMiB)), kubectl: spread(kc.map(w => w.peakMiB)), digits: 0});
		rows.push({figure: `start to full list ms · ${objects} objects`, planwatch: spread(pw.map(w => w.readyMs)), kubectl: spread(kc.map(w => w.readyMs)), digits: 0});
	}

	for (const rate of [...new Set(results.record.flatMap(w => w.rates.map(r => r.rate)))].sort((a, b) => a - b)) {
		const cpuOf = (client: string) => spread(rateOf(results.record.filter(w => w.client === client), rate).map(r => r.cpu * 100));
		const without = cpuOf('planwatch');
		const recording = cpuOf('planwatch --record');
		const added = without && recording ? ((recording.median - without.median) / without.median) * 100 : undefined;
		rows.push({figure: `CPU % of a core · 1000 objects · ${rate}/s, without --record`, planwatch: without, digits: 1});
		rows.push({
			figure: `CPU % of a core · 1000 objects · ${rate}/s, with --record${added === undefined ? '' : ` (${added >= 0 ? '+' : ''}${added.toFixed(1)} %)`}`,
			planwatch: recording,
			digits: 1,
			...(rate === 100 ? {budget: '≤ +10 % CPU', met: added !== undefined && added <= 10} : {}),
		});
	}

	if (results.recordEncode) {
		const {micros, chars} = results.recordEncode;
		rows.push({figure: `--record encoding per update, µs (${chars.toFixed(0)} characters; at 100/s: ${((micros * 100) / 10_000).toFixed(2)} % of a core)`, planwatch: spread([micros]), digits: 1});
	}

	if (results.recorderCpu) {
		const {micros} = results.recorderCpu;
		rows.push({
			figure: `--record CPU per update in process, µs (encoding, buffer, file writes; at 100/s: ${((micros * 100) / 10_000).toFixed(2)} % of a core)`,
			planwatch: spread([micros]),
			digits: 1,
		});
	}

	if (results.idle.length > 0) {
		const cpu = spread(results.idle.map(i => i.cpu * 100));
		const bytes = spread(results.idle.map(i => i.bytesPerSecond));
		rows.push({figure: 'CPU % of a core, idle, one object (tree, timers ticking)', planwatch: cpu, digits: 2, budget: '≤ 1 %', met: cpu !== undefined && cpu.median <= 1});
		rows.push({figure: 'bytes per idle second, one object (tree)', planwatch: bytes, digits: 0, budget: '≤ 200', met: bytes !== undefined && bytes.median <= 200});
		rows.push({figure: 'RSS MiB, one object (tree)', planwatch: spread(results.idle.map(i => i.rssMiB)), digits: 0});
	}

	for (const [name, list] of Object.entries(results.firstFrame)) {
		const object = spread(list.map(f => f.objectMs));
		const shipped = name.startsWith('bundled (as shipped');
		rows.push({figure: `first frame ms, cold start · ${name}`, planwatch: spread(list.map(f => f.firstOutputMs)), digits: 0});
		rows.push({figure: `CPU ms used by the first frame · ${name}`, planwatch: spread(list.map(f => f.firstCpuMs)), digits: 0});
		rows.push({
			figure: `first frame with the object's tree ms · ${name}`,
			planwatch: object,
			digits: 0,
			...(shipped ? {budget: '≤ 400 ms', met: object !== undefined && object.median <= 400} : {}),
		});
		rows.push({figure: `CPU ms used by then · ${name}`, planwatch: spread(list.map(f => f.objectCpuMs)), digits: 0});
	}

	for (const output of ['plain', 'json', 'tui'] as const) {
		const list = results.files.filter(f => f.output === output && f.shape !== 'json-list');
		if (list.length > 0) {
			const peak = spread(list.map(f => f.peakMiB));
			rows.push({
				figure: `peak RSS MiB, ${list[0]!.objects} Instances from a file (10000: 15 MB) · -o ${output}`,
				planwatch: peak,
				digits: 0,
				budget: '< 400 MB',
				met: peak !== undefined && peak.median * 1.048_576 < 400,
			});
			rows.push({figure: `seconds to ${output === 'tui' ? 'the list on screen' : 'the end'}, same file · -o ${output}`, planwatch: spread(list.map(f => f.seconds)), digits: 1});
		}
	}

	const jsonList = results.files.filter(f => f.shape === 'json-list');
	if (jsonList.length > 0) {
		const peak = spread(jsonList.map(f => f.peakMiB));
		rows.push({
			figure: `peak RSS MiB, ${jsonList[0]!.objects} Instances as one JSON List (kubectl get -o json) · -o plain`,
			planwatch: peak,
			digits: 0,
			budget: '< 400 MB',
			met: peak !== undefined && peak.median * 1.048_576 < 400,
		});
		rows.push({figure: 'seconds to the end, same List · -o plain', planwatch: spread(jsonList.map(f => f.seconds)), digits: 1});
	}

	for (const [name, what] of Object.entries(hostileCases)) {
		const list = results.hostile.filter(h => h.name === name);
		if (list.length > 0) {
			const peak = spread(list.map(h => h.peakMiB));
			const codes = [...new Set(list.map(h => String(h.exitCode)))].join(', ');
			rows.push({figure: `peak RSS MiB against ${what} (exit ${codes})`, planwatch: peak, digits: 0, budget: '≤ 400 MB', met: peak !== undefined && peak.median * 1.048_576 <= 400});
		}
	}

	for (const expanded of [true, false]) {
		const list = results.bigPlan.filter(b => b.expanded === expanded);
		if (list.length > 0) {
			const how = expanded ? 'expanded' : 'as it opens';
			rows.push({figure: `CPU % of a core, idle, ${list[0]!.steps}-step plan ${how} (tree, timers ticking)`, planwatch: spread(list.map(b => b.cpu * 100)), digits: 2});
			rows.push({figure: `key → screen ms (j), ${list[0]!.steps}-step plan ${how}`, planwatch: spread(list.map(b => b.keyMs)), digits: 0});
		}
	}

	const header = '| figure | planwatch | kubectl get -w | planwatch / kubectl | budget |\n|---|---:|---:|---:|---|\n';
	const body = rows
		.map(r => `| ${r.figure} | ${show(r.planwatch, r.digits)} | ${r.kubectl ? show(r.kubectl, r.digits) : ''} | ${ratio(r)} | ${r.budget ? `${r.met ? '✓' : '✗'} ${r.budget}` : ''} |`)
		.join('\n');
	const runs = `${results.runs} run${results.runs === 1 ? '' : 's'} per figure (idle and first frame: their own counts), median [min–max]`;
	const errors = results.errors.length > 0 ? `\nFailed: ${results.errors.join('; ')}\n` : '';
	const notes = results.notes.length > 0 ? `\n${results.notes.join('\n')}\n` : '';
	return `\n## planwatch bench${results.quick ? ' (quick)' : ''}\n\n${results.environment}; ${runs}.\n\n${header}${body}\n${renderSideBySide(results.side)}${notes}${errors}`;
}

/** planwatch | kubectl | k9s on the real kube-apiserver, one row per figure. */
export function renderSideBySide(side: readonly SideFigures[]): string {
	if (side.length === 0) {
		return '';
	}

	const clients = ['planwatch', 'kubectl', 'k9s'] as const;
	const of = (client: string) => side.filter(s => s.client === client);
	const objects = side[0]!.objects;
	const rates = [...new Set(side.flatMap(s => s.rates.map(r => r.rate)))].sort((a, b) => a - b);
	const cell = (list: readonly SideFigures[], value: (s: SideFigures) => number | undefined, digits: number) => show(spread(list.map(s => value(s))), digits);
	const row = (figure: string, value: (s: SideFigures) => number | undefined, digits: number) => `| ${figure} | ${clients.map(c => cell(of(c), value, digits)).join(' | ')} |`;
	const failed = side.flatMap(s => s.rates).reduce((a, r) => a + r.failed, 0);
	const at = (s: SideFigures, rate: number) => s.rates.find(r => r.rate === rate);
	// Bytes written over what a plain writer needs for what changed on screen (pty-client's changes()).
	const ratio = (written: number | undefined, changed: number | undefined) => written === undefined || changed === undefined || changed === 0 ? undefined : written / changed;
	const lines = [
		row('CPU % of a core, idle', s => s.idleCpu * 100, 2),
		row('bytes per idle second', s => s.idleBytesPerSecond, 0),
		row('bytes per idle second changed on screen (plain writer)', s => s.idleChangedBytesPerSecond, 0),
		...rates.flatMap(rate => [
			row(`CPU % of a core · ${rate} updates/s`, s => at(s, rate) === undefined ? undefined : at(s, rate)!.cpu * 100, 1),
			row(`event → screen p50 ms · ${rate} updates/s, probes on screen`, s => at(s, rate)?.p50, 1),
			row(`event → screen p99 ms · ${rate} updates/s, probes on screen`, s => at(s, rate)?.p99, 1),
			row(`updates seen on screen · ${rate} updates/s`, s => at(s, rate)?.seen, 0),
			row(`bytes per second · ${rate} updates/s`, s => at(s, rate)?.bytesPerSecond, 0),
			row(`bytes per second changed on screen (plain writer) · ${rate} updates/s`, s => at(s, rate)?.changedBytesPerSecond, 0),
			row(`bytes written / changed on screen · ${rate} updates/s`, s => ratio(at(s, rate)?.bytesPerSecond, at(s, rate)?.changedBytesPerSecond), 2),
		]),
		...(side.some(s => s.offScreen)
			? [
				row(`CPU % of a core · ${side.find(s => s.offScreen)!.offScreen!.rate} updates/s, 9 in 10 off screen`, s => s.offScreen === undefined ? undefined : s.offScreen.cpu * 100, 1),
				row('event → screen p50 ms of the probes on screen · 9 in 10 off screen', s => s.offScreen?.p50, 1),
				row('event → screen p99 ms of the probes on screen · 9 in 10 off screen', s => s.offScreen?.p99, 1),
				row('updates seen on screen · 9 in 10 off screen', s => s.offScreen?.seen, 0),
				row(`bytes per second · ${side.find(s => s.offScreen)!.offScreen!.rate} updates/s, 9 in 10 off screen`, s => s.offScreen?.bytesPerSecond, 0),
				row('bytes per second changed on screen (plain writer) · 9 in 10 off screen', s => s.offScreen?.changedBytesPerSecond, 0),
			]
			: []),
		row('RSS MiB at the end', s => s.rssMiB, 0),
		row('RSS peak MiB', s => s.peakMiB, 0),
		row('RSS at the end: anonymous (heap, malloc) MiB', s => s.anonMiB, 0),
		row('RSS at the end: pages of files (the executable\'s code, libraries) MiB', s => s.fileMiB, 0),
		row('start to the first object on screen ms', s => s.readyMs, 0),
	];
	return `\n### Side by side on a real kube-apiserver · ${objects} ActionSets${failed > 0 ? ` (${failed} updates failed)` : ''}\n\n| figure | planwatch | kubectl get -w | k9s ` +
		`|\n|---|---:|---:|---:|\n${lines.join('\n')}\n`;
}
