import {describe, expect, it} from 'vitest';
import {etaOf, expectationOf, formatEta, median, nodeEta, planNode} from '../../source/model/eta.js';
import {mysqlDeploying} from '../helpers/plan-objects.js';

describe('eta', () => {
	it.each([
		[[5], 5],
		[[3, 1, 2], 2],
		[[4, 1, 3, 2], 2.5],
		[[10, 10, 100], 10],
	])('median of %j is %d', (values, expected) => {
		expect(median(values)).toBe(expected);
	});

	it('an expectation is the median and the slowest of valid durations', () => {
		expect(expectationOf([60_000, 120_000, 90_000, Number.NaN, -1])).toEqual({medianMs: 90_000, maxMs: 120_000, runs: 3});
		expect(expectationOf([])).toBeUndefined();
	});

	it.each([
		// elapsed, expected eta, text
		[0, {kind: 'left', ms: 120_000}, '~2m left'],
		[75_000, {kind: 'left', ms: 45_000}, '~45s left'],
		// past the median, not past the slowest run: the slowest run is what is left to go on
		[150_000, {kind: 'left', ms: 30_000}, '~30s left'],
		[152_000, {kind: 'left', ms: 28_000}, '~30s left'],
		[180_000, {kind: 'left', ms: 0}, '~<1s left'],
		[240_000, {kind: 'overdue', ms: 60_000}, 'overdue 1m'],
	] as const)('median 2m, slowest 3m, elapsed %d ms → %j', (elapsed, eta, text) => {
		const e = etaOf({medianMs: 120_000, maxMs: 180_000, runs: 3}, elapsed);
		expect(e).toEqual(eta);
		expect(formatEta(e)).toBe(text);
	});

	it('estimates round to whole minutes from a minute on, to 5 s below', () => {
		expect(formatEta({kind: 'left', ms: 25 * 60_000 + 31_000})).toBe('~26m left');
		expect(formatEta({kind: 'left', ms: 80_000})).toBe('~1m left');
		expect(formatEta({kind: 'left', ms: 90_000})).toBe('~2m left');
		expect(formatEta({kind: 'left', ms: 1500})).toBe('~5s left');
		expect(formatEta({kind: 'overdue', ms: 2 * 3_600_000 + 4 * 60_000})).toBe('overdue 2h4m');
	});

	it('only a running node with a known start has an ETA', () => {
		const expectations = new Map([['a', {medianMs: 10_000, maxMs: 20_000, runs: 2}]]);
		expect(nodeEta({id: 'a', state: 'running'}, expectations, 1000, 5000)).toEqual({kind: 'left', ms: 6000});
		expect(nodeEta({id: 'a', state: 'retrying'}, expectations, 1000, 5000)).toEqual({kind: 'left', ms: 6000});
		expect(nodeEta({id: 'a', state: 'succeeded'}, expectations, 1000, 5000)).toBeUndefined();
		expect(nodeEta({id: 'a', state: 'running'}, expectations, undefined, 5000)).toBeUndefined();
		expect(nodeEta({id: 'b', state: 'running'}, expectations, 1000, 5000)).toBeUndefined();
	});

	it("the plan's ETA node is the active running top-level node", () => {
		expect(planNode(mysqlDeploying)?.name).toBe('deploy');
		expect(planNode({...mysqlDeploying, tree: mysqlDeploying.tree.map(n => ({...n, state: 'succeeded' as const}))})).toBeUndefined();
	});
});
