import {describe, expect, it} from 'vitest';
import {compactRuns, formatRunRecord, parseRunRecord, RunHistory, type RunRecord} from '../../source/model/run-history.js';
import {mysqlDeploying} from '../helpers/plan-objects.js';

function run(n: number, ms: number, extra: Partial<RunRecord> = {}): RunRecord {
	return {
		v: 1,
		kind: 'Instance',
		group: 'mysql-5.7-0.3.0',
		top: 'deploy',
		run: `r${n}`,
		at: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
		outcome: 'succeeded',
		durations: [
			{path: [], ms},
			{path: ['deploy', 'init'], ms: ms / 2},
		],
		...extra,
	};
}

describe('run history records', () => {
	it('round-trips a record through a line', () => {
		const r = run(1, 1000);
		expect(formatRunRecord(r).endsWith('\n')).toBe(true);
		expect(parseRunRecord(formatRunRecord(r))).toEqual(r);
	});

	it.each([
		['not json', '{'],
		['another version', JSON.stringify({...run(1, 1), v: 2})],
		['a negative duration', JSON.stringify({...run(1, 1), durations: [{path: [], ms: -1}]})],
		['a path that is not names', JSON.stringify({...run(1, 1), durations: [{path: [1], ms: 1}]})],
		['a bad time', JSON.stringify({...run(1, 1), at: 'yesterday'})],
		['an unknown kind', JSON.stringify({...run(1, 1), kind: 'Pod'})],
		['a huge name', JSON.stringify({...run(1, 1), top: 'x'.repeat(300)})],
	])('skips a line with %s', (_, line) => {
		expect(parseRunRecord(line)).toBeUndefined();
	});

	it('compaction keeps the last N runs per key, drops repeated runs, and keeps file order', () => {
		const other = (n: number) => run(n, 5, {top: 'backup'});
		const records = [run(1, 1), other(1), run(2, 2), run(2, 2), run(3, 3), other(2), run(4, 4)];
		expect(compactRuns(records, 2).map(r => `${r.top}:${r.run}`)).toEqual(['backup:r1', 'deploy:r3', 'backup:r2', 'deploy:r4']);
	});
});

describe('RunHistory', () => {
	it('gives each node of an object the median and the slowest of its past successful runs', () => {
		const history = new RunHistory([run(1, 60_000), run(2, 120_000), run(3, 90_000), run(4, 999_000, {outcome: 'failed'})]);
		const e = history.expectations(mysqlDeploying);
		expect(e.get('plan:deploy')).toEqual({medianMs: 90_000, maxMs: 120_000, runs: 3});
		expect(e.get('plan:deploy/phase:deploy/step:init')).toEqual({medianMs: 45_000, maxMs: 60_000, runs: 3});
		expect(e.has('plan:deploy/phase:deploy')).toBe(false);
		expect(e.has('plan:backup')).toBe(false);
	});

	it('another operator version is another key', () => {
		const history = new RunHistory([run(1, 60_000, {group: 'mysql-5.7-0.4.0'})]);
		expect(history.expectations(mysqlDeploying).size).toBe(0);
	});

	it("a realm's runs (the demo's) are not another realm's", () => {
		const demoRuns = [run(1, 60_000, {group: 'demo/mysql-5.7-0.3.0'})];
		expect(new RunHistory(demoRuns).expectations(mysqlDeploying).size).toBe(0);
		expect(new RunHistory(demoRuns, undefined, 'demo/').expectations(mysqlDeploying).get('plan:deploy')?.medianMs).toBe(60_000);
		expect(new RunHistory([run(1, 60_000)], undefined, 'demo/').expectations(mysqlDeploying).size).toBe(0);
	});

	it('caches per adapted object and recomputes when a run is added', () => {
		const history = new RunHistory([run(1, 60_000)]);
		const first = history.expectations(mysqlDeploying);
		expect(history.expectations(mysqlDeploying)).toBe(first);
		expect(history.add(run(2, 120_000))).toBe(true);
		expect(history.add(run(2, 120_000))).toBe(false);
		const second = history.expectations(mysqlDeploying);
		expect(second).not.toBe(first);
		expect(second.get('plan:deploy')?.medianMs).toBe(90_000);
	});

	it('keeps at most N runs per key in memory', () => {
		const history = new RunHistory([], 3);
		for (let i = 1; i <= 5; i++) {
			history.add(run(i, i * 1000));
		}

		expect(history.size).toBe(3);
		expect(history.expectations(mysqlDeploying).get('plan:deploy')).toEqual({medianMs: 4000, maxMs: 5000, runs: 3});
	});

	it.each([
		['the same run again (a replay of what was filed live)', run(3, 3000), false],
		['an older run when the key is full (a replay of an old recording)', run(1, 1000, {run: 'old'}), false],
		['a newer run', run(9, 9000), true],
	])('%s: filed %s', (_, record, filed) => {
		const history = new RunHistory([run(2, 2000), run(3, 3000), run(4, 4000)], 3);
		expect(history.add(record)).toBe(filed);
		expect(history.size).toBe(3);
	});

	it('files an older run while the key has room', () => {
		const history = new RunHistory([run(2, 2000), run(3, 3000)], 3);
		expect(history.add(run(1, 1000))).toBe(true);
	});
});
