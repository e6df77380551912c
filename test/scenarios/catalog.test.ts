import {describe, expect, it} from 'vitest';
import {findScenario, scenarioNames, scenarios} from '../../source/scenarios/catalog.js';
import {scenarioDuration} from '../../source/scenarios/scenario.js';
import {actionSetProblems, eventProblems, instanceProblems} from './invariants.js';
import {at, play, testNamespace} from './play.js';

describe('scenario catalog', () => {
	it('lists every scenario once, tour first, names kebab-case', () => {
		expect(scenarioNames).toEqual([
			'tour',
			'mysql-deploy',
			'zookeeper-deploy',
			'kudo-fatal',
			'kudo-uid-race',
			'mysql-backup',
			'backup-defer-failed',
			'postgres-restore-failed',
			'restore-defer-both-failed',
			'actionset-start-failed',
			'why-stuck',
			'many',
		]);
		for (const s of scenarios) {
			expect(findScenario(s.name)).toBe(s);
			expect(s.title.length).toBeGreaterThan(10);
			expect(s.description.length).toBeGreaterThan(s.title.length);
		}
	});

	it.each(scenarios.map(s => [s.name, s] as const))('%s is in play order and lasts at most a minute at speed 1', (_name, s) => {
		const times = s.objects.map(step => step.at);
		expect(times).toEqual([...times].sort((a, b) => a - b));
		expect(scenarioDuration(s)).toBeLessThanOrEqual(60_000);
		expect(scenarioDuration(s)).toBeGreaterThan(1000);
		// Definitions pre-exist; everything a controller writes comes later.
		for (const step of s.objects) {
			if (step.resource === 'OperatorVersion' || step.resource === 'Blueprint') {
				expect(step).toMatchObject({op: 'create', at: 0});
			}
		}
	});
});

describe.each(scenarios.map(s => [s.name, s] as const))('%s played step by step', (_name, s) => {
	const played = play(s);

	it('plays to the end without an impossible step', () => {
		expect(played.batches.at(-1)?.at).toBe(scenarioDuration(s));
		expect(played.changes.length).toBeGreaterThan(0);
	});

	it('keeps every object valid at every step', () => {
		const problems: string[] = [];
		for (const batch of played.batches) {
			for (const change of batch.changes) {
				const o = change.object;
				const where = `t=${batch.at} ${change.resource}/${o.metadata?.name ?? ''}`;
				if (change.resource === 'Event') {
					problems.push(...eventProblems(o).map(p => `${where}: ${p}`));
				}
			}

			// After the whole batch (KUDO writes spec then status at the same instant).
			for (const [key, o] of batch.objects) {
				const where = `t=${batch.at} ${key}`;
				if (o.kind === 'Instance') {
					const ov = batch.objects.get(`OperatorVersion/${at(o, 'spec', 'operatorVersion', 'name') as string}`);
					expect(ov, `${where}: OperatorVersion exists`).toBeDefined();
					problems.push(...instanceProblems(o, ov, true).map(p => `${where}: ${p}`));
				} else if (o.kind === 'ActionSet') {
					const bp = batch.objects.get(`Blueprint/${at(o, 'spec', 'actions', 0, 'blueprint') as string}`);
					expect(bp, `${where}: Blueprint exists`).toBeDefined();
					problems.push(...actionSetProblems(o, bp).map(p => `${where}: ${p}`));
				}
			}

			// Between the two writes of one instant the spec is ahead of the status; the rest must hold anyway.
			for (const change of batch.changes) {
				if (change.resource === 'Instance' && change.type === 'upsert') {
					const o = change.object;
					const ov = batch.objects.get(`OperatorVersion/${at(o, 'spec', 'operatorVersion', 'name') as string}`);
					problems.push(...instanceProblems(o, ov, false).map(p => `t=${batch.at} Instance/${o.metadata?.name ?? ''} (mid-batch): ${p}`));
				}
			}
		}

		expect(problems).toEqual([]);
	});

	it('never goes back in time or in resourceVersion', () => {
		let version = 0;
		const lastUpdated = new Map<string, string>();
		for (const change of played.changes) {
			const rv = Number(change.object.metadata?.resourceVersion);
			expect(rv).toBeGreaterThan(version);
			version = rv;
			if (change.resource === 'Instance') {
				for (const [plan, status] of Object.entries((at(change.object, 'status', 'planStatus') ?? {}) as Record<string, {uid?: string; lastUpdatedTimestamp?: string}>)) {
					const k = `${change.object.metadata?.name ?? ''}/${plan}/${status.uid ?? ''}`;
					if (status.lastUpdatedTimestamp) {
						expect(status.lastUpdatedTimestamp >= (lastUpdated.get(k) ?? '')).toBe(true);
						lastUpdated.set(k, status.lastUpdatedTimestamp);
					}
				}
			}
		}
	});

	it('puts every object in the player namespace', () => {
		for (const change of played.changes) {
			expect(change.object.metadata?.namespace).toBe(testNamespace);
		}
	});

	it('ends with every Instance and ActionSet finished', () => {
		const last = played.batches.at(-1)!;
		for (const [key, o] of last.objects) {
			if (o.kind === 'Instance') {
				const plans = Object.values((at(o, 'status', 'planStatus') ?? {}) as Record<string, {status: string}>);
				expect(plans.some(p => ['PENDING', 'IN_PROGRESS', 'ERROR'].includes(p.status)), key).toBe(false);
				expect(at(o, 'spec', 'planExecution'), key).toEqual({});
			} else if (o.kind === 'ActionSet') {
				expect(['complete', 'failed'], key).toContain(at(o, 'status', 'state'));
			}
		}
	});
});
