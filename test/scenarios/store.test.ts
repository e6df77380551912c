/** The scenarios through the demo source, the Store and the model adapters: what the dashboard will show. */
import {describe, expect, it} from 'vitest';
import type {PlanObject} from '../../source/model/plan-tree.js';
import {findScenario} from '../../source/scenarios/catalog.js';
import {scenarioDuration} from '../../source/scenarios/scenario.js';
import {createDemoSource} from '../../source/sources/demo-source.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {Store, type StoreSnapshot} from '../../source/state/store.js';

type Watched = {final: StoreSnapshot; seen: (name: string) => PlanObject[]; object: (name: string) => PlanObject};

/** Plays a scenario into a Store, looking at it every 250 ms of clock time. */
function watch(name: string): Watched {
	const scenario = findScenario(name)!;
	const clock = new FakeClock();
	const store = new Store(clock);
	createDemoSource({scenarios: [scenario], clock}).start(store.apply);
	// Copy the object list when looking: the Store updates its sorted array in place (reported to the lead).
	const look = (): StoreSnapshot => {
		const s = store.getSnapshot();
		return {...s, objects: [...s.objects]};
	};

	const snapshots: StoreSnapshot[] = [look()];
	for (let t = 0; t <= scenarioDuration(scenario) + 250; t += 250) {
		clock.advance(250);
		snapshots.push(look());
	}

	const final = snapshots.at(-1)!;
	return {
		final,
		seen: objectName => snapshots.flatMap(s => s.objects.filter(o => o.name === objectName)),
		object(objectName) {
			const o = final.objects.find(x => x.name === objectName);
			if (!o) {
				throw new Error(`no ${objectName} in ${final.objects.map(x => x.name).join(', ')}`);
			}

			return o;
		},
	};
}

describe('scenarios as the dashboard sees them', () => {
	it('mysql-deploy: retrying while init is in ERROR, then succeeded', () => {
		const w = watch('mysql-deploy');
		expect(w.seen('mysql-instance').some(o => o.state === 'retrying')).toBe(true);
		expect(w.seen('mysql-instance').some(o => o.outcome === 'failed')).toBe(false);
		expect(w.object('mysql-instance')).toMatchObject({outcome: 'succeeded', active: 'deploy', status: 'COMPLETE'});
		expect(w.final.synced).toBe(true);
		expect(w.final.connection).toEqual({status: 'live'});
	});

	it('zookeeper-deploy: succeeded, the parallel phase shown with its strategy', () => {
		const w = watch('zookeeper-deploy');
		const zk = w.object('zookeeper-instance');
		expect(zk.outcome).toBe('succeeded');
		const deploy = zk.tree.find(n => n.name === 'deploy')!;
		expect(deploy.children.map(p => [p.name, p.strategy])).toEqual([['zookeeper', 'parallel'], ['validation', 'serial']]);
	});

	it('kudo-fatal: failed, the summary says where', () => {
		const o = watch('kudo-fatal').object('mysql-orders');
		expect(o.outcome).toBe('failed');
		expect(o.summary).toMatch(/restore/);
		expect(o.summary).toMatch(/backoff limit/);
	});

	it('kudo-uid-race: queued while the status shows the previous run, never succeeded early', () => {
		const w = watch('kudo-uid-race');
		const seen = w.seen('mysql-billing');
		const firstQueued = seen.findIndex(o => o.wait.kind === 'Instance' && o.wait.queued);
		expect(firstQueued).toBeGreaterThan(0);
		// From the trigger until the controller picks it up, nothing may read as the new run's success.
		const queued = seen.filter(o => o.wait.kind === 'Instance' && o.wait.queued);
		expect(queued.length).toBeGreaterThanOrEqual(16); // ≥ 4 s at 250 ms
		expect(w.object('mysql-billing')).toMatchObject({outcome: 'succeeded', active: 'backup'});
	});

	it('mysql-backup: the deferPhase is known to run while its state is pending, then succeeded', () => {
		const w = watch('mysql-backup');
		expect(w.seen('backup-rslmb').some(o => o.wait.kind === 'ActionSet' && o.wait.deferRunning && o.status === 'running')).toBe(true);
		expect(w.object('backup-rslmb')).toMatchObject({outcome: 'succeeded', percent: 100});
	});

	it('backup-defer-failed: failed, because of the deferPhase', () => {
		const o = watch('backup-defer-failed').object('backup-glptq');
		expect(o.outcome).toBe('failed');
		expect(o.summary).toMatch(/deferPhase failed/);
		expect(o.summary).toMatch(/not found/);
	});

	it('postgres-restore-failed: failed, and the summary says the deferPhase completed', () => {
		const w = watch('postgres-restore-failed');
		const o = w.object('restore-backup-glptq-6jzt4');
		expect(o.outcome).toBe('failed');
		expect(o.summary).toMatch(/RestoreFromObjectStore/);
		expect(o.summary).toMatch(/deferPhase StartupApplication completed/);
		// While the deferPhase cleans up, the object is failed but the deferPhase is seen running.
		expect(w.seen('restore-backup-glptq-6jzt4').some(x => x.status === 'failed' && x.wait.kind === 'ActionSet' && x.wait.deferRunning)).toBe(true);
	});

	it('restore-defer-both-failed: failed, the summary says the deferPhase failed too', () => {
		const o = watch('restore-defer-both-failed').object('restore-backup-glptq-m4k8v');
		expect(o.outcome).toBe('failed');
		expect(o.summary).toMatch(/deferPhase StartupApplication failed/);
	});

	it('actionset-start-failed: failed, and the launch failure event says the pending deferPhase will never run', () => {
		const o = watch('actionset-start-failed').object('backup-mx7pd');
		expect(o.outcome).toBe('failed');
		expect(o.wait).toMatchObject({kind: 'ActionSet', deferPending: false, deferRunning: false});
		expect(o.summary).toMatch(/mysql-relase.*deferPhase recordBackupCompletion will not run/);
	});

	it('many: thirty objects, every one finished, both outcomes present', () => {
		const w = watch('many');
		expect(w.final.objects).toHaveLength(30);
		const outcomes = w.final.objects.map(o => o.outcome);
		expect(outcomes.filter(o => o === 'running' || o === 'unknown')).toEqual([]);
		expect(outcomes.filter(o => o === 'failed').length).toBeGreaterThan(0);
		expect(outcomes.filter(o => o === 'succeeded').length).toBeGreaterThan(15);
	});

	it('tour: four objects with the outcomes of the four demo stories', () => {
		const w = watch('tour');
		expect(w.final.objects.map(o => `${o.kind}/${o.name}=${o.outcome}`)).toEqual([
			'ActionSet/backup-rslmb=succeeded',
			'ActionSet/restore-backup-glptq-6jzt4=failed',
			'Instance/mysql-instance=succeeded',
			'Instance/zookeeper-instance=succeeded',
		]);
		expect(w.final.events.get('ActionSet/default/backup-rslmb')?.map(e => e.reason)).toContain('Started deferPhase');
	});
});
