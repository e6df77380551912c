import {afterEach, describe, expect, expectTypeOf, it} from 'vitest';
import {PlanwatchError, waitForPlan, watchPlans, type ExitCode, type PlanKind, type PlanWatchOptions, type RunOutcome, type WaitForPlanResult} from '../source/index.js';
import {actionSets, blueprints, instances, operatorVersions, WatchServer, writeKubeconfig} from './helpers/watch-server.js';
import {loadFixture, loadFixtureObject} from './helpers/fixtures.js';
import {waitUntil} from './helpers/wait-until.js';

type Putable = Parameters<WatchServer['put']>[1];

let server: WatchServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

async function cluster(): Promise<{server: WatchServer; kubeconfig: string}> {
	server = await WatchServer.start();
	const kubeconfig = await writeKubeconfig({server: server.url, namespace: 'default'});
	return {server, kubeconfig};
}

describe('library API', () => {
	it('types exitCode as the CLI\'s codes and exports the outcome type (checked by tsc)', () => {
		expectTypeOf<WaitForPlanResult['exitCode']>().toEqualTypeOf<0 | 1 | 2 | 3 | 4 | 130 | 141>();
		expectTypeOf<ExitCode>().toEqualTypeOf<0 | 1 | 2 | 3 | 4 | 130 | 141>();
		expectTypeOf<WaitForPlanResult['outcome']>().toEqualTypeOf<RunOutcome>();
		expectTypeOf<RunOutcome>().toEqualTypeOf<'succeeded' | 'failed' | 'timeout' | 'cluster-error' | 'aborted' | 'error'>();
		expect(new PlanwatchError('x', 4)).toBeInstanceOf(Error);
	});

	it('waitForPlan resolves with the outcome when an ActionSet completes, deferPhase included', async () => {
		const {server, kubeconfig} = await cluster();
		const running = loadFixtureObject('kanister/actionset-mysql-backup-defer-running.yaml') as Putable;
		const complete = loadFixtureObject('kanister/actionset-mysql-backup-complete.yaml') as Putable;
		const ns = running.metadata.namespace!;
		for (const bp of loadFixture('kanister/blueprint-mysql-defer.yaml')) {
			server.put(blueprints, {...bp, metadata: {...bp.metadata, namespace: ns}} as Putable);
		}

		server.put(actionSets, running);
		const waiting = waitForPlan({kubeconfig, namespace: ns, targets: [`actionset/${running.metadata.name}`], timeout: '1m'});
		// The controller "finishes" once planwatch watches: the change must arrive through the watch.
		await waitUntil(() => server.count({plural: 'actionsets', watch: true}) > 0, 'the actionsets watch');
		server.put(actionSets, {...complete, metadata: {...complete.metadata, name: running.metadata.name, namespace: ns}});
		const result = await waiting;
		expect(result).toMatchObject({exitCode: 0, outcome: 'succeeded'});
		expect(result.objects).toHaveLength(1);
		expect(result.message).toMatch(/deferPhase/);
	});

	it('waitForPlan fails fast on FATAL_ERROR and aborts with 130', async () => {
		const {server, kubeconfig} = await cluster();
		for (const ov of loadFixture('kudo/operatorversion-mysql.yaml')) {
			server.put(operatorVersions, ov as Putable);
		}

		server.put(instances, loadFixtureObject('kudo/instance-mysql-restore-fatal-error.yaml') as Putable);
		const failed = await waitForPlan({kubeconfig, targets: ['instance/mysql-instance']});
		expect(failed.exitCode).toBe(1);

		server.put(instances, {...loadFixtureObject('kudo/instance-mysql-deploy-in-progress.yaml'), metadata: {name: 'slow', namespace: 'default'}} as Putable);
		const controller = new AbortController();
		const pending = waitForPlan({kubeconfig, targets: ['inst/slow'], signal: controller.signal});
		await waitUntil(() => server.count({plural: 'instances', watch: true}) > 1, 'the second instances watch');
		controller.abort();
		expect(await pending).toMatchObject({exitCode: 130, outcome: 'aborted'});
	});

	it('waitForPlan returns errors as results: bad target, bad timeout, missing kubeconfig', async () => {
		expect(await waitForPlan({targets: ['pod/x'], kubeconfig: '/nonexistent/config'})).toMatchObject({exitCode: 2, outcome: 'error'});
		const {kubeconfig} = await cluster();
		expect(await waitForPlan({kubeconfig, timeout: 'soon'})).toMatchObject({exitCode: 2, message: expect.stringMatching(/invalid timeout/)});
	});

	it('watchPlans throws a PlanwatchError with the exit code on a fatal cluster error', async () => {
		const {kubeconfig} = await cluster();
		const error: unknown = await (async () => {
			for await (const _ of watchPlans({kubeconfig, targets: ['instance/absent']})) {
				// Snapshots before the fatal one are not what this test is about.
			}
		})().catch((error_: unknown) => error_);
		expect(error).toBeInstanceOf(PlanwatchError);
		expect(error).toMatchObject({exitCode: 4, message: expect.stringMatching(/absent/)});
	});

	it('watchPlans yields snapshots as objects change and ends on abort', async () => {
		const {server, kubeconfig} = await cluster();
		const controller = new AbortController();
		const names: string[][] = [];
		for await (const snapshot of watchPlans({kubeconfig, signal: controller.signal})) {
			names.push(snapshot.objects.map(o => o.name));
			if (names.length === 1) {
				server.put(instances, {...loadFixtureObject('kudo/instance-mysql-deploy-in-progress.yaml'), metadata: {name: 'a', namespace: 'default'}} as Putable);
			} else if (snapshot.objects.length > 0) {
				controller.abort();
			}
		}

		expect(names[0]).toEqual([]);
		expect(names.at(-1)).toEqual(['a']);
	});

	it('types kind as the kinds and the words kubectl users type for them (checked by tsc)', () => {
		expectTypeOf<PlanWatchOptions['kind']>().toEqualTypeOf<PlanKind | undefined>();
		expectTypeOf<'Instance' | 'ActionSet' | 'instances' | 'as' | 'actionsets.cr.kanister.io'>().toMatchTypeOf<PlanKind>();
		expectTypeOf<'pods'>().not.toMatchTypeOf<PlanKind>();
	});

	it('watchPlans with a kind watches only that kind, as planwatch actionsets does: the other is not even listed', async () => {
		const {server, kubeconfig} = await cluster();
		server.put(instances, {...loadFixtureObject('kudo/instance-mysql-deploy-in-progress.yaml'), metadata: {name: 'i', namespace: 'default'}} as Putable);
		server.put(actionSets, {...loadFixtureObject('kanister/actionset-mysql-backup-complete.yaml'), metadata: {name: 'a', namespace: 'default'}} as Putable);
		const controller = new AbortController();
		let kinds: string[] = [];
		for await (const snapshot of watchPlans({kubeconfig, kind: 'actionsets', signal: controller.signal})) {
			kinds = snapshot.objects.map(o => `${o.kind}/${o.name}`);
			controller.abort();
		}

		expect(kinds).toEqual(['ActionSet/a']);
		expect(server.count({plural: 'instances'})).toBe(0);
		expect(server.count({plural: 'actionsets', watch: false})).toBe(1);
	});

	it('waitForPlan with a kind takes bare names as targets of it, and refuses a target of the other kind', async () => {
		const {server, kubeconfig} = await cluster();
		const complete = loadFixtureObject('kanister/actionset-mysql-backup-complete.yaml') as Putable;
		const ns = complete.metadata.namespace!;
		for (const bp of loadFixture('kanister/blueprint-mysql-defer.yaml')) {
			server.put(blueprints, {...bp, metadata: {...bp.metadata, namespace: ns}} as Putable);
		}

		server.put(actionSets, complete);
		const result = await waitForPlan({kubeconfig, namespace: ns, kind: 'ActionSet', targets: [complete.metadata.name], timeout: '1m'});
		expect(result).toMatchObject({exitCode: 0, outcome: 'succeeded'});
		expect(result.objects.map(o => o.name)).toEqual([complete.metadata.name]);
		expect(await waitForPlan({kubeconfig, kind: 'inst', targets: ['actionset/x']})).toMatchObject({exitCode: 2, message: 'target "actionset/x" is not of the kind Instance'});
		// From JavaScript, where the type does not hold: one line, exit 2.
		expect(await waitForPlan({kubeconfig, kind: 'pods' as PlanKind})).toMatchObject({exitCode: 2, message: expect.stringMatching(/^unknown kind "pods"/)});
	});
});
